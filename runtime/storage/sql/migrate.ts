/**
 * Bring a store's schema up to date: the `schema_version` table records every step applied; each newer step runs
 * its DDL and then moves its data, inside the transaction `step` gives it, and is recorded there. A store whose
 * recorded version is newer than the newest step this code knows is refused before anything changes.
 */
import { columnsOf } from './columns.ts';
import { StoreVersionError, type Migration } from '../port.ts';
import type { SqlSession } from './session.ts';

export interface MigrationRun {
  /** The version the store was at, and the version it is at now. */
  readonly from: number;
  readonly to: number;
}

export async function applyMigrations(
  s: SqlSession,
  o: {
    readonly migrations: readonly Migration[];
    /** What an empty store gets instead of every step from the first: the current schema at once (recorded as the newest version). */
    readonly fresh: Omit<Migration, 'version'>;
    readonly location: string;
    readonly exec: (sql: string) => Promise<void>;
    readonly step: (f: () => Promise<void>) => Promise<void>;
  },
): Promise<MigrationRun> {
  await o.exec('CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)');
  const top = await s.get('SELECT max(version) AS v FROM schema_version');
  const from = (top === undefined ? null : columnsOf('schema_version').intOrNull(top, 'v')) ?? 0;
  const supported = o.migrations.reduce((m, x) => Math.max(m, x.version), 0);
  if (from > supported) throw new StoreVersionError(from, supported, o.location);
  const record = (version: number, name: string) => s.run('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)', [version, name, new Date().toISOString()]);
  if (from === 0) {
    await o.step(async () => {
      if (o.fresh.sql !== undefined) await o.exec(o.fresh.sql);
      if (o.fresh.run !== undefined) await o.fresh.run(s, o.exec);
      await record(supported, o.fresh.name);
    });
    return { from, to: supported };
  }
  for (const m of [...o.migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= from) continue;
    await o.step(async () => {
      if (m.sql !== undefined) await o.exec(m.sql);
      if (m.run !== undefined) await m.run(s, o.exec);
      await record(m.version, m.name);
    });
  }
  return { from, to: Math.max(from, supported) };
}
