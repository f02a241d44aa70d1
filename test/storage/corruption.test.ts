/**
 * A damaged SQLite store gives one line and exit 2, or is served only when it is sound (issue 22 item 6). A store
 * with data is made once by a host process (stopped cleanly, and once killed with kill -9 so its WAL and wal-index
 * stay behind); each case copies it, writes 300 seeded random bytes at one place — the database header, its first
 * page, pages across the file, the last page, the WAL's header, a WAL frame, the wal-index — and starts `npm start`
 * on the copy. The host must either refuse at start (exit 2, one stderr line, no stack trace) or serve; when it
 * serves, a sweep reads every entry and run and writes once more, and then either the host stopped with one line
 * and exit 2, or it is stopped and the file passes `PRAGMA integrity_check`. Two more cases damage the files beside
 * the store (the lock, the clean-close record): the host starts and serves a sound file.
 */
import { cpSync, existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { SQLITE_FILE } from '../../runtime/storage/open-store.ts';
import { CRASH_TOKEN, startHost, startOrExit, type HostExit, type RunningHost } from './crash/host-process.ts';

const root = mkdtempSync(join(tmpdir(), 'wopkit-corruption-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const H = { authorization: `Bearer ${CRASH_TOKEN}`, 'content-type': 'application/json' };
const REFS = ['mem://acme/a', 'mem://acme/b', 'mem://globex/c'];
const PAGE = 4096;

/** 300 bytes from a seeded generator (mulberry32): the same damage on every run. */
function damage(seed: number): Buffer {
  let a = seed >>> 0;
  return Buffer.from(Array.from({ length: 300 }, () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }));
}

function writeAt(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const r = await fetch(`${url}${path}`, { method, headers: H, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: kept as text for the failure message
  }
  return { status: r.status, json };
}

/** Fill a store through the host: entries over three refs (several hundred pages) and runs with events. */
async function fill(host: RunningHost): Promise<void> {
  for (let i = 0; i < 24; i++) {
    const r = await call(host.url, 'POST', ROUTES.memorySeed.path, { memoryRef: REFS[i % REFS.length], entries: Array.from({ length: 40 }, (_, j) => ({ content: `entry ${i}/${j} `.padEnd(300, 'abcdefgh'), tags: [`t${j % 7}`] })) });
    expect(r.status).toBe(200);
  }
  for (let i = 0; i < 6; i++) expect((await call(host.url, 'POST', ROUTES.runStart.path, { workflowId: 'conformance-noop' })).status).toBeLessThan(500);
}

/** Made once: a store stopped cleanly, and one whose host was killed (WAL and wal-index left behind). */
const made = { clean: join(root, 'made-clean'), killed: join(root, 'made-killed') };
beforeAll(async () => {
  for (const [dir, end] of [[made.clean, 'stop'], [made.killed, 'kill9']] as const) {
    const host = await startHost({ args: ['--store', 'sqlite', '--data-dir', dir], env: { OPENWOP_CONFORMANCE_SEED: 'true' } });
    await fill(host);
    await host[end]();
  }
  expect(existsSync(join(made.killed, `${SQLITE_FILE}-wal`)), 'the killed host left its WAL').toBe(true);
}, 120_000);

interface Case {
  readonly name: string;
  readonly from: keyof typeof made;
  /** The file damaged (relative to the data directory) and where, given its size. */
  readonly file: string;
  readonly at: (size: number) => number;
  /** Damage of a file beside the store: the host must start and serve a sound store. */
  readonly mustServe?: boolean;
}

const db = SQLITE_FILE;
const pageAt = (fraction: number) => (size: number) => Math.floor((size / PAGE) * fraction) * PAGE + 64;
const CASES: readonly Case[] = [
  { name: 'database header (magic, page size)', from: 'clean', file: db, at: () => 0 },
  { name: 'database header (change counter, schema cookie)', from: 'clean', file: db, at: () => 24 },
  { name: 'first page (the schema table)', from: 'clean', file: db, at: () => 100 },
  { name: 'second page', from: 'clean', file: db, at: () => PAGE },
  { name: 'a page a third into the file', from: 'clean', file: db, at: pageAt(1 / 3) },
  { name: 'a page two thirds into the file', from: 'clean', file: db, at: pageAt(2 / 3) },
  { name: 'the last page', from: 'clean', file: db, at: (size) => size - 300 },
  { name: 'a page half-way, after a kill -9', from: 'killed', file: db, at: pageAt(1 / 2) },
  { name: 'the WAL header', from: 'killed', file: `${db}-wal`, at: () => 0 },
  { name: 'a WAL frame half-way', from: 'killed', file: `${db}-wal`, at: (size) => Math.floor(size / 2) },
  { name: 'the wal-index (-shm)', from: 'killed', file: `${db}-shm`, at: () => 0 },
  { name: 'the lock file beside the store', from: 'killed', file: `${db}.lock`, at: () => 0, mustServe: true },
  { name: 'the clean-close record beside the store', from: 'clean', file: `${db}.clean`, at: () => 0, mustServe: true },
];

/** One line on stderr, naming the store, without a stack trace. */
function expectOneLine(ended: HostExit, name: string): void {
  expect(ended.code, `${name}: exit code\n${ended.output}`).toBe(2);
  const lines = ended.stderr.trim().split('\n');
  expect(lines, `${name}: stderr\n${ended.stderr}`).toHaveLength(1);
  expect(lines[0]).toMatch(/^wopkit reference host: (not starting|stopping): /);
  expect(lines[0]).not.toMatch(/\n\s+at |\.ts:\d+/);
}

/** Read everything the store holds and write once more; stop when the host ends meanwhile. */
async function sweep(host: RunningHost): Promise<void> {
  const steps: (() => Promise<unknown>)[] = [];
  for (const ref of REFS) {
    steps.push(async () => {
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const r = await call(host.url, 'GET', `/v1/memory/${encodeURIComponent(ref)}?limit=50${cursor !== undefined ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        cursor = (r.json as { nextCursor?: string }).nextCursor;
        if (r.status !== 200 || cursor === undefined) return;
      }
    });
  }
  steps.push(() => call(host.url, 'POST', ROUTES.memorySeed.path, { memoryRef: REFS[0], entries: [{ content: 'after the damage' }] }));
  steps.push(() => call(host.url, 'GET', ROUTES.discovery.path));
  for (const step of steps) {
    const ended = await Promise.race([host.exit, step().then(() => undefined, () => undefined)]);
    if (ended !== undefined) return;
  }
}

describe('a damaged SQLite store', () => {
  for (const c of CASES) {
    it(`${c.name}: one line and exit 2, or a sound store served`, async () => {
      const dir = join(root, `case-${CASES.indexOf(c)}`);
      cpSync(made[c.from], dir, { recursive: true });
      const file = join(dir, SQLITE_FILE);
      // A copy has its own inode and time: the clean-close record is written again for it, as the host would have.
      if (c.from === 'clean') writeFileSync(`${file}.clean`, `${statSync(file).size}:${statSync(file).mtimeMs}:${statSync(file).ino}`);
      const target = join(dir, c.file);
      expect(existsSync(target), `${c.file} exists to be damaged`).toBe(true);
      writeAt(target, c.at(statSync(target).size), damage(CASES.indexOf(c) + 1));

      const started = await startOrExit({ args: ['--store', 'sqlite', '--data-dir', dir] });
      if (!('url' in started)) {
        expect(c.mustServe ?? false, `${c.name}: the host refused a sound store: ${started.stderr}`).toBe(false);
        return expectOneLine(started, c.name);
      }
      await sweep(started);
      const ended = await Promise.race([started.exit, new Promise<undefined>((r) => setTimeout(() => r(undefined), 200))]);
      if (ended !== undefined) {
        expect(c.mustServe ?? false, `${c.name}: the host stopped on a sound store: ${ended.stderr}`).toBe(false);
        return expectOneLine(ended, c.name);
      }
      await started.stop();
      expect(started.stderr(), `${c.name}: nothing on stderr while it served`).toBe('');
      const check = new DatabaseSync(file, { readOnly: true });
      try {
        expect((check.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((r) => r.integrity_check), `${c.name}: the served store is sound`).toEqual(['ok']);
      } finally {
        check.close();
      }
      expect(readFileSync(file).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
    }, 60_000);
  }
});
