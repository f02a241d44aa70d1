/**
 * SR-1 run secret registries as rows: the registry's secrets are sealed (AES-256-GCM) by the runtime before they
 * reach the store, which only ever holds ciphertext. `secret_versions` moves whenever a tenant's set of live secrets
 * does: a write decided on a tenant's registries checks the version it read (`expectVersion`) in its own
 * transaction, so it can never commit a redaction made against a set that changed meanwhile.
 *
 * A registry that is dropped (its run ended, it went idle, or it was retired) keeps its row, without its secrets,
 * as long as its run exists: its run then refuses every memory write (`secret_registry_unavailable`) rather than
 * store a value it can no longer recognise.
 */
import { WopkitError } from '../../shared/errors.ts';
import { StoreRefusal } from '../refusal.ts';
import { columnsOf } from '../sql/columns.ts';
import type { SqlSession } from '../sql/session.ts';

const REGISTRIES = columnsOf('secret_registries');
const VERSIONS = columnsOf('secret_versions');
const RUNS = columnsOf('runs');
import { bump } from './quota.ts';
import { QUOTA_ENDED_RUNS } from './runs.ts';

export const QUOTA_REGISTRIES = 'live-run-secret-registries';

/** A write in a run whose registry is gone (ended, idle past its lifetime, or unreadable): refused, nothing stored. */
export class SecretRegistryUnavailableError extends WopkitError<'secret_registry_unavailable'> {
  readonly reason: 'dropped' | 'idle' | 'unreadable';
  constructor(reason: 'dropped' | 'idle' | 'unreadable') {
    const message = reason === 'unreadable'
      ? "a live secret registry of this tenant cannot be opened with the secret keys this host was given, so SR-1 cannot be honoured: no memory write of the tenant is taken until the host is given the keys it was sealed with, or the registry idles out"
      : `the secret registry of this run was ${reason === 'idle' ? 'dropped after its idle lifetime' : 'dropped'}; the run can no longer write memory (SR-1 could not be honoured)`;
    super('secret_registry_unavailable', message, { error: 'secret_registry_unavailable', message, details: { reason } });
    this.reason = reason;
  }
}

/** The run belongs to another tenant (409 `conflict`): a run belongs to one tenant for its whole life. */
export const runTenantConflict = (): StoreRefusal => new StoreRefusal('run_tenant_conflict', 'a run belongs to exactly one tenant', { error: 'conflict', message: 'the run belongs to another tenant' });

/**
 * The tenant holds its bound of live registries: 429 `quota_exceeded {resource, limit, setting}`, as every SR-1 bound
 * answers (SecretBoundError's envelope; carried as data, so it survives the writer thread).
 */
function liveRegistriesReached(limit: number): StoreRefusal {
  const message = `secret registry bound reached: maxLiveRunsPerTenant is ${limit}; end runs (or let them go idle) and retry`;
  return new StoreRefusal('secret_bound_reached', message, { error: 'quota_exceeded', message, details: { resource: QUOTA_REGISTRIES, limit, setting: 'maxLiveRunsPerTenant' } });
}

const stale = (): StoreRefusal => new StoreRefusal('stale_read', "the tenant's secret registries changed since they were read");

interface RegistryRow {
  readonly tenant: string;
  readonly state: string;
  readonly last_used_ms: number;
  readonly row_version: number;
  readonly secret_count: number;
}

async function registryOf(s: SqlSession, runId: string): Promise<RegistryRow | undefined> {
  const r = await s.get('SELECT tenant, state, last_used_ms, row_version, secret_count FROM secret_registries WHERE run_id = ?', [runId]);
  if (r === undefined) return undefined;
  return {
    tenant: REGISTRIES.text(r, 'tenant'),
    state: REGISTRIES.text(r, 'state'),
    last_used_ms: REGISTRIES.int(r, 'last_used_ms'),
    row_version: REGISTRIES.int(r, 'row_version'),
    secret_count: REGISTRIES.int(r, 'secret_count'),
  };
}

async function bumpVersion(s: SqlSession, tenant: string): Promise<void> {
  await s.run('INSERT INTO secret_versions (tenant, version) VALUES (?, 1) ON CONFLICT (tenant) DO UPDATE SET version = secret_versions.version + 1', [tenant]);
}

/** Refuse unless the tenant's registries are still at `version` (what the caller's redaction was made against). */
export async function expectVersion(s: SqlSession, a: { readonly tenant: string; readonly version: number }): Promise<void> {
  const found = await s.get('SELECT version FROM secret_versions WHERE tenant = ?', [a.tenant]);
  const v = found === undefined ? 0 : VERSIONS.int(found, 'version');
  if (v !== a.version) throw stale();
}

/**
 * The run has a live registry of `tenant` from now on (created empty when missing, counted against the tenant's
 * bound of live registries); a use of an existing one. Refused when the run is another tenant's, or its registry
 * was dropped.
 */
export async function claimRegistry(s: SqlSession, a: { readonly runId: string; readonly tenant: string; readonly atMs: number; readonly idleMs: number; readonly limit: number }): Promise<void> {
  const row = await registryOf(s, a.runId);
  if (row === undefined) {
    await s.run("INSERT INTO secret_registries (run_id, tenant, state, last_used_ms, row_version, key_id, sealed, secret_count, secret_chars) VALUES (?, ?, 'live', ?, 0, NULL, NULL, 0, 0)", [a.runId, a.tenant, a.atMs]);
    if ((await bump(s, a.tenant, QUOTA_REGISTRIES, '', 1)) > a.limit) throw liveRegistriesReached(a.limit);
    return;
  }
  await useRegistry(s, { runId: a.runId, tenant: a.tenant, atMs: a.atMs, idleMs: a.idleMs }, row);
}

