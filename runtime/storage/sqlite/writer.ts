/**
 * The main thread's side of SQLite writes. A store on a file writes through the writer thread (writer-worker.ts):
 * `commit` posts the plan and resolves when the group it joined has committed. The in-memory store, whose database
 * lives on the main thread, commits through the same group queue inline — and its reads wait while a group is open,
 * so a read never sees a plan that may still roll back.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WopkitError } from '../../shared/errors.ts';
import type { WriteOp } from '../ops/index.ts';
import { StoreUnavailableError } from '../port.ts';
import { fromWireRefusal, type WireRefusal } from '../refusal.ts';
import { GroupQueue, type Settled } from './group-commit.ts';
import { isUnwritable, type SqliteSession } from './session.ts';
import type { SqlSession, SqlValue } from '../sql/session.ts';

export interface SqliteWriter {
  /** Settles once the writer can take plans (undefined) or cannot: what its thread met (`StartFailure`). */
  readonly ready: Promise<StartFailure | undefined>;
  commit(plan: readonly WriteOp[]): Promise<readonly unknown[]>;
  /** A setting of the writing connection, as SQLite reports it. */
  pragma(name: string): Promise<string>;
  close(): Promise<void>;
}

export interface WriterEvents {
  /** A write failed because the disk cannot take it now (true), or a write succeeded (false). */
  unwritable(now: boolean, reason?: string): void;
  /** The data is corrupt. */
  fatal(message: string): void;
  /** The writer stopped taking writes for good (its files changed under it, or its thread ended): why, in one line. */
  stopped(reason: string): void;
}

/** What the writer thread met while starting (its error's message and codes, as plain data). */
export interface StartFailure {
  readonly message: string;
  readonly code?: string;
  readonly errcode?: number;
}


/** A plain Error for a failure that is neither a refusal nor the disk: a bug, reported as 500 by the host. */
const writeFailed = (message: string): Error => new Error(`store write failed: ${message}`);

const settle = (s: Settled, events: WriterEvents): readonly unknown[] => {
  if ('results' in s) {
    events.unwritable(false);
    return s.results;
  }
  const err = s.error;
  if (err instanceof WopkitError) {
    events.unwritable(false);
    throw err;
  }
  if (isUnwritable(err)) {
    const reason = (err as Error).message;
    events.unwritable(true, reason);
    throw new StoreUnavailableError(reason);
  }
  throw err;
};

/** Writes of the in-memory store, on its main-thread connection. */
export function inlineWriter(session: SqliteSession, events: WriterEvents): SqliteWriter & { readonly gate: ReadGate } {
  const gate = new ReadGate();
  const queue = new GroupQueue(session, (err) => ({ error: err }));
  return {
    gate,
    ready: Promise.resolve(undefined),
    commit: async (plan) => settle(await gate.hold(() => queue.enqueue(plan)), events),
    pragma: async (name) => String(Object.values(session.db.prepare(`PRAGMA ${name.replace(/[^a-z_]/g, '')}`).get() ?? {})[0] ?? ''),
    close: async () => {},
  };
}

/** Keeps reads of a connection out of a write group in progress on it. */
export class ReadGate {
  #open = 0;
  #idle: Promise<void> = Promise.resolve();
  #release: () => void = () => {};

