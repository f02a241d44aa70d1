/**
 * The counts every bound is checked against, moved in the same transaction as the rows they count: a count is a row
 * of `quotas` keyed by (tenant, resource, scope), and `bump` moves it and refuses (QuotaExceededError, 429) when an
 * increase passes the bound — the transaction then rolls back, so nothing of the refused request stays.
 */
import { QuotaExceededError } from '../../shared/quota.ts';
import { columnsOf } from '../sql/columns.ts';
import type { SqlSession } from '../sql/session.ts';

const QUOTAS = columnsOf('quotas');

/** Move (tenant, resource, scope) by `delta`; past `limit` (increases only) the request is refused. The new count. */
export async function bump(s: SqlSession, tenant: string, resource: string, scope: string, delta: number, limit?: number): Promise<number> {
  if (delta === 0) return count(s, tenant, resource, scope);
  const row = await s.get(
    'INSERT INTO quotas (tenant, resource, scope, n) VALUES (?, ?, ?, ?) ON CONFLICT (tenant, resource, scope) DO UPDATE SET n = quotas.n + excluded.n RETURNING n',
    [tenant, resource, scope, delta],
  );
  const n = QUOTAS.int(row ?? {}, 'n');
  if (delta > 0 && limit !== undefined && n > limit) throw new QuotaExceededError(resource, limit);
  // A count back at zero leaves no row behind (a scope that held entries once costs nothing once emptied).
  if (n <= 0) await s.run('DELETE FROM quotas WHERE tenant = ? AND resource = ? AND scope = ?', [tenant, resource, scope]);
  return n;
}

/** The current count of (tenant, resource, scope) (0 when never counted). */
export async function count(s: SqlSession, tenant: string, resource: string, scope = ''): Promise<number> {
  const row = await s.get('SELECT n FROM quotas WHERE tenant = ? AND resource = ? AND scope = ?', [tenant, resource, scope]);
  return row === undefined ? 0 : QUOTAS.int(row, 'n');
}

/** One move of `bumpAll`: (resource, scope) by `delta`, refused past `limit` (increases only). */
export interface QuotaMove {
  readonly resource: string;
  readonly scope: string;
  readonly delta: number;
  readonly limit?: number;
}

/** Several moves of one tenant's counts in one statement (the write path's entries and bytes); the same refusals. */
export async function bumpAll(s: SqlSession, tenant: string, moves: readonly QuotaMove[]): Promise<void> {
  const live = moves.filter((m) => m.delta !== 0);
  if (live.length === 0) return;
  if (live.length === 1) return void (await bump(s, tenant, live[0]!.resource, live[0]!.scope, live[0]!.delta, live[0]!.limit));
  const rows = await s.returning(
    `INSERT INTO quotas (tenant, resource, scope, n) VALUES ${live.map(() => '(?, ?, ?, ?)').join(', ')} ON CONFLICT (tenant, resource, scope) DO UPDATE SET n = quotas.n + excluded.n RETURNING resource, scope, n`,
    live.flatMap((m) => [tenant, m.resource, m.scope, m.delta]),
  );
  for (const m of live) {
    const n = QUOTAS.int(rows.find((r) => QUOTAS.text(r, 'resource') === m.resource && QUOTAS.text(r, 'scope') === m.scope) ?? {}, 'n');
    if (m.delta > 0 && m.limit !== undefined && n > m.limit) throw new QuotaExceededError(m.resource, m.limit);
    if (n <= 0) await s.run('DELETE FROM quotas WHERE tenant = ? AND resource = ? AND scope = ?', [tenant, m.resource, m.scope]);
  }
}

