#!/usr/bin/env -S npx tsx
/**
 * Make the legacy-store fixtures test/storage/legacy-upgrade.test.ts opens: stores written by wopkit 0.2 (commit
 * ea8bc48), and what that version answered from them.
 *
 *   git worktree add /tmp/wopkit-0.2 ea8bc48 && ln -s "$PWD/node_modules" /tmp/wopkit-0.2/node_modules
 *   npx tsx scripts/legacy-fixture.ts --old /tmp/wopkit-0.2 [--postgres]
 *
 * For each back-end (SQLite; PostgreSQL with --postgres, in a throwaway database) it starts the old host on an empty
 * store with the conformance fixtures seeded, runs the old conformance suite against it (every route writes: memory
 * with redaction and TTLs, runs and forks, commitments and their fires, schedules, questions, proposals, Inquirium
 * transcripts), restarts it, then reads back a sample of what it stored through the old host's HTTP API — every memoryRef, run log,
 * proposal, question and schedule the store names — and writes, under test/storage/fixtures/legacy-ea8bc48/:
 * `wopkit.sqlite` (the closed store), `postgres.sql` (pg_dump --inserts), and `observed-<kind>.json` (the answers).
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freshDatabase } from '../test/support/postgres.ts';

export const FIXTURE_DIR = 'test/storage/fixtures/legacy-ea8bc48';
export const LEGACY_TOKEN = 'legacy-fixture-operator-token';

/** One read the old host answered, and its answer. */
export interface Observed {
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
}

/** The names a store holds (what the reads sample), as rows of the old schema. */
interface Names {
  readonly refs: string[];
  readonly runs: string[];
  readonly proposals: string[];
  readonly questions: { tenant: string; ref: string }[];
  readonly schedules: { id: string; tenant: string }[];
}

/** The reads made of a store's names, the same before and after the upgrade (paths with an operator key). */
export function readsOf(n: Names): string[] {
  const q = encodeURIComponent;
  return [
    ...n.refs.map((ref) => `/v1/memory/${q(ref)}?limit=500`),
    ...n.runs.map((run) => `/v1/runs/${q(run)}/events?limit=500`),
    ...n.runs.map((run) => `/v1/runs/${q(run)}`),
    ...n.proposals.map((id) => `/v1/host/sample/proposals/${q(id)}`),
    ...n.questions.map(({ ref }) => `/v1/host/sample/inquirium/questions?ref=${q(ref)}`),
    ...n.schedules.map(({ id, tenant }) => `/v1/host/sample/memory/distill-schedule?id=${q(id)}&tenant=${q(tenant)}`),
  ];
}

/** What a fixture file holds: the names sampled, when the reads were made (TTLs are judged then), the answers. */
export interface ObservedFile {
  readonly names: Names;
  readonly observedAt: number;
  readonly observed: Observed[];
}

