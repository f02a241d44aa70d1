import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { threadId } from 'node:worker_threads';
import { FramedJsonlLog, LogLockedError } from '../../../../runtime/inquirium/storage/framed-jsonl.ts';
import { anyRecord } from './guards.ts';
import { JsonlTranscriptStore } from '../../../../runtime/inquirium/storage/transcript.ts';
import { JsonlTraceStream } from '../../../../runtime/inquirium/storage/trace-stream.ts';
import { firstLine } from './records.ts';
import { scratchLogs } from './scratch.ts';

const logIn = scratchLogs('lock');
const capture = () => {
  const lines: string[] = [];
  return { lines, logger: (m: string) => void lines.push(m) };
};
const refusal = (open: () => unknown): LogLockedError => {
  try {
    open();
  } catch (e) {
    if (e instanceof LogLockedError) return e;
    throw e;
  }
  throw new Error('the second writer was not refused');
};
const fakeLock = (path: string, holder: Record<string, unknown>) =>
  writeFileSync(`${path}.lock`, JSON.stringify({ host: hostname(), lockedAt: '2026-01-01T00:00:00.000Z', token: 'fake', ...holder }));

describe('JSONL writer lock: one writer per log', () => {
  it('a second instance in the same process is refused, naming the file and this process; close releases it', () => {
    const p = logIn();
    const first = new FramedJsonlLog(p, anyRecord);
    const holder = JSON.parse(readFileSync(`${p}.lock`, 'utf8')) as { pid: number; lockedAt: string };
    expect(holder.pid).toBe(process.pid);
    const e = refusal(() => new FramedJsonlLog(p, anyRecord));
    expect(e.holder.pid).toBe(process.pid);
    expect(e.lockPath).toBe(`${p}.lock`);
    expect(e.message).toContain(p);
    expect(e.message).toMatch(/this process/);
    expect(e.message).toContain(holder.lockedAt);
    refusal(() => new FramedJsonlLog(relative(process.cwd(), p), anyRecord)); // the same file spelled another way
    refusal(() => new JsonlTranscriptStore(p));
    refusal(() => new JsonlTraceStream(p));
    first.append({ still: 'writable' });
    first.close();
    expect(existsSync(`${p}.lock`)).toBe(false);
    first.close(); // idempotent
    expect(() => first.append({ after: 'close' })).toThrow(/closed/);
    const second = new FramedJsonlLog(p, anyRecord);
    expect(second.recovery.staleLock).toBeUndefined();
    expect(second.all()).toEqual([{ still: 'writable' }]);
    second.close();
    expect(readdirSync(join(p, '..')).sort()).toEqual(['log.jsonl']); // no lock or temp files left behind
  });

  it('another process is refused while this one holds the log, and told which pid holds it', async () => {
    const p = logIn();
    const log = new FramedJsonlLog(p, anyRecord);
    try {
      const { line } = firstLine(['try', p], (l) => l.startsWith('{'));
      const answer = JSON.parse(await line) as { ok: boolean; name: string; message: string; holderPid: number };
      expect(answer).toMatchObject({ ok: false, name: 'LogLockedError', holderPid: process.pid });
      expect(answer.message).toContain(p);
      expect(answer.message).toContain(`pid ${process.pid}`);
    } finally {
      log.close();
    }
    const { line } = firstLine(['try', p], (l) => l.startsWith('{'));
    expect(JSON.parse(await line)).toEqual({ ok: true });
  });

  it('this process is refused while another holds the log; once that one is killed, its stale lock is taken over and reported', async () => {
    const p = logIn();
    const { child, line } = firstLine(['hold', p], (l) => l === 'locked');
    try {
      await line;
      const e = refusal(() => new FramedJsonlLog(p, anyRecord));
      expect(e.holder.pid).toBe(child.pid);
      expect(e.message).toContain(`pid ${child.pid}`);
      expect(e.message).toContain(p);
    } finally {
      child.kill('SIGKILL');
      await child.exited;
    }
    const { lines, logger } = capture();
    const log = new FramedJsonlLog(p, anyRecord, { logger });
    expect(log.recovery.staleLock).toMatchObject({ pid: child.pid, host: hostname() });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`took over the stale lock of pid ${child.pid}`);
    expect(JSON.parse(readFileSync(`${p}.lock`, 'utf8')).pid).toBe(process.pid);
    log.close();
  });

  const stale: [string, (p: string) => void, Record<string, unknown>][] = [
    ['names this process but no open log here holds it', (p) => fakeLock(p, { pid: process.pid }), { pid: process.pid }],
    ['names a live pid that belongs to a process started later (pid reuse)', (p) => fakeLock(p, { pid: process.ppid, processStart: '1' }), { pid: process.ppid }],
    ['does not name a holder', (p) => writeFileSync(`${p}.lock`, 'garbage'), { unreadable: true }],
  ];
  for (const [name, plant, reported] of stale) {
    it(`a lock that ${name} is stale: taken over and reported`, () => {
      const p = logIn();
      plant(p);
      const log = new FramedJsonlLog(p, anyRecord, { logger: () => {} });
      expect(log.recovery.staleLock).toMatchObject(reported);
      log.close();
    });
  }

  it('a lock held by the parent process (alive, same start time), another thread of this process, or another host is never judged stale', () => {
    const p = logIn();
    fakeLock(p, { pid: process.pid, thread: threadId + 1 });
    expect(refusal(() => new FramedJsonlLog(p, anyRecord)).message).toContain(`this process (thread ${threadId + 1})`);
    fakeLock(p, { pid: process.ppid });
    expect(refusal(() => new FramedJsonlLog(p, anyRecord)).holder.pid).toBe(process.ppid);
    fakeLock(p, { pid: 999_999_999, host: 'elsewhere.example' });
    expect(refusal(() => new FramedJsonlLog(p, anyRecord)).message).toContain('pid 999999999 on elsewhere.example');
  });
});
