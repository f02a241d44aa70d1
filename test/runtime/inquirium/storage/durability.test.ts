/**
 * The durability contract, checked on the file-system calls the log makes (node:fs wrapped, every call passed
 * through): an append is one write and one fdatasync of the open descriptor, nothing else (no reopen, no read —
 * its cost does not depend on the log's size); creating a file syncs its directory; a rewrite syncs the new file
 * before the rename and the directory after; the quarantine is synced before the log is cut.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { basename } from 'node:path';
import { scratchLogs } from './scratch.ts';

const trace = vi.hoisted(() => ({ calls: [] as string[], names: new Map<number, string>() }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const name = (fd: number) => trace.names.get(fd) ?? `fd${fd}`;
  const mocked = {
    ...fs,
    openSync: (path: string, flags: string, mode?: number) => {
      const fd = fs.openSync(path, flags, mode);
      trace.names.set(fd, fs.statSync(path).isDirectory() ? 'dir' : basename(path));
      trace.calls.push(`open ${name(fd)}`);
      return fd;
    },
    closeSync: (fd: number) => {
      trace.calls.push(`close ${name(fd)}`);
      fs.closeSync(fd);
    },
    writeSync: (fd: number, ...rest: unknown[]) => {
      trace.calls.push(`write ${name(fd)}`);
      return (fs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
    },
    readSync: (fd: number, ...rest: unknown[]) => {
      trace.calls.push(`read ${name(fd)}`);
      return (fs.readSync as (...a: unknown[]) => number)(fd, ...rest);
    },
    fsyncSync: (fd: number) => {
      trace.calls.push(`fsync ${name(fd)}`);
      fs.fsyncSync(fd);
    },
    fdatasyncSync: (fd: number) => {
      trace.calls.push(`fdatasync ${name(fd)}`);
      fs.fdatasyncSync(fd);
    },
    ftruncateSync: (fd: number, len?: number) => {
      trace.calls.push(`ftruncate ${name(fd)}`);
      fs.ftruncateSync(fd, len);
    },
    renameSync: (from: string, to: string) => {
      trace.calls.push(`rename ${basename(from)} -> ${basename(to)}`);
      fs.renameSync(from, to);
    },
  };
  return { ...mocked, default: mocked };
});

const { appendFileSync } = await import('node:fs');
const { FramedJsonlLog } = await import('../../../../runtime/inquirium/storage/framed-jsonl.ts');
const { anyRecord, isN } = await import('./guards.ts');

const logIn = scratchLogs('durable');
const since = (mark: number) => trace.calls.slice(mark);
const quiet = { logger: () => {} };

describe('JSONL durability contract (file-system calls)', () => {
  beforeEach(() => {
    trace.calls.length = 0;
  });

  it('creating the log syncs the file and its directory before open returns', () => {
    const log = new FramedJsonlLog(logIn(), anyRecord);
    const calls = since(0);
    expect(calls).toContain('fsync log.jsonl');
    expect(calls.indexOf('fsync dir')).toBeGreaterThan(calls.indexOf('open log.jsonl'));
    log.close();
  });

  it('an append is one write and one fdatasync of the open descriptor, before it returns — at any log size', () => {
    const log = new FramedJsonlLog(logIn(), isN);
    for (const size of [1, 100, 2_000]) {
      while (log.all().length < size) log.append({ n: log.all().length });
      const mark = trace.calls.length;
      log.append({ n: -1 });
      expect(since(mark)).toEqual(['write log.jsonl', 'fdatasync log.jsonl']);
    }
    log.close();
  });

  it('a rewrite syncs the new file, renames it over the log, syncs the directory, and continues on the new file', () => {
    const p = logIn();
    const log = new FramedJsonlLog(p, isN);
    for (let n = 0; n < 5; n++) log.append({ n });
    const mark = trace.calls.length;
    log.rewrite((r) => r.n % 2 === 0);
    const calls = since(mark);
    const at = (c: string) => calls.indexOf(c);
    expect(at('write log.jsonl.rewrite')).toBeGreaterThanOrEqual(0);
    expect(at('fsync log.jsonl.rewrite')).toBeGreaterThan(at('write log.jsonl.rewrite'));
    expect(at('rename log.jsonl.rewrite -> log.jsonl')).toBeGreaterThan(at('fsync log.jsonl.rewrite'));
    expect(calls.lastIndexOf('fsync dir')).toBeGreaterThan(at('rename log.jsonl.rewrite -> log.jsonl'));
    const next = trace.calls.length;
    log.append({ n: 9 });
    expect(since(next)).toEqual(['write log.jsonl', 'fdatasync log.jsonl']);
    log.close();
  });

  it('a torn tail reaches the quarantine (synced, its new directory entry too) before the log is cut', () => {
    const p = logIn();
    new FramedJsonlLog(p, anyRecord).close();
    appendFileSync(p, '0123456789abcdef {"torn"');
    const mark = trace.calls.length;
    new FramedJsonlLog(p, anyRecord, quiet).close();
    const calls = since(mark);
    const at = (c: string) => calls.indexOf(c);
    expect(at('fdatasync log.jsonl.quarantine')).toBeGreaterThan(at('write log.jsonl.quarantine'));
    expect(at('fsync dir')).toBeGreaterThan(at('open log.jsonl.quarantine'));
    expect(at('ftruncate log.jsonl')).toBeGreaterThan(at('fdatasync log.jsonl.quarantine'));
    expect(at('fdatasync log.jsonl')).toBeGreaterThan(at('ftruncate log.jsonl'));
  });

  it('durable: false (tests and benchmarks only) makes no sync at all', () => {
    const p = logIn();
    const log = new FramedJsonlLog(p, isN, { durable: false });
    log.append({ n: 1 });
    log.rewrite(() => true);
    log.close();
    expect(trace.calls.filter((c) => c.includes('sync'))).toEqual([]);
  });
});
