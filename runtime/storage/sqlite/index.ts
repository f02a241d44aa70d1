/**
 * The SQLite back-end of the storage port, on Node's built-in `node:sqlite` (no native build).
 *
 * - One process per data directory: opening takes the exclusive lock `<file>.lock` (runtime/shared/writer-lock.ts)
 *   before the database is touched; a second open is refused with StoreLockedError; a lock left by a killed process
 *   is taken over.
 * - Writes: a writer thread owns the one writing connection and group-commits (writer-worker.ts); a refused plan
 *   rolls back alone (its savepoint). Reads: the main thread's own connection, read-only, in WAL mode — it never
 *   waits for the writer and sees every committed transaction.
 * - Faults of the writer: a writer thread that cannot start is refused in one line saying why (start-failure.ts),
 *   corrupt only when the file fails quick_check; files replaced or removed under a running store make it stop
 *   acknowledging writes (writer-worker.ts); after a refused write it is writable again only once its filesystem has
 *   room (RECOVERED_FREE_BYTES).
 * - Integrity: when the last close was not clean (the lock was taken over, or the file changed since the clean-close
 *   record next to it was written) the file is checked (`PRAGMA integrity_check`) before it is served; a corrupt file
 *   (at open, or when any statement meets corruption later) is StoreCorruptError — the host stops with one line.
 * - Schema: SQLITE_MIGRATIONS (migrations.ts); an empty file gets the current schema at once.
 *
 * `openMemoryStore` (../memory/) is this back-end on a private in-memory database: same SQL, nothing on disk; its
 * writes commit inline on the main thread.
 */
import { existsSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { WopkitError } from '../../shared/errors.ts';
import { acquireWriterLock, describeHolder, LogLockedError, type LockHolder, type WriterLock } from '../../shared/writer-lock.ts';
import { StoreFaults } from '../faults.ts';
import { WakeListeners, wakes } from '../wake.ts';
import { StoreClosedError, StoreCorruptError, type Migration, type StoragePort, type StoreHealth, type StoreKind, type WritePlan } from '../port.ts';
import { applyMigrations } from '../sql/migrate.ts';
import { schemaDdl } from '../sql/schema.ts';
import type { SqlSession } from '../sql/session.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { applyPragmas } from './pragmas.ts';
import { isCorrupt, SqliteSession } from './session.ts';
import { inlineWriter, threadWriter, type SqliteWriter, type WriterEvents } from './writer.ts';
import { quickCheck, startFailureReason, StoreWriterStartError } from './start-failure.ts';

export interface SqliteStoreOptions {
  /** Milliseconds a connection waits for another's write lock before failing (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Migrations to apply (default SQLITE_MIGRATIONS; tests pass a longer list to simulate a newer store). */
  readonly migrations?: readonly Migration[];
  /** Reported as the port's kind (the in-memory back-end reuses this module). */
  readonly kind?: StoreKind;
  /** Take the file's exclusive lock (default true; `false` only for tests of SQLite's own behaviour). */
  readonly lock?: boolean;
  /** TEST ONLY: the writer thread's module (default writer-worker.ts beside this one), to make it fail to start. */
  readonly writerModule?: URL;
}

/** A second open of a SQLite store that is already open (in another process, or in this one) was refused. */
export class StoreLockedError extends WopkitError<'store_locked'> {
  constructor(
    readonly file: string,
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    super(
      'store_locked',
      `data directory ${dirname(file)} is in use: its SQLite store ${file} is open in ${describeHolder(holder)} since ${holder.lockedAt} (lock file ${lockPath}); ` +
        'a data directory serves one host process: stop the other host, or use another --data-dir (for several host processes use PostgreSQL, --store postgres)',
    );
  }
}

const onDisk = (path: string): boolean => path !== '' && path !== ':memory:';

/**
 * What an in-memory store opens: a private database of SQLite's memdb VFS (a name without a leading '/' is not
 * shared with other connections), not ':memory:'. Both live in process memory, but a ':memory:' database's COMMIT
 * walks every page it holds, so each write cost more as the store grew (37 µs → 61 µs per seed transaction from 10k
 * to 40k entries, measured); memdb's COMMIT costs the same at any size. Its rollback journal is kept in memory.
 */
const IN_MEMORY_URI = 'file:wopkit-memory-store?vfs=memdb';

/** The record of a clean close, next to the database: its size and modification time then. */
const cleanRecordOf = (file: string): string => `${file}.clean`;
const fileStamp = (file: string): string => {
  const st = statSync(file);
  return `${st.size}:${st.mtimeMs}:${st.ino}`;
};

/** Whether the file may be served without a check: its last close was clean and nothing touched it since. */
function closedCleanly(file: string, lock: WriterLock | undefined): boolean {
  const record = cleanRecordOf(file);
  if (!existsSync(file)) return true;
  if (lock?.tookOver !== undefined || !existsSync(record)) return false;
  try {
    return readFileSync(record, 'utf8') === fileStamp(file) && !existsSync(`${file}-wal`);
  } catch {
    return false;
  }
}

/** Open (creating and migrating when needed) the SQLite store at `path` (`:memory:` for an in-memory one, on the memdb VFS). */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<StoragePort> {
  const file = onDisk(path) ? resolve(path) : path;
  const lock = options.lock !== false && onDisk(path) ? lockStore(file) : undefined;
  const mustCheck = onDisk(path) && !closedCleanly(file, lock);
  let db: DatabaseSync | undefined;
  try {
    if (onDisk(path)) rmSync(cleanRecordOf(file), { force: true });
    db = new DatabaseSync(onDisk(path) ? file : IN_MEMORY_URI);
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    applyPragmas(db, { busyTimeoutMs, wal: onDisk(path) });
    const main = new SqliteSession(db);
    if (mustCheck) integrityCheck(db, file);
    await migrate(main, options.migrations ?? SQLITE_MIGRATIONS, file);
    if (onDisk(path)) db.exec('PRAGMA query_only = 1');
    const store = new SqliteStore(file, options.kind ?? 'sqlite', db, main, busyTimeoutMs, lock, options.writerModule);
    await store.started();
    return store;
  } catch (err) {
    db?.close();
    lock?.release();
    if (isCorrupt(err)) throw new StoreCorruptError(file, (err as Error).message);
    throw err;
  }
}

/**
 * Free bytes a SQLite store's filesystem must have before a refused write's cause counts as gone: a write that fits
 * in a full disk's last free pages does not make the host ready again (GET /readyz). Well below any real store's
 * growth step, well above a full disk's crumbs.
 */
export const RECOVERED_FREE_BYTES = 1024 * 1024;

/** Whether the filesystem holding `file` has room again (true when it cannot be asked). */
function hasRoom(file: string): boolean {
  try {
    const fs = statfsSync(dirname(file));
    return fs.bavail * fs.bsize >= RECOVERED_FREE_BYTES;
  } catch {
    return true;
  }
}

/**
 * The full check (`PRAGMA integrity_check`, not quick_check: quick_check does not compare indexes with their tables,
 * and a damaged page can leave an index missing rows while every page still parses). It reads the whole file, so it
 * runs only after a close that was not clean.
 */
function integrityCheck(db: DatabaseSync, file: string): void {
  const problems = db.prepare('PRAGMA integrity_check(20)').all().map((r) => String(r.integrity_check).replace(/\s+/g, ' ').trim()).filter((v) => v !== 'ok');
  if (problems.length > 0) throw new StoreCorruptError(file, `integrity_check: ${problems.slice(0, 3).join('; ').slice(0, 300)}`);
}

async function migrate(s: SqliteSession, migrations: readonly Migration[], location: string): Promise<void> {
  await applyMigrations(s, {
    migrations,
    location,
    fresh: { name: 'the current schema, created at once', sql: schemaDdl('sqlite') },
    exec: async (sql) => s.exec(sql),
    step: async (f) => {
      s.exec('BEGIN IMMEDIATE');
      try {
        await f();
        s.exec('COMMIT');
      } catch (err) {
        if (s.db.isTransaction) s.exec('ROLLBACK');
        throw err;
      }
    },
  });
}

class SqliteStore implements StoragePort {
  readonly location: string;
  readonly reads: SqlSession;
  readonly #db: DatabaseSync;
  readonly #writer: SqliteWriter;
  readonly #lock: WriterLock | undefined;
  readonly #faults: StoreFaults;
  #closed = false;
  readonly #wake = new WakeListeners();

  constructor(location: string, readonly kind: StoreKind, db: DatabaseSync, main: SqliteSession, busyTimeoutMs: number, lock: WriterLock | undefined, writerModule: URL | undefined) {
    this.location = location;
    this.#faults = new StoreFaults(location, onDisk(location) ? () => hasRoom(location) : undefined);
    this.#db = db;
    this.#lock = lock;
    const events: WriterEvents = {
      unwritable: (now, reason) => {
        if (now) this.#faults.writable(false, `the store cannot write: ${reason ?? 'unknown'}`);
        else this.#faults.writable(true);
      },
      fatal: (message) => void this.#faults.raiseFatal(message),
      // The writer stopped: corrupt only if the file fails its check; otherwise it says why, and takes no writes.
      stopped: (reason) => {
        const problems = this.#closed ? [] : quickCheck(this.#db);
        if (problems.length > 0) this.#faults.raiseFatal(`quick_check: ${problems.join('; ')}`);
        else this.#faults.halt(reason);
      },
    };
    if (onDisk(location)) {
      this.#writer = threadWriter(location, busyTimeoutMs, events, writerModule);
      this.reads = this.#watched(main);
    } else {
      const inline = inlineWriter(main, events);
      this.#writer = inline;
      this.reads = this.#watched(inline.gate.gated(main));
    }
  }

  /**
   * Resolves once the writer can take plans. A writer thread that cannot start is refused in one line that says why
   * (`StoreWriterStartError`: the file cannot be opened, node:sqlite is missing, the database is locked) — and it is
   * StoreCorruptError only when the file fails `PRAGMA quick_check` on the reading connection.
   */
  async started(): Promise<void> {
    const failure = await this.#writer.ready;
    if (failure === undefined) return;
    await this.#writer.close();
    const problems = quickCheck(this.#db);
    if (problems.length > 0) throw new StoreCorruptError(this.location, `quick_check: ${problems.join('; ')}`);
    throw new StoreWriterStartError(this.location, startFailureReason(this.location, failure));
  }

  /** The read session, reporting corruption any query meets. */
  #watched(s: SqlSession): SqlSession {
    const guard = async <T>(f: () => Promise<T>): Promise<T> => {
      if (this.#closed) throw new StoreClosedError();
      try {
        return await f();
      } catch (err) {
        if (isCorrupt(err)) this.#faults.raiseFatal((err as Error).message);
        throw err;
      }
    };
    return {
      dialect: 'sqlite',
      run: (sql, params) => guard(() => s.run(sql, params)),
      get: (sql, params) => guard(() => s.get(sql, params)),
      all: (sql, params, limit) => guard(() => s.all(sql, params, limit)),
      returning: (sql, params) => guard(() => s.returning(sql, params)),
    };
  }

  async commit(plan: WritePlan): Promise<readonly unknown[]> {
    if (this.#closed) throw new StoreClosedError();
    if (this.#faults.fatal !== undefined) throw this.#faults.fatal;
    if (this.#faults.halted !== undefined) throw this.#faults.halted;
    const results = await this.#writer.commit(plan);
    if (wakes(plan)) this.#wake.notify(); // one process per file: its own commits are all there is to hear
    return results;
  }

  onWake(listener: () => void): () => void {
    return this.#wake.add(listener);
  }

  health(): StoreHealth {
    return this.#faults.health;
  }

  onFatal(listener: (err: StoreCorruptError) => void): void {
    this.#faults.onFatal(listener);
  }

  async durability(): Promise<Readonly<Record<string, string>>> {
    const settings = { journal_mode: await this.#writer.pragma('journal_mode'), synchronous: await this.#writer.pragma('synchronous') };
    if (!onDisk(this.location)) return settings;
    return { ...settings, wal_autocheckpoint: await this.#writer.pragma('wal_autocheckpoint'), journal_size_limit: await this.#writer.pragma('journal_size_limit') };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writer.close();
    this.#db.close();
    if (onDisk(this.location) && this.#faults.fatal === undefined && this.#faults.halted === undefined) {
      try {
        writeFileSync(cleanRecordOf(this.location), fileStamp(this.location));
      } catch {
        // no record: the next open checks the file, which is only slower
      }
    }
    this.#lock?.release();
  }
}

function lockStore(file: string): WriterLock {
  try {
    return acquireWriterLock(file);
  } catch (err) {
    if (err instanceof LogLockedError) throw new StoreLockedError(file, err.lockPath, err.holder);
    throw err;
  }
}
