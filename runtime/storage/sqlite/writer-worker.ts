/**
 * The SQLite writer thread: it owns the store's one writing connection and commits, in one transaction, every plan
 * that arrived since its last commit (group commit, group-commit.ts), so the main thread never waits on a disk sync
 * and concurrent requests share one. Each plan's outcome goes back as plain data: its results, or its refusal.
 *
 * Messages in: `{ id, plan }` (commit), `{ id, pragma }` (read a setting of this connection), `{ close: true }`.
 * Messages out: `{ ready: true }` (the connection is open), `{ startFailed: { message, code, errcode } }` (it could
 * not be opened: the thread ends), `{ id, results }`, `{ id, refusal }`, `{ id, failure: { message, unwritable } }`,
 * `{ id, value }`, `{ fatal: message }` (the data is corrupt: the process must stop), `{ halt: reason }` (the store's
 * files were replaced or removed under it: nothing more is acknowledged), `{ closed: true }`.
 *
 * Files replaced or removed: before it acknowledges a group, the thread compares the database file and its `-wal`
 * with the ones it opened (device and inode). A write that went into a file no longer at its path (deleted, renamed,
 * replaced by a copy) would be lost at the next restart, so such a group is answered as unwritable (503), and so is
 * every later one.
 */
import { statSync } from 'node:fs';
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

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** A file's identity (device and inode), or undefined when nothing is at its path. */
function identity(file: string): string | undefined {
  try {
    const st = statSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

let db: DatabaseSync;
try {
  db = new DatabaseSync(path);
  applyPragmas(db, { busyTimeoutMs, wal: true });
} catch (err) {
  const e = err as { message?: unknown; code?: unknown; errcode?: unknown };
  port.postMessage({ startFailed: { message: String(e.message ?? err), code: typeof e.code === 'string' ? e.code : undefined, errcode: typeof e.errcode === 'number' ? e.errcode : undefined } });
  throw err; // ends the thread (the main thread has its reason already)
}
const session = new SqliteSession(db);
const opened = { db: identity(path), wal: identity(`${path}-wal`) };
let halted: string | undefined;

/** What was replaced or removed under the store since it opened, or undefined. */
function filesChanged(): string | undefined {
  const now = identity(path);
  if (now !== opened.db) return now === undefined ? `its database file ${path} was removed` : `its database file ${path} was replaced`;
  const wal = identity(`${path}-wal`);
  if (opened.wal === undefined) opened.wal = wal; // created after the thread opened: from now on it is the one
  else if (wal !== opened.wal) return wal === undefined ? `its write-ahead log ${path}-wal was removed` : `its write-ahead log ${path}-wal was replaced`;
  return undefined;
}

const queue = new GroupQueue(session, (err) => {
  if (isCorrupt(err)) port.postMessage({ fatal: describe(err) });
  return { error: err };
});

function answer(id: number, s: Settled): void {
  if (halted === undefined) {
    const changed = filesChanged();
    if (changed !== undefined) {
      halted = `${changed} while the host was running; writes since then would be lost: stop the host and check the data directory`;
      port.postMessage({ halt: halted });
    }
  }
  if (halted !== undefined) return port.postMessage({ id, failure: { message: halted, unwritable: true } });
  if ('results' in s) return port.postMessage({ id, results: s.results });
  const err = s.error;
  if (err instanceof WopkitError) return port.postMessage({ id, refusal: toWireRefusal(err) });
  port.postMessage({ id, failure: { message: describe(err), unwritable: isUnwritable(err) || isCorrupt(err) } });
}

port.postMessage({ ready: true });

port.on('message', (m: Incoming) => {
  if ('close' in m) {
    db.close();
    port.postMessage({ closed: true });
    port.close();
    return;
  }
  if ('pragma' in m) {
    const row = db.prepare(`PRAGMA ${m.pragma.replace(/[^a-z_]/g, '')}`).get();
    port.postMessage({ id: m.id, value: String(Object.values(row ?? {})[0] ?? '') });
    return;
  }
  void queue.enqueue(m.plan).then((s) => answer(m.id, s));
});
