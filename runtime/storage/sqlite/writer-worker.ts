/**
 * The SQLite writer thread: it owns the store's one writing connection and commits, in one transaction, every plan
 * that arrived since its last commit (group commit, group-commit.ts), so the main thread never waits on a disk sync
 * and concurrent requests share one. Each plan's outcome goes back as plain data: its results, or its refusal.
 *
 * Messages in: `{ id, plan }` (commit), `{ id, pragma }` (read a setting of this connection), `{ close: true }`.
 * Messages out: `{ id, results }`, `{ id, refusal }`, `{ id, failure: { message, unwritable } }`, `{ id, value }`,
 * `{ fatal: message }` (the data is corrupt: the process must stop), `{ closed: true }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import { WopkitError } from '../../shared/errors.ts';
import { toWireRefusal } from '../refusal.ts';
import type { WriteOp } from '../ops/index.ts';
import { GroupQueue, type Settled } from './group-commit.ts';
import { applyPragmas } from './pragmas.ts';
import { isCorrupt, isUnwritable, SqliteSession } from './session.ts';

interface WriterData {
  readonly path: string;
  readonly busyTimeoutMs: number;
}

type Incoming = { readonly id: number; readonly plan: readonly WriteOp[] } | { readonly id: number; readonly pragma: string } | { readonly close: true };

const port = parentPort!;
const { path, busyTimeoutMs } = workerData as WriterData;
const db = new DatabaseSync(path);
applyPragmas(db, { busyTimeoutMs, wal: true });
const session = new SqliteSession(db);

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 500);

const queue = new GroupQueue(session, (err) => {
  if (isCorrupt(err)) port.postMessage({ fatal: describe(err) });
  return { error: err };
});

function answer(id: number, s: Settled): void {
  if ('results' in s) return port.postMessage({ id, results: s.results });
  const err = s.error;
  if (err instanceof WopkitError) return port.postMessage({ id, refusal: toWireRefusal(err) });
  port.postMessage({ id, failure: { message: describe(err), unwritable: isUnwritable(err) || isCorrupt(err) } });
}

port.on('message', (m: Incoming) => {
  if ('close' in m) {
    db.close();
    port.postMessage({ closed: true });
    port.close();
    return;
  }
  if ('pragma' in m) {
    const row = db.prepare(`PRAGMA ${m.pragma.replace(/[^a-z_]/g, '')}`).get() as Record<string, unknown> | undefined;
    port.postMessage({ id: m.id, value: String(Object.values(row ?? {})[0] ?? '') });
    return;
  }
  void queue.enqueue(m.plan).then((s) => answer(m.id, s));
});