async function observe(url: string, names: Names): Promise<ObservedFile> {
  const observedAt = Date.now();
  const out: Observed[] = [];
  for (const path of readsOf(names)) {
    const r = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${LEGACY_TOKEN}` } });
    out.push({ path, status: r.status, body: await r.json() });
  }
  return { names, observedAt, observed: out };
}

type Query = (sql: string) => Promise<Record<string, string>[]>;

async function namesOf(query: Query): Promise<Names> {
  const col = async (sql: string) => (await query(sql)).map((r) => Object.values(r)[0]!);
  return {
    refs: await col('SELECT DISTINCT memory_ref FROM memory_entries ORDER BY memory_ref'),
    runs: await col('SELECT run_id FROM runs ORDER BY run_id'),
    proposals: await col('SELECT proposal_id FROM proposals ORDER BY proposal_id'),
    questions: (await query('SELECT tenant, ref FROM questions ORDER BY tenant, ref')).map((r) => ({ tenant: r.tenant!, ref: r.ref! })),
    schedules: (await query('SELECT schedule_id, tenant FROM schedules ORDER BY schedule_id')).map((r) => ({ id: r.schedule_id!, tenant: r.tenant! })),
  };
}

/** Start the old host; resolve with its URL and a stop function. */
async function startOld(old: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(join(old, 'node_modules/.bin/tsx'), ['runtime/host/main.ts', ...args], {
    cwd: old, env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', OPENWOP_HOST_TOKEN: LEGACY_TOKEN, OPENWOP_CONFORMANCE_SEED: 'true', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((res, rej) => {
    const on = (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/[^\s)]+)/.exec(out);
      if (m) res(m[1]!);
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.once('exit', (code) => rej(new Error(`the old host exited (${code}):\n${out}`)));
  });
  return { url, stop: () => new Promise((res) => { child.once('exit', () => res()); child.kill('SIGTERM'); }) };
}

function runOldSuite(old: string, url: string): void {
  try {
    execFileSync(join(old, 'node_modules/.bin/tsx'), ['conformance/cli.ts', '--base-url', url, '--api-key', LEGACY_TOKEN, '--out', mkdtempSync(join(tmpdir(), 'legacy-results-'))], { cwd: old, stdio: 'ignore' });
  } catch {
    // A failed scenario still wrote what it wrote; the fixture is the store, not the verdict.
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({ args: [...argv], options: { old: { type: 'string' }, postgres: { type: 'boolean' } }, strict: true });
  if (values.old === undefined) throw new Error('--old <worktree of ea8bc48> is required');
  const old = resolve(values.old);
  mkdirSync(FIXTURE_DIR, { recursive: true });

  const dataDir = mkdtempSync(join(tmpdir(), 'legacy-sqlite-'));
  // The suite on one host; the reads on a restarted one, so they show what the old version kept in its store (it
  // held some state — a fixture run's outcome — in process memory only).
  const writer = await startOld(old, ['--store', 'sqlite', '--data-dir', dataDir], {});
  runOldSuite(old, writer.url);
  await writer.stop();
  const host = await startOld(old, ['--store', 'sqlite', '--data-dir', dataDir], {});
  const file = join(dataDir, 'wopkit.sqlite');
  const db = new DatabaseSync(file, { readOnly: true });
  const names = await namesOf(async (sql) => db.prepare(sql).all() as Record<string, string>[]);
  db.close();
  writeFileSync(join(FIXTURE_DIR, 'observed-sqlite.json'), `${JSON.stringify(await observe(host.url, names), null, 1)}\n`);
  await host.stop();
  copyFileSync(file, join(FIXTURE_DIR, 'wopkit.sqlite'));
  rmSync(dataDir, { recursive: true, force: true });

  if (values.postgres === true) {
    const database = await freshDatabase('legacy');
    const pgWriter = await startOld(old, ['--store', 'postgres'], { WOPKIT_DATABASE_URL: database.url });
    runOldSuite(old, pgWriter.url);
    await pgWriter.stop();
    const pgHost = await startOld(old, ['--store', 'postgres'], { WOPKIT_DATABASE_URL: database.url });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const pgNames = await namesOf(async (sql) => (await client.query(sql)).rows as Record<string, string>[]);
    await client.end();
    writeFileSync(join(FIXTURE_DIR, 'observed-postgres.json'), `${JSON.stringify(await observe(pgHost.url, pgNames), null, 1)}\n`);
    await pgHost.stop();
    const dump = execFileSync('pg_dump', ['--inserts', '--no-owner', '--no-privileges', '--no-comments', database.url], { maxBuffer: 1 << 28 }).toString('utf8');
    // Plain SQL a client library can run: without psql's meta-commands (pg_dump 17.6+ wraps a dump in \restrict).
    writeFileSync(join(FIXTURE_DIR, 'postgres.sql'), dump.split('\n').filter((line) => !line.startsWith('\\')).join('\n'));
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
