/**
 * SR-1 secret registries. The (simulated) BYOK resolver registers each plaintext it resolves at user, tenant or
 * run scope; platform-scope values (env-var fallbacks, service accounts) are out of SR-1's scope and are not
 * registered. Values shorter than 8 characters are not redacted (the gitleaks/TruffleHog floor).
 *
 * Registries live in the store, sealed (sealing.ts: AES-256-GCM under a configured key; the store only ever holds
 * ciphertext), so a restart, or another host on the same database, redacts exactly as the host that registered
 * them. What a write redacts against is the tenant's {@link TenantSecrets}: the union of its live registries,
 * compiled into one matcher. That compiled set is the one thing a process keeps across requests, and every write
 * checks, in its own transaction, that the tenant's registry version is still the one the set was built from
 * (`secrets.expect`): a write redacted against a set that changed meanwhile is refused and re-run.
 *
 * Lifetime and bounds: a run's registry dies when its run ends or when nobody has used it for `idleTtlMs`; its run
 * then refuses every memory write (`secret_registry_unavailable`) rather than store a value it can no longer
 * recognise — and so does every write of a tenant while one of its live registries cannot be opened with the
 * configured keys. A tenant holds at most `maxLiveRunsPerTenant` live registries, a registry at most
 * `maxSecretsPerRun` secrets and a tenant's live secrets at most `maxSecretCharsPerTenant` characters in all; one
 * more is refused with 429 `quota_exceeded`. A run belongs to one tenant for its whole life.
 */
import type { Clock } from '../shared/clock.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import { SecretRegistryUnavailableError, type Tx } from '../storage/index.ts';

import { idCharsOnly, markerBody, markerOverlap, SECRET_ID_PATTERN } from './marker.ts';
import { redact } from './chokepoint.ts';
import { registryAad, type SecretKeyRing } from './sealing.ts';

export { SecretRegistryUnavailableError } from '../storage/index.ts';

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

/** A run's registry as the store keeps it, opened: its secrets by value, and the row version they were read at. */
interface OpenedRegistry {
  readonly runId: string;
  readonly rowVersion: number;
  readonly byValue: ReadonlyMap<string, string>;
}

/** A tenant's live registries as of one version, opened, and their union. */
interface TenantView {
  readonly version: number;
  readonly registries: ReadonlyMap<string, OpenedRegistry>;
  readonly set: TenantSecrets;
  /** Some live registry could not be opened with the configured keys: no write of the tenant may proceed. */
  readonly unreadable: boolean;
}

export interface SecretRegistriesOptions {
  readonly clock: Clock;
  readonly keys: SecretKeyRing;
  readonly limits?: Partial<SecretRegistryLimits>;
}

/**
 * The store-backed registries. `scope(tx, tenant)` gives a request its view of one tenant's registries: claim a
 * run, register secrets in it, redact content, end it — everything it changes is planned into the request's tx
 * and committed with the request's other writes.
 */
export class SecretRegistries {
  readonly limits: SecretRegistryLimits;
  readonly #o: SecretRegistriesOptions;
  /**
   * Opened registries memoised by the tenant's registry version, the most recently used MAX_CACHED_TENANTS tenants:
   * derived data (decrypted and indexed), never an answer of its own. Every request reads the tenant's version
   * through its tx first and uses the memo only when it was opened at that same version; otherwise it reads the
   * registries afresh. The request's transaction still checks the version (`secrets.expect`): when another request or
   * host moved it in between, the commit is refused as stale and the request runs again against a fresh read.
   */
  readonly #views = new Map<string, TenantView>();

  constructor(o: SecretRegistriesOptions) {
    this.#o = o;
    this.limits = { ...DEFAULT_SECRET_REGISTRY_LIMITS, ...o.limits };
  }

  get keys(): SecretKeyRing {
    return this.#o.keys;
  }

  /** The tenant's live registries as the store holds them now, read through `tx` (opened afresh unless the memo is at the store's version). */
  async view(tx: Tx, tenant: string): Promise<TenantView> {
    const version = await tx.read.secretVersion(tenant);
    const memo = this.#views.get(tenant);
    if (memo !== undefined && memo.version === version) {
      this.#cache(tenant, memo);
      return memo;
    }
    const rows = await tx.read.liveRegistries({ tenant, limit: this.limits.maxLiveRunsPerTenant + 1 });
    const set = new TenantSecrets(tenant, this.limits.maxSecretCharsPerTenant);
    const registries = new Map<string, OpenedRegistry>();
    let unreadable = false;
    for (const r of rows) {
      const byValue = new Map<string, string>();
      if (r.sealed !== undefined) {
        const text = r.keyId === undefined ? undefined : this.#o.keys.open(r.keyId, r.sealed, registryAad(r.runId, tenant));
        if (text === undefined) {
          unreadable = true;
          continue;
        }
        for (const { secretId, value } of JSON.parse(text) as RegisteredSecret[]) {
          byValue.set(value, secretId);
          set.add(secretId, value);
        }
      }
      registries.set(r.runId, { runId: r.runId, rowVersion: r.rowVersion, byValue });
    }
    const view: TenantView = { version, registries, set, unreadable };
    this.#cache(tenant, view);
    return view;
  }

