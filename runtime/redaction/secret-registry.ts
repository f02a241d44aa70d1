/**
 * SR-1 per-run secret registry. The (simulated) BYOK resolver registers each plaintext it resolves at user,
 * tenant or run scope; platform-scope values (env-var fallbacks, service accounts) are out of SR-1's scope and
 * are not registered. Values shorter than 8 characters are not redacted (the gitleaks/TruffleHog floor). A
 * registry lives in process memory only and is dropped when its run ends.
 */
export type SecretScope = 'user' | 'tenant' | 'run' | 'platform';

/** Values shorter than this are never redacted. */
export const MIN_SECRET_LENGTH = 8;

export interface RegisteredSecret {
  readonly secretId: string;
  readonly value: string;
}

/** One run's registry. `version` changes whenever the set of secrets changes (for automaton caching). */
export class RunSecretRegistry {
  /** The tenant the run belongs to: background passes over that tenant's memory honour this registry too. */
  constructor(readonly tenant: string) {}
  readonly #byValue = new Map<string, string>();
  #version = 0;

  /** Register a resolved value. Returns whether it will be redacted. */
  register(secretId: string, value: string, scope: SecretScope): boolean {
    if (scope === 'platform' || typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return false;
    if (!/^[A-Za-z0-9._:-]{1,128}$/.test(secretId)) throw new RangeError('secretId must be 1-128 chars of [A-Za-z0-9._:-]');
    if (this.#byValue.get(value) === secretId) return true;
    this.#byValue.set(value, secretId);
    this.#version++;
    return true;
  }
  get version(): number {
    return this.#version;
  }
  get size(): number {
    return this.#byValue.size;
  }
  secrets(): readonly RegisteredSecret[] {
    return [...this.#byValue].map(([value, secretId]) => ({ secretId, value }));
  }
}

/** All live runs' registries, keyed by runId. */
export class SecretRegistries {
  readonly #runs = new Map<string, RunSecretRegistry>();
  /** The run's registry, created on first use. A run belongs to one tenant for its whole life. */
  forRun(runId: string, tenant: string): RunSecretRegistry {
    let r = this.#runs.get(runId);
    if (r === undefined) this.#runs.set(runId, (r = new RunSecretRegistry(tenant)));
    else if (r.tenant !== tenant) throw new RangeError('a run belongs to exactly one tenant');
    return r;
  }
  /** The registry of a live run, if any. */
  get(runId: string): RunSecretRegistry | undefined {
    return this.#runs.get(runId);
  }
  /** Every live run registry of a tenant (for background writers such as consolidation). */
  liveForTenant(tenant: string): RunSecretRegistry[] {
    return [...this.#runs.values()].filter((r) => r.tenant === tenant);
  }
  /** The run ended: its registry dies with it. */
  endRun(runId: string): void {
    this.#runs.delete(runId);
  }
  has(runId: string): boolean {
    return this.#runs.has(runId);
  }
}

/**
 * A simulated BYOK vault: `resolve` returns the stored plaintext and, as a real resolver would, registers it in
 * the run's registry when its scope is covered by SR-1.
 */
export class SimulatedByokResolver {
  readonly #vault = new Map<string, { value: string; scope: SecretScope }>();
  constructor(private readonly registries: SecretRegistries) {}
  store(secretId: string, value: string, scope: SecretScope): void {
    this.#vault.set(secretId, { value, scope });
  }
  resolve(runId: string, tenant: string, secretId: string): string | undefined {
    const s = this.#vault.get(secretId);
    if (s === undefined) return undefined;
    this.registries.forRun(runId, tenant).register(secretId, s.value, s.scope);
    return s.value;
  }
}
