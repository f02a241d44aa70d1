/** Queries of SR-1 secret registries: a tenant's version, its live registries (sealed), one run's registry. */
import { columnsOf } from '../sql/columns.ts';
import type { Row, SqlSession } from '../sql/session.ts';

const VERSIONS = columnsOf('secret_versions');
const REGISTRIES = columnsOf('secret_registries');

/** The tenant's registry version (0 before any registry of it held a secret). */
export async function secretVersion(s: SqlSession, tenant: string): Promise<number> {
  const r = await s.get('SELECT version FROM secret_versions WHERE tenant = ?', [tenant]);
  return r === undefined ? 0 : VERSIONS.int(r, 'version');
}

export interface SealedRegistry {
  readonly runId: string;
  readonly rowVersion: number;
  readonly keyId: string | undefined;
  /** Absent for a registry that holds no secret yet. */
  readonly sealed: string | undefined;
}

/** A registry row's sealed state (run_id, row_version, key_id, sealed). */
const sealedOf = (r: Row): SealedRegistry => ({
  runId: REGISTRIES.text(r, 'run_id'),
  rowVersion: REGISTRIES.int(r, 'row_version'),
  keyId: REGISTRIES.optText(r, 'key_id'),
  sealed: REGISTRIES.optText(r, 'sealed'),
});

/** The tenant's live registries (what its writes are redacted against). */
export async function liveRegistries(s: SqlSession, a: { readonly tenant: string; readonly limit: number }): Promise<SealedRegistry[]> {
  const rows = await s.all(
    "SELECT run_id, row_version, key_id, sealed FROM secret_registries WHERE tenant = ? AND state = 'live' ORDER BY run_id",
    [a.tenant],
    a.limit,
  );
  return rows.map(sealedOf);
}

export interface RegistryState {
  readonly tenant: string;
  readonly state: 'live' | 'dropped';
  readonly lastUsedMs: number;
}

/** A run's registry row, if it has one. */
export async function registryRow(s: SqlSession, runId: string): Promise<RegistryState | undefined> {
  const r = await s.get('SELECT tenant, state, last_used_ms FROM secret_registries WHERE run_id = ?', [runId]);
  return r === undefined ? undefined : { tenant: REGISTRIES.text(r, 'tenant'), state: REGISTRIES.text(r, 'state') === 'live' ? 'live' : 'dropped', lastUsedMs: REGISTRIES.int(r, 'last_used_ms') };
}

/** Live registries sealed with a key other than `keyId` (what a rotation reseals), at most `limit`. */
export async function registriesSealedWithOther(s: SqlSession, a: { readonly keyId: string; readonly limit: number }): Promise<(SealedRegistry & { readonly tenant: string })[]> {
  const rows = await s.all(
    "SELECT run_id, tenant, row_version, key_id, sealed FROM secret_registries WHERE state = 'live' AND sealed IS NOT NULL AND key_id <> ? ORDER BY run_id",
    [a.keyId],
    a.limit,
  );
  return rows.map((r) => ({ ...sealedOf(r), tenant: REGISTRIES.text(r, 'tenant') }));
}
