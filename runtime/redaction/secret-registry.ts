/**
 * SR-1 secret registries. The (simulated) BYOK resolver registers each plaintext it resolves at user, tenant or
 * run scope; platform-scope values (env-var fallbacks, service accounts) are out of SR-1's scope and are not
 * registered. Values shorter than 8 characters are not redacted (the gitleaks/TruffleHog floor). Registries live
 * in process memory only.
 *
 * Lifetime and bounds (issue 12): a run's registry dies when its run ends (`endRun`) or when nobody has used it for
 * `idleTtlMs` (on the injected clock), whichever comes first. A tenant holds at most `maxLiveRunsPerTenant` live
 * registries, a registry at most `maxSecretsPerRun` secrets and a tenant's live secrets at most
 * `maxSecretCharsPerTenant` characters in all; one more is refused with 429 `quota_exceeded`.
 *
 * What a write redacts against is not each registry in turn but the tenant's {@link TenantSecrets}: the union of
 * its live registries, maintained as they register and end, so the chokepoint compiles one matcher per tenant and
 * recompiles it only when that union changes. A run belongs to one tenant for its whole life.
 */
import type { Clock } from '../shared/clock.ts';
import { systemClock } from '../shared/clock.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import { idCharsOnly, markerBody, markerOverlap, SECRET_ID_PATTERN } from './marker.ts';

export type SecretScope = 'user' | 'tenant' | 'run' | 'platform';

/** Values shorter than this are never redacted. */
export const MIN_SECRET_LENGTH = 8;

export interface RegisteredSecret {
  readonly secretId: string;
  readonly value: string;
}

/** A set of secrets the chokepoint can compile; `version` changes whenever the set does. */
export interface SecretSet {
  readonly version: number;
  readonly size: number;
  secrets(): readonly RegisteredSecret[];
}

export interface SecretRegistryLimits {
  /** Live run registries per tenant (a run claimed by a fixture or seed counts, secrets or not). */
  readonly maxLiveRunsPerTenant: number;
  /** Secrets one run may register. */
  readonly maxSecretsPerRun: number;
  /** Total length of the distinct live secret values of one tenant (bounds the cost of recompiling its matcher). */
  readonly maxSecretCharsPerTenant: number;
  /** A registry nobody has used (created, registered in, written through) for this long is dropped. */
  readonly idleTtlMs: number;
}

export const DEFAULT_SECRET_REGISTRY_LIMITS: SecretRegistryLimits = {
  maxLiveRunsPerTenant: 256,
  maxSecretsPerRun: 128,
  maxSecretCharsPerTenant: 65_536,
  idleTtlMs: 30 * 60_000,
};

/** A value or id the chokepoint could not keep collision-free: 400, nothing registered. Never names the value. */
export class SecretRefusedError extends WopkitError<'invalid_secret_id' | 'secret_overlaps_marker'> {
  constructor(code: SecretRefusedError['code'], reason: string) {
    const message = code === 'invalid_secret_id'
      ? 'a secretId must be 1-128 characters of [A-Za-z0-9._:-]'
      : `a secret value may not overlap the redaction marker [REDACTED:<secretId>]: ${reason}`;
    super(code, message, { ...BAD_REQUEST, message });
  }
}

/** The quota resource name each secret-registry bound reports (the `resource` of a `quota_exceeded` envelope). */
const SECRET_BOUND_RESOURCE: Readonly<Record<Exclude<keyof SecretRegistryLimits, 'idleTtlMs'>, string>> = {
  maxLiveRunsPerTenant: 'live-run-secret-registries',
  maxSecretsPerRun: 'secrets-per-run',
  maxSecretCharsPerTenant: 'secret-characters',
};

/**
 * A per-tenant bound is reached: 429 `quota_exceeded` with `{resource, limit}` (as every per-tenant quota) and the
 * name of the setting that bounds it; nothing registered.
 */
export class SecretBoundError extends WopkitError<'secret_bound_reached'> {
  constructor(setting: Exclude<keyof SecretRegistryLimits, 'idleTtlMs'>, bound: number) {
    const message = `secret registry bound reached: ${setting} is ${bound}; end runs (or let them go idle) and retry`;
    super('secret_bound_reached', message, { error: 'quota_exceeded', message, details: { resource: SECRET_BOUND_RESOURCE[setting], limit: bound, setting } });
  }
}

/** A run (or its registry) belongs to another tenant: 409 `conflict`. */
export class RunTenantConflictError extends WopkitError<'run_tenant_conflict'> {
  constructor() {
    super('run_tenant_conflict', 'a run belongs to exactly one tenant', { error: 'conflict', message: 'the run belongs to another tenant' });
  }
}

/** An ended registry was used again (a caller kept a reference past endRun): a programming error, 500. */
export class EndedRegistryError extends WopkitError<'registry_ended'> {
  constructor() {
    super('registry_ended', 'this run registry has ended; get a fresh one with forRun');
  }
}

/**
 * The union of a tenant's live run registries: each distinct value once, marked with the id of its earliest live
 * registration, and reference-counted by the registrations that hold it. Also the authority for marker rule 4
 * across the tenant (see marker.ts).
 */