/**
 * A memory write attributed to the run: the run must be of the write's tenant, its registry, if it has one, must be
 * live and not idle past its lifetime (else SecretRegistryUnavailableError), and the write counts as a use. A run
 * without a registry writes freely.
 */
export async function useRegistry(s: SqlSession, a: { readonly runId: string; readonly tenant: string; readonly atMs: number; readonly idleMs: number }, known?: RegistryRow): Promise<void> {
  const row = known ?? (await registryOf(s, a.runId));
  if (row === undefined) {
    // A run without a registry writes freely — into its own tenant only: its log never carries another tenant's memory.
    const run = await s.get('SELECT tenant FROM runs WHERE run_id = ?', [a.runId]);
    if (run !== undefined && RUNS.text(run, 'tenant') !== a.tenant) throw runTenantConflict();
    return;
  }
  if (row.tenant !== a.tenant) throw runTenantConflict();
  if (row.state !== 'live') throw new SecretRegistryUnavailableError('dropped');
  if (row.last_used_ms <= a.atMs - a.idleMs) throw new SecretRegistryUnavailableError('idle');
  await s.run('UPDATE secret_registries SET last_used_ms = ? WHERE run_id = ? AND last_used_ms < ?', [a.atMs, a.runId, a.atMs]);
}

export interface StoreSecretsArgs {
  readonly runId: string;
  readonly tenant: string;
  /** The tenant version and the registry version the new set was computed from. */
  readonly expectTenantVersion: number;
  readonly expectRowVersion: number;
  readonly keyId: string;
  /** The registry's secrets, sealed by the runtime (the store never sees a plaintext). */
  readonly sealed: string;
  readonly secretCount: number;
  readonly secretChars: number;
  readonly atMs: number;
}

/** Replace a live registry's sealed secrets (registration); refused as stale when either version moved. */
export async function storeSecrets(s: SqlSession, a: StoreSecretsArgs): Promise<void> {
  await expectVersion(s, { tenant: a.tenant, version: a.expectTenantVersion });
  const n = await s.run(
    "UPDATE secret_registries SET key_id = ?, sealed = ?, secret_count = ?, secret_chars = ?, row_version = row_version + 1, last_used_ms = ? WHERE run_id = ? AND tenant = ? AND state = 'live' AND row_version = ?",
    [a.keyId, a.sealed, a.secretCount, a.secretChars, a.atMs, a.runId, a.tenant, a.expectRowVersion],
  );
  if (n !== 1) throw stale();
  await bumpVersion(s, a.tenant);
}

/** Re-seal a registry under another key (rotation): the same secrets, so the tenant's version does not move. */
export async function resealSecrets(s: SqlSession, a: { readonly runId: string; readonly tenant: string; readonly expectRowVersion: number; readonly keyId: string; readonly sealed: string }): Promise<boolean> {
  const moved = (await s.run("UPDATE secret_registries SET key_id = ?, sealed = ?, row_version = row_version + 1 WHERE run_id = ? AND tenant = ? AND state = 'live' AND row_version = ?", [a.keyId, a.sealed, a.runId, a.tenant, a.expectRowVersion])) === 1;
  // The row moved on: views of the tenant taken before must be read again (their row versions are stale).
  if (moved) await bumpVersion(s, a.tenant);
  return moved;
}

/**
 * Drop a registry (its run ended, or it went idle): its secrets are erased, its row stays as the run's tombstone.
 * A run that exists only for its registry (kind `seed`: a run a seed or a fixture named) is over with it: it ends
 * at the registry's last use, so run retention retires it — its log and this tombstone with it — like any ended run.
 * Whether the registry was live.
 */
export async function endRegistry(s: SqlSession, a: { readonly runId: string }): Promise<boolean> {
  const row = await registryOf(s, a.runId);
  if (row === undefined || row.state !== 'live') return false;
  await s.run("UPDATE secret_registries SET state = 'dropped', key_id = NULL, sealed = NULL, secret_count = 0, secret_chars = 0, row_version = row_version + 1 WHERE run_id = ?", [a.runId]);
  await bump(s, row.tenant, QUOTA_REGISTRIES, '', -1);
  if (row.secret_count > 0) await bumpVersion(s, row.tenant);
  const ended = await s.run("UPDATE runs SET ended_ms = ?, status = 'completed' WHERE run_id = ? AND kind = 'seed' AND ended_ms IS NULL", [row.last_used_ms, a.runId]);
  if (ended > 0) await bump(s, row.tenant, QUOTA_ENDED_RUNS, '', 1);
  return true;
}

/** Drop up to `limit` registries unused since `cutoffMs` (their idle lifetime passed); how many. */
export async function dropIdleRegistries(s: SqlSession, a: { readonly cutoffMs: number; readonly limit: number }): Promise<number> {
  const rows = await s.all("SELECT run_id FROM secret_registries WHERE state = 'live' AND last_used_ms <= ? ORDER BY last_used_ms", [a.cutoffMs], a.limit);
  for (const r of rows) await endRegistry(s, { runId: REGISTRIES.text(r, 'run_id') });
  return rows.length;
}

/** Forget registries entirely (their runs are retired): a live one is ended first. */
export async function forgetRegistries(s: SqlSession, runIds: readonly string[]): Promise<void> {
  for (const runId of runIds) {
    await endRegistry(s, { runId });
    await s.run('DELETE FROM secret_registries WHERE run_id = ?', [runId]);
  }
}