  /** Keep `view` as the tenant's most recently used one; past MAX_CACHED_TENANTS the least recently used goes. */
  #cache(tenant: string, view: TenantView): void {
    this.#views.delete(tenant);
    this.#views.set(tenant, view);
    if (this.#views.size > MAX_CACHED_TENANTS) this.#views.delete(this.#views.keys().next().value!);
  }

  /** @internal a request's commit failed: its view may be stale, read the tenant afresh next time. */
  forget(tenant: string, view: TenantView): void {
    if (this.#views.get(tenant) === view) this.#views.delete(tenant);
  }

  /** A request's view of `tenant`'s registries: its writes are planned into `tx`. */
  async scope(tx: Tx, tenant: string): Promise<TenantSecretScope> {
    return new TenantSecretScope(this, this.#o, tx, tenant, await this.view(tx, tenant));
  }

  /** @internal a committed registration moved the tenant's version on: keep the view that matches it. */
  remember(tenant: string, view: TenantView): void {
    this.#cache(tenant, view);
  }
}

/** What one request does with one tenant's registries (see SecretRegistries.scope). */
export class TenantSecretScope {
  readonly #owner: SecretRegistries;
  readonly #o: SecretRegistriesOptions;
  readonly #tx: Tx;
  readonly tenant: string;
  #view: TenantView;
  /** Registries this request changed: runId → their new secrets (value → id), staged until the tx commits. */
  readonly #changed = new Map<string, Map<string, string>>();
  readonly #used = new Set<string>();
  readonly #ended = new Set<string>();
  /** This request ended or changed a registry (the tenant's version may move when it commits; a claim does not move it). */
  #moved = false;
  /** … and left the view that matches the new version (a registration, #stage). */
  #remembered = false;
  #set: TenantSecrets;

  constructor(owner: SecretRegistries, o: SecretRegistriesOptions, tx: Tx, tenant: string, view: TenantView) {
    this.#owner = owner;
    this.#o = o;
    this.#tx = tx;
    this.tenant = tenant;
    this.#view = view;
    this.#set = view.set;
    // Whatever this request redacts is redacted against this version: its transaction checks it is still current,
    // and a refused commit forgets the view (it may be the stale one).
    tx.add('secrets.expect', { tenant, version: view.version });
    tx.afterFailure(() => owner.forget(tenant, view));
    // A request that ended or changed a registry moved the tenant on: unless it left the matching view
    // (#stage), the next request reads the tenant afresh rather than meet a stale refusal.
    tx.afterCommit(() => {
      if (this.#moved && !this.#remembered) owner.forget(tenant, view);
    });
    tx.beforeCommit(() => this.#stage());
  }

  get #now(): number {
    return this.#o.clock.now();
  }

  /**
   * The run belongs to this tenant (created when it does not exist yet, as a run a seam named) and has a live
   * registry from now on (created empty, counted against the tenant's bound); refused when the run belongs to
   * another tenant or its registry was dropped.
   */
  claimRun(runId: string): void {
    const now = this.#now;
    this.#tx.add('run.create', { runId, tenant: this.tenant, kind: 'seed', status: 'running', createdMs: now, doc: { runId, tenant: this.tenant }, ifExists: 'keep' });
    this.#tx.add('secrets.claim', { runId, tenant: this.tenant, atMs: now, idleMs: this.#owner.limits.idleTtlMs, limit: this.#owner.limits.maxLiveRunsPerTenant });
    this.#used.add(runId);
  }

  /**
   * Register a resolved value in the run's registry (claimed in this request, or earlier). Returns whether it will be
   * redacted (platform scope and values under 8 characters are not). Throws SecretRefusedError (400) for an id or
   * value that could collide with the marker syntax, SecretBoundError (429) past a bound; nothing is registered then.
   */
  async register(runId: string, secretId: string, value: string, scope: SecretScope): Promise<boolean> {
    if (scope === 'platform' || typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return false;
    if (typeof secretId !== 'string' || !SECRET_ID_PATTERN.test(secretId)) throw new SecretRefusedError('invalid_secret_id', 'malformed id');
    const registry = await this.#registry(runId);
    const previous = registry.get(value);
    if (previous === secretId) return true;
    const collision = this.#set.collision(secretId, value);
    if (collision !== undefined) throw new SecretRefusedError('secret_overlaps_marker', collision);
    if (previous === undefined && registry.size >= this.#owner.limits.maxSecretsPerRun) throw new SecretBoundError('maxSecretsPerRun', this.#owner.limits.maxSecretsPerRun);
    if (!this.#set.fits(value)) throw new SecretBoundError('maxSecretCharsPerTenant', this.#set.maxChars);
    if (this.#set === this.#view.set) this.#set = this.#rebuild();
    this.#set.add(secretId, value);
    if (previous !== undefined) this.#set.remove(previous, value);
    registry.set(value, secretId);
    return true;
  }

  /**
   * Register a value for this request's writes only (a seed that names no run): redacted like any registered
   * secret, checked by the same rules, and gone with the request — nothing of it is stored.
   */
  async registerForRequest(secretId: string, value: string, scope: SecretScope): Promise<boolean> {
    return this.register(REQUEST_ONLY, secretId, value, scope);
  }

  /** The registry of `runId` as this request sees it (staged changes included); a copy it may change. */
  async #registry(runId: string): Promise<Map<string, string>> {
    const staged = this.#changed.get(runId);
    if (staged !== undefined) return staged;
    const opened = this.#view.registries.get(runId);
    const copy = new Map(opened?.byValue ?? []);
    this.#changed.set(runId, copy);
    return copy;
  }

  /** A union this request may change: the view's registries again (the cached set is shared with other requests). */
  #rebuild(): TenantSecrets {
    const set = new TenantSecrets(this.tenant, this.#owner.limits.maxSecretCharsPerTenant);
    for (const r of this.#view.registries.values()) for (const [value, id] of r.byValue) set.add(id, value);
    return set;
  }

  /** A write attributed to `runId` (once per request): its registry must still be live, and the write is a use. */
  useRun(runId: string): void {
    if (this.#used.has(runId)) return;
    this.#used.add(runId);
    this.#tx.add('secrets.use', { runId, tenant: this.tenant, atMs: this.#now, idleMs: this.#owner.limits.idleTtlMs });
  }

  /** SR-1: the content with every live secret of the tenant replaced by its marker. */
  redact(content: string): string {
    if (this.#view.unreadable) throw new SecretRegistryUnavailableError('unreadable');
    return redact(content, this.#set);
  }

  /** The tenant's union as this request sees it (a redaction set). */
  get secrets(): SecretSet {
    return this.#set;
  }

  /** The run ended: its registry dies with it (planned; what this request registered in it is not stored). */
  endRun(runId: string): void {
    this.#moved = true;
    this.#ended.add(runId);
    this.#tx.add('secrets.end', { runId });
  }

  /** Before the tx commits: seal and store every registry this request changed. */
  #stage(): void {
    if (this.#changed.size === 0) return;
    let version = this.#view.version;
    const registries = new Map(this.#view.registries);
    for (const [runId, byValue] of this.#changed) {
      if (runId === REQUEST_ONLY || this.#ended.has(runId)) continue;
      const before = this.#view.registries.get(runId);
      if (before !== undefined && sameSecrets(before.byValue, byValue)) continue;
      const secrets: RegisteredSecret[] = [...byValue].map(([value, secretId]) => ({ secretId, value }));
      const { keyId, sealed } = this.#o.keys.seal(JSON.stringify(secrets), registryAad(runId, this.tenant));
      this.#tx.add('secrets.store', {
        runId, tenant: this.tenant, expectTenantVersion: version, expectRowVersion: before?.rowVersion ?? 0, keyId, sealed,
        secretCount: secrets.length, secretChars: secrets.reduce((n, s) => n + s.value.length, 0), atMs: this.#now,
      });
      version++;
      registries.set(runId, { runId, rowVersion: (before?.rowVersion ?? 0) + 1, byValue });
    }
    if (version === this.#view.version) return;
    const next: TenantView = { version, registries, set: this.#set, unreadable: this.#view.unreadable };
    this.#moved = true;
    if (this.#ended.size === 0) {
      this.#remembered = true;
      this.#tx.afterCommit(() => this.#owner.remember(this.tenant, next));
    }
  }
}

/** Tenants whose opened registries are kept between requests (the least recently used beyond it are read again). */
const MAX_CACHED_TENANTS = 10_000;

/** The registry of secrets registered for one request's writes only (never stored). */
const REQUEST_ONLY = '\u0000request';

const sameSecrets = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean => a.size === b.size && [...a].every(([v, id]) => b.get(v) === id);

/**
 * A simulated BYOK vault: `resolve` returns the stored plaintext and, as a real resolver would, registers it in
 * the run's registry when its scope is covered by SR-1. The vault stands for an external secret manager (not the
 * store): it is configured in process, like the keys a host is given.
 */
export class SimulatedByokResolver {
  readonly #vault = new Map<string, { value: string; scope: SecretScope }>();
  store(secretId: string, value: string, scope: SecretScope): void {
    this.#vault.set(secretId, { value, scope });
  }
  async resolve(registries: TenantSecretScope, runId: string, secretId: string): Promise<string | undefined> {
    const s = this.#vault.get(secretId);
    if (s === undefined) return undefined;
    await registries.register(runId, secretId, s.value, s.scope);
    return s.value;
  }
}