export class TenantSecrets implements SecretSet {
  /** value → (secretId → registrations holding the value under that id), in registration order. */
  readonly #byValue = new Map<string, Map<string, number>>();
  /** secretId → registrations holding it (every id a marker of this tenant may carry). */
  readonly #ids = new Map<string, number>();
  /** Values made of id characters only: the only ones a marker body can spell. */
  readonly #idCharValues = new Set<string>();
  #chars = 0;
  #version = 0;
  /** Changes whenever the set of live ids does (the marker bodies of rule 4 are cached by it). */
  #idsVersion = 0;
  #bodies: { readonly idsVersion: number; readonly text: string } | undefined;

  constructor(readonly tenant: string, readonly maxChars = Number.POSITIVE_INFINITY) {}

  get version(): number {
    return this.#version;
  }
  get size(): number {
    return this.#byValue.size;
  }
  secrets(): readonly RegisteredSecret[] {
    return [...this.#byValue].map(([value, ids]) => ({ secretId: ids.keys().next().value!, value }));
  }

  /** Why (secretId, value) would break the marker rule within this tenant, or undefined. */
  collision(secretId: string, value: string): string | undefined {
    const overlap = markerOverlap(value);
    if (overlap !== undefined) return overlap;
    if (idCharsOnly(value) && (markerBody(secretId).includes(value) || this.#markerBodies().includes(value))) {
      return 'it lies inside a redaction marker of this tenant';
    }
    if (!this.#ids.has(secretId)) {
      const body = markerBody(secretId);
      for (const v of this.#idCharValues) if (body.includes(v)) return 'the marker of this secretId would spell a live secret of this tenant';
    }
    return undefined;
  }

  /** Whether adding `value` stays within the tenant's character bound. */
  fits(value: string): boolean {
    return this.#byValue.has(value) || this.#chars + value.length <= this.maxChars;
  }

  /** One registration holds (secretId, value). */
  add(secretId: string, value: string): void {
    const idCount = this.#ids.get(secretId) ?? 0;
    if (idCount === 0) this.#idsVersion++;
    this.#ids.set(secretId, idCount + 1);
    let holders = this.#byValue.get(value);
    if (holders === undefined) {
      this.#byValue.set(value, (holders = new Map()));
      if (idCharsOnly(value)) this.#idCharValues.add(value);
      this.#chars += value.length;
      this.#version++;
    }
    holders.set(secretId, (holders.get(secretId) ?? 0) + 1);
  }

  /** One registration of (secretId, value) is withdrawn. */
  remove(secretId: string, value: string): void {
    const idCount = (this.#ids.get(secretId) ?? 1) - 1;
    if (idCount > 0) this.#ids.set(secretId, idCount);
    else if (this.#ids.delete(secretId)) this.#idsVersion++;
    const holders = this.#byValue.get(value);
    const held = holders?.get(secretId);
    if (holders === undefined || held === undefined) return;
    if (held > 1) return void holders.set(secretId, held - 1);
    const wasMarker = holders.keys().next().value === secretId;
    holders.delete(secretId);
    if (holders.size > 0) {
      if (wasMarker) this.#version++; // the value is now marked with the next registration's id
      return;
    }
    this.#byValue.delete(value);
    this.#idCharValues.delete(value);
    this.#chars -= value.length;
    this.#version++;
  }

  /** Every live id's marker body, one per line (ids and values of rule 4 hold no line break). */
  #markerBodies(): string {
    if (this.#bodies?.idsVersion !== this.#idsVersion) {
      this.#bodies = { idsVersion: this.#idsVersion, text: [...this.#ids.keys()].map(markerBody).join('\n') };
    }
    return this.#bodies.text;
  }
}

/** One run's registry. `version` changes whenever its set of secrets changes (for matcher caching). */
export class RunSecretRegistry implements SecretSet {
  readonly #byValue = new Map<string, string>();
  readonly #tenantSet: TenantSecrets;
  readonly #maxSecrets: number;
  #version = 0;
  #ended = false;

  /**
   * `tenantSet`: the tenant-wide set this registry contributes to (a private one when the registry stands alone,
   * as in tests and benchmarks); `maxSecrets`: the per-run bound.
   */
  constructor(readonly tenant: string, tenantSet?: TenantSecrets, maxSecrets = Number.POSITIVE_INFINITY) {
    this.#tenantSet = tenantSet ?? new TenantSecrets(tenant);
    this.#maxSecrets = maxSecrets;
  }

  /**
   * Register a resolved value. Returns whether it will be redacted (platform scope and values under 8 characters
   * are not). Throws SecretRefusedError (400) for an id or value that could collide with the marker syntax, and
   * SecretBoundError (429) past a bound; a refused value is not registered.
   */
  register(secretId: string, value: string, scope: SecretScope): boolean {
    if (this.#ended) throw new EndedRegistryError();
    if (scope === 'platform' || typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return false;
    if (typeof secretId !== 'string' || !SECRET_ID_PATTERN.test(secretId)) throw new SecretRefusedError('invalid_secret_id', 'malformed id');
    const previous = this.#byValue.get(value);
    if (previous === secretId) return true;
    const collision = this.#tenantSet.collision(secretId, value);
    if (collision !== undefined) throw new SecretRefusedError('secret_overlaps_marker', collision);
    if (previous === undefined && this.#byValue.size >= this.#maxSecrets) throw new SecretBoundError('maxSecretsPerRun', this.#maxSecrets);
    if (!this.#tenantSet.fits(value)) throw new SecretBoundError('maxSecretCharsPerTenant', this.#tenantSet.maxChars);
    this.#tenantSet.add(secretId, value);
    if (previous !== undefined) this.#tenantSet.remove(previous, value);
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
  /** The run is over: withdraw every secret from the tenant's set. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const [value, secretId] of this.#byValue) this.#tenantSet.remove(secretId, value);
    this.#byValue.clear();
    this.#version++;
  }
}

interface TenantEntry {
  readonly secrets: TenantSecrets;
  readonly runs: Set<RunSecretRegistry>;
}

interface LiveRun {
  readonly registry: RunSecretRegistry;
  lastUsed: number;
}

export interface SecretRegistriesOptions {
  readonly clock?: Clock;
  readonly limits?: Partial<SecretRegistryLimits>;
}

/**
 * Every live run registry, by run id, and per tenant the union the chokepoint redacts against. Expiry is lazy and
 * amortised O(1): runs are kept in least-recently-used order, and every access first drops those idle too long.
 */
export class SecretRegistries {
  readonly limits: SecretRegistryLimits;
  readonly #clock: Clock;
  /** runId → live run, least recently used first (a use re-inserts). */
  readonly #runs = new Map<string, LiveRun>();
  readonly #tenants = new Map<string, TenantEntry>();

  constructor(o: SecretRegistriesOptions = {}) {
    this.#clock = o.clock ?? systemClock;
    this.limits = { ...DEFAULT_SECRET_REGISTRY_LIMITS, ...o.limits };
  }

  /**
   * The run's registry, created on first use (and the use counts as activity). Throws RunTenantConflictError when
   * the run belongs to another tenant, SecretBoundError when the tenant already holds its bound of live registries.
   */
  forRun(runId: string, tenant: string): RunSecretRegistry {
    const live = this.#use(runId);
    if (live !== undefined) {
      if (live.tenant !== tenant) throw new RunTenantConflictError();
      return live;
    }
    let entry = this.#tenants.get(tenant);
    if (entry !== undefined && entry.runs.size >= this.limits.maxLiveRunsPerTenant) {
      throw new SecretBoundError('maxLiveRunsPerTenant', this.limits.maxLiveRunsPerTenant);
    }
    if (entry === undefined) this.#tenants.set(tenant, (entry = { secrets: new TenantSecrets(tenant, this.limits.maxSecretCharsPerTenant), runs: new Set() }));
    const registry = new RunSecretRegistry(tenant, entry.secrets, this.limits.maxSecretsPerRun);
    entry.runs.add(registry);
    this.#runs.set(runId, { registry, lastUsed: this.#clock.now() });
    return registry;
  }

  /** The registry of a live run, if any (a use: it postpones the run's idle expiry). */
  get(runId: string): RunSecretRegistry | undefined {
    return this.#use(runId);
  }

  /** Whether the run has a live registry (not a use). */
  has(runId: string): boolean {
    this.#expire();
    return this.#runs.has(runId);
  }

  /** The tenant a live run's registry belongs to (not a use). */
  tenantOf(runId: string): string | undefined {
    this.#expire();
    return this.#runs.get(runId)?.registry.tenant;
  }

  /** The union of the tenant's live registries: what a write into its memory is redacted against. */
  tenantSecrets(tenant: string): TenantSecrets | undefined {
    this.#expire();
    return this.#tenants.get(tenant)?.secrets;
  }

  /** Every live run registry of a tenant. */
  liveForTenant(tenant: string): RunSecretRegistry[] {
    this.#expire();
    return [...(this.#tenants.get(tenant)?.runs ?? [])];
  }

  /** The run ended: its registry dies with it. */
  endRun(runId: string): void {
    const live = this.#runs.get(runId);
    if (live !== undefined) this.#drop(runId, live.registry);
  }

  #use(runId: string): RunSecretRegistry | undefined {
    this.#expire();
    const live = this.#runs.get(runId);
    if (live === undefined) return undefined;
    this.#runs.delete(runId);
    live.lastUsed = this.#clock.now();
    this.#runs.set(runId, live);
    return live.registry;
  }

  /** Drop every run idle for idleTtlMs or more (the oldest come first, so this stops at the first live one). */
  #expire(): void {
    const cutoff = this.#clock.now() - this.limits.idleTtlMs;
    for (const [runId, live] of this.#runs) {
      if (live.lastUsed > cutoff) break;
      this.#drop(runId, live.registry);
    }
  }

  #drop(runId: string, registry: RunSecretRegistry): void {
    this.#runs.delete(runId);
    registry.end();
    const entry = this.#tenants.get(registry.tenant);
    if (entry === undefined) return;
    entry.runs.delete(registry);
    if (entry.runs.size === 0) this.#tenants.delete(registry.tenant);
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
