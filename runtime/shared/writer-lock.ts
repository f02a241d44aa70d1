/**
 * The exclusive writer lock of a file: a lock file `<file>.lock` holding one JSON line that names the holder (pid,
 * host, when it took the lock, the process's start time, a random token). The framed JSONL logs
 * (runtime/inquirium/storage/) and the SQLite store (runtime/storage/sqlite/) take it when they open.
 *
 * - The lock file appears complete or not at all: its content is written to a private temp file first, then
 *   hard-linked to `<log>.lock` (link fails if the name exists, like O_EXCL, and never shows a half-written file).
 * - A second writer — another instance in this process or another process — is refused with LogLockedError,
 *   naming the log and the holder.
 * - A lock is stale when its holder cannot hold it any more: the pid is dead (or a zombie), the pid now belongs to
 *   a process that started later (pid reuse, compared through /proc on Linux), or it names this process and thread
 *   but no open log here holds it (another thread of this process cannot be checked, so its lock is kept). A stale lock is taken over, and the caller is told whose lock it was. A lock of another
 *   host is never judged stale (its pids mean nothing here).
 * - Taking over renames the stale file to a private name and checks it is still the lock that was judged stale; if
 *   a third party replaced it meanwhile, it is put back and the decision is made again.
 * - Released on close, and on process exit for logs left open.
 */
import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { WopkitError } from './errors.ts';

export interface LockHolder {
  readonly pid: number;
  /** The worker thread of the holder (0 = main thread): threads share a pid but not the registry of held locks. */
  readonly thread?: number;
  readonly host: string;
  /** When the holder took the lock (ISO 8601). */
  readonly lockedAt: string;
  /** The holder process's start time in clock ticks since boot (Linux), to tell a reused pid from the holder. */
  readonly processStart?: string;
  readonly token: string;
}

/** A stale lock that was taken over: its holder, or `unreadable` when the file did not name one. */
export type StaleLock = Omit<LockHolder, 'token'> | { readonly unreadable: true };

/** Who holds a lock, for a message: `pid N on HOST`, `this process (another open instance)` or `this process (thread N)`. */
export function describeHolder(holder: LockHolder): string {
  const here = holder.pid === process.pid && holder.host === hostname();
  if (!here) return `pid ${holder.pid} on ${holder.host}`;
  return (holder.thread ?? 0) === threadId ? 'this process (another open instance)' : `this process (thread ${holder.thread ?? 0})`;
}

/** A second writer was refused: the log is locked by a live holder. */
export class LogLockedError extends WopkitError<'log-locked'> {
  constructor(
    readonly logPath: string,
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    super('log-locked', `${logPath} is already open for writing by ${describeHolder(holder)}, locked since ${holder.lockedAt}; a log has one writer at a time (lock file ${lockPath})`);
  }
}

export interface WriterLock {
  readonly lockPath: string;
  readonly holder: LockHolder;
  /** Set when a stale lock was taken over to get this one. */
  readonly tookOver?: StaleLock;
  release(): void;
}

/** Tokens of the locks this process holds, by lock path. */
const heldHere = new Map<string, string>();
let exitHookInstalled = false;

const procStat = (pid: number | 'self'): string[] | undefined => {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name, which is parenthesised and may contain spaces: [0] = state (field 3), [19] = starttime (field 22)
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
};
const ownStart = procStat('self')?.[19];

function readHolder(lockPath: string): LockHolder | 'unreadable' | 'gone' {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw e;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.token === 'string' && typeof h.lockedAt === 'string') return h as LockHolder;
  } catch {
    // fall through
  }
  return 'unreadable';
}

function holderAlive(lockPath: string, h: LockHolder): boolean {
  if (h.host !== hostname()) return true;
  if (h.pid === process.pid) return (h.thread ?? 0) !== threadId || heldHere.get(lockPath) === h.token;
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(h.pid);
  if (stat === undefined) return true;
  if (stat[0] === 'Z' || stat[0] === 'X') return false;
  return h.processStart === undefined || stat[19] === h.processStart;
}

const withoutToken = ({ token: _token, ...rest }: LockHolder): StaleLock => rest;

/** Move a stale lock out of the way, unless it was replaced after it was judged stale (then put it back). */
function removeStale(lockPath: string, judged: LockHolder | 'unreadable', token: string): void {
  const aside = `${lockPath}.stale-${process.pid}-${token}`;
  try {
    renameSync(lockPath, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const moved = readHolder(aside);
  const same = judged === 'unreadable' ? moved === 'unreadable' : moved !== 'unreadable' && moved !== 'gone' && moved.token === judged.token;
  if (!same) {
    try {
      linkSync(aside, lockPath);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  rmSync(aside, { force: true });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const lockPath of heldHere.keys()) rmSync(lockPath, { force: true });
  });
}

/** Take the exclusive writer lock of `logPath`, or throw LogLockedError naming the holder. */
export function acquireWriterLock(logPath: string, now: () => number = Date.now): WriterLock {
  const log = resolve(logPath);
  const lockPath = `${log}.lock`;
  const token = randomUUID();
  const holder: LockHolder = { pid: process.pid, thread: threadId, host: hostname(), lockedAt: new Date(now()).toISOString(), ...(ownStart !== undefined ? { processStart: ownStart } : {}), token };
  const temp = `${lockPath}.${process.pid}-${token}`;
  writeFileSync(temp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  let tookOver: StaleLock | undefined;
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(temp, lockPath);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const current = readHolder(lockPath);
        if (current === 'gone') continue;
        if (current !== 'unreadable' && holderAlive(lockPath, current)) throw new LogLockedError(log, lockPath, current);
        removeStale(lockPath, current, token);
        tookOver = current === 'unreadable' ? { unreadable: true } : withoutToken(current);
        continue;
      }
      heldHere.set(lockPath, token);
      installExitHook();
      const release = (): void => {
        if (heldHere.get(lockPath) !== token) return;
        heldHere.delete(lockPath);
        const still = readHolder(lockPath);
        if (still !== 'gone' && still !== 'unreadable' && still.token === token) rmSync(lockPath, { force: true });
      };
      return { lockPath, holder, ...(tookOver !== undefined ? { tookOver } : {}), release };
    }
  } finally {
    rmSync(temp, { force: true });
  }
  throw new Error(`${log}: could not take the writer lock ${lockPath}: it kept changing hands`);
}
