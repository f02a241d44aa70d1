/** Queries of SR-1 secret registries: a tenant's version, its live registries (sealed), one run's registry. */
import type { SqlSession } from '../sql/session.ts';

/** The tenant's registry version (0 before any registry of it held a secret). */
export async function secretVersion(s: SqlSession, tenant: string): Promise<number> {
  return (await s.get<{ version: number }>('SELECT version FROM secret_versions WHERE tenant = ?', [tenant]))?.version ?? 0;
}

export interface SealedRegistry {
  readonly runId: string;
  readonly rowVersion: number;
  readonly keyId: string | undefined;
  /** Absent for a registry that holds no secret yet. */
  readonly sealed: string | undefined;
}

/** The tenant's live registries (what its writes are redacted against). */
export async function liveRegistries(s: SqlSession, a: { readonly tenant: string; readonly limit: number }): Promise<SealedRegistry[]> {
  const rows = await s.all<{ run_id: string; row_version: number; key_id: string | null; sealed: string | null }>(
    "SELECT run_id, row_version, key_id, sealed FROM secret_registries WHERE tenant = ? AND state = 'live' ORDER BY run_id",
    [a.tenant],
    a.limit,
  );
  return rows.map((r) => ({ runId: r.run_id, rowVersion: r.row_version, keyId: r.key_id ?? undefined, sealed: r.sealed ?? undefined }));
}

export interface RegistryState {
  readonly tenant: string;
  readonly state: 'live' | 'dropped';
  readonly lastUsedMs: number;
}

/** A run's registry row, if it has one. */
export async function registryRow(s: SqlSession, runId: string): Promise<RegistryState | undefined> {
  const r = await s.get<{ tenant: string; state: string; last_used_ms: number }>('SELECT tenant, state, last_used_ms FROM secret_registries WHERE run_id = ?', [runId]);
  return r === undefined ? undefined : { tenant: r.tenant, state: r.state === 'live' ? 'live' : 'dropped', lastUsedMs: r.last_used_ms };
}

/** Live registries sealed with a key other than `keyId` (what a rotation reseals), at most `limit`. */
export async function registriesSealedWithOther(s: SqlSession, a: { readonly keyId: string; readonly limit: number }): Promise<(SealedRegistry & { readonly tenant: string })[]> {
  const rows = await s.all<{ run_id: string; tenant: string; row_version: number; key_id: string; sealed: string }>(
    "SELECT run_id, tenant, row_version, key_id, sealed FROM secret_registries WHERE state = 'live' AND sealed IS NOT NULL AND key_id <> ? ORDER BY run_id",
    [a.keyId],
    a.limit,
  );
  return rows.map((r) => ({ runId: r.run_id, tenant: r.tenant, rowVersion: r.row_version, keyId: r.key_id, sealed: r.sealed }));
}
