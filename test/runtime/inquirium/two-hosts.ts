/**
 * Two "hosts" on one store, per back-end, for the issue-38 properties: in-memory and SQLite (two runtime instances
 * on one port: the in-memory store is per process, and a SQLite data directory belongs to one process) and PostgreSQL (two ports, two connection pools on one database — two hosts
 * as a fleet runs them; skipped with the toolchain's reason when no server is reachable).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../runtime/storage/open-store.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { toolchain } from '../../support/toolchains.ts';

export interface TwoHosts {
  readonly a: StoragePort;
  readonly b: StoragePort;
  done(): Promise<void>;
}

const pg = toolchain('postgres');

export const BACKENDS: readonly { readonly name: string; readonly skip: boolean; readonly open: (label: string) => Promise<TwoHosts> }[] = [
  {
    name: 'in-memory',
    skip: false,
    open: async () => {
      const port = await openStore({ kind: 'memory' });
      return { a: port, b: port, done: () => port.close() };
    },
  },
  {
    name: 'SQLite',
    skip: false,
    open: async (label) => {
      const dataDir = mkdtempSync(join(tmpdir(), `wopkit-${label}-`));
      const port = await openStore({ kind: 'sqlite', dataDir });
      return { a: port, b: port, done: async () => { await port.close(); rmSync(dataDir, { recursive: true, force: true }); } };
    },
  },
  {
    name: 'PostgreSQL',
    skip: pg.skip,
    open: async (label) => {
      pg.assert();
      const db = await freshDatabase(label);
      const a = await openStore({ kind: 'postgres', url: db.url });
      const b = await openStore({ kind: 'postgres', url: db.url });
      return { a, b, done: async () => { await a.close(); await b.close(); await db.drop(); } };
    },
  },
];