  async hold<T>(f: () => Promise<T>): Promise<T> {
    if (this.#open++ === 0) this.#idle = new Promise((r) => (this.#release = r));
    try {
      return await f();
    } finally {
      if (--this.#open === 0) this.#release();
    }
  }

  /** Resolves when no write group is in progress. */
  idle(): Promise<void> {
    return this.#open === 0 ? Promise.resolve() : this.#idle;
  }

  /** A session whose every statement first waits for `idle`. */
  gated(s: SqlSession): SqlSession {
    return {
      dialect: s.dialect,
      run: async (sql: string, params?: readonly SqlValue[]) => (await this.idle(), s.run(sql, params)),
      get: async (sql: string, params?: readonly SqlValue[]) => (await this.idle(), s.get(sql, params)),
      all: async (sql: string, params: readonly SqlValue[], limit: number) => (await this.idle(), s.all(sql, params, limit)),
      returning: async (sql: string, params: readonly SqlValue[]) => (await this.idle(), s.returning(sql, params)),
    };
  }
}

type Outgoing =
  | { readonly id: number; readonly results: readonly unknown[] }
  | { readonly id: number; readonly refusal: WireRefusal }
  | { readonly id: number; readonly failure: { readonly message: string; readonly unwritable: boolean } }
  | { readonly id: number; readonly value: string }
  | { readonly fatal: string }
  | { readonly halt: string }
  | { readonly ready: true }
  | { readonly startFailed: StartFailure }
  | { readonly closed: true };

/**
 * The writer thread's module, next to this one: `.ts` when this runs from source, `.js` from the built package or a
 * bundle (which must ship `writer-worker.js` beside itself).
 */
function workerUrl(): URL {
  const candidates = ['./writer-worker.ts', './writer-worker.js'].map((p) => new URL(p, import.meta.url));
  const found = candidates.find((u) => existsSync(fileURLToPath(u)));
  if (found === undefined) throw new Error(`the SQLite writer thread's module is missing next to ${fileURLToPath(import.meta.url)} (writer-worker.ts or .js)`);
  return found;
}

/**
 * Writes of a store on a file, through its writer thread. `ready` settles once the thread opened its connection (or
 * could not: with the thread's own error, or how the thread ended before it could say).
 */
export function threadWriter(path: string, busyTimeoutMs: number, events: WriterEvents, module: URL = workerUrl()): SqliteWriter {
  const worker = new Worker(module, { workerData: { path, busyTimeoutMs } });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  let next = 0;
  let closing: Promise<void> | undefined;
  let dead: Error | undefined;
  let started = false;
  let neverStarted = false;
  let startedOk: () => void = () => {};
  let startFailed: (f: StartFailure) => void = () => {};
  const ready = new Promise<StartFailure | undefined>((resolve) => {
    startedOk = () => {
      started = true;
      resolve(undefined);
    };
    startFailed = (f) => {
      if (started) return;
      started = true; // settled: later events of the same failure change nothing
      neverStarted = true;
      dead = new StoreUnavailableError(`the SQLite writer thread could not start: ${f.message}`);
      resolve(f);
    };
  });
  const failAll = (err: Error) => {
    dead = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  /** The thread ended or failed after it started: no write is acknowledged any more (503), and the store is told why. */
  const stop = (reason: string) => {
    failAll(new StoreUnavailableError(reason));
    events.stopped(reason);
  };
  worker.on('message', (m: Outgoing) => {
    if ('ready' in m) return startedOk();
    if ('startFailed' in m) return startFailed(m.startFailed);
    if ('fatal' in m) return events.fatal(m.fatal);
    if ('halt' in m) return events.stopped(m.halt);
    if ('closed' in m) return;
    const p = pending.get(m.id);
    if (p === undefined) return;
    pending.delete(m.id);
    if ('results' in m) {
      events.unwritable(false);
      p.resolve(m.results);
    } else if ('value' in m) p.resolve(m.value);
    else if ('refusal' in m) {
      events.unwritable(false);
      p.reject(fromWireRefusal(m.refusal));
    } else if (m.failure.unwritable) {
      events.unwritable(true, m.failure.message);
      p.reject(new StoreUnavailableError(m.failure.message));
    } else p.reject(writeFailed(m.failure.message));
  });
  // A thread that failed to start has said so through `ready`; how it then ends is part of that failure.
  worker.on('error', (err: Error & { code?: unknown }) => {
    if (!started) return startFailed({ message: err.message, ...(typeof err.code === 'string' ? { code: err.code } : {}) });
    if (!neverStarted) stop(`the SQLite writer thread failed: ${err.message}`);
  });
  worker.on('exit', (code) => {
    if (!started) return startFailed({ message: `the writer thread ended before it opened the store (exit code ${code})` });
    if (closing === undefined && !neverStarted) stop(`the SQLite writer thread ended unexpectedly (exit code ${code})`);
  });
  const send = <T>(message: object): Promise<T> => {
    if (dead !== undefined) return Promise.reject(dead);
    if (closing !== undefined) return Promise.reject(writeFailed('the store is closing'));
    const id = ++next;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ id, ...message });
    });
  };
  return {
    ready,
    commit: (plan) => send<readonly unknown[]>({ plan }),
    pragma: (name) => send<string>({ pragma: name }),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        if (worker.threadId === -1) return resolve(); // already ended
        worker.once('exit', () => resolve());
        if (dead !== undefined) return void worker.terminate();
        // Writes already posted are answered first (the thread handles messages in order), then it closes.
        worker.postMessage({ close: true });
      })),
  };
}
