/**
 * TEST ONLY: a SQLite writer thread that cannot open its database, speaking the writer's start protocol
 * (writer-worker.ts): it tries a path under the store's file (a file is no directory: SQLITE_CANTOPEN), posts
 * `startFailed` with the error, then ends by throwing it — as the real thread does.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { path } = workerData as { path: string };
try {
  new DatabaseSync(join(path, 'below-a-file.sqlite'));
} catch (err) {
  const e = err as { message?: unknown; code?: unknown; errcode?: unknown };
  parentPort!.postMessage({ startFailed: { message: String(e.message), code: typeof e.code === 'string' ? e.code : undefined, errcode: typeof e.errcode === 'number' ? e.errcode : undefined } });
  throw err;
}
