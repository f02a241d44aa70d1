/**
 * Benchmark stores built once and kept: a store of a given layout is filled by bulk inserts (bulk.ts) into a store
 * the runtime created, and kept until its layout, the schema or the generator changes (or it is older than
 * `maxAgeMs`); each benchmark run then works on a copy, so every run starts from the same data.
 *
 * - SQLite: `bench/.cache/<name>/wopkit.sqlite` with `manifest.json` beside it. A copy is opened and closed once by
 *   the runtime before it is used, so its integrity check (a file the runtime did not close itself is checked at
 *   open) is not part of any measurement.
 * - PostgreSQL: a database `wopkit_bench_<name>_<hash>` on the benchmark server, its manifest in the database's
 *   comment; a copy is `CREATE DATABASE … TEMPLATE` it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { openStore, SQLITE_FILE } from '../../runtime/storage/open-store.ts';
import { schemaDdl } from '../../runtime/storage/sql/schema.ts';
import { serverUrl } from '../../test/support/postgres.ts';
import { loadRows, type LoadCounts, type LoadTarget } from './bulk.ts';
import type { Row } from './rows.ts';

export const CACHE_DIR = resolve(import.meta.dirname, '..', '.cache');

/** What a cached store was built from and holds. */
export interface Manifest {
  readonly key: string;
  /** When it was built (epoch ms): the generator's "now". */
  readonly builtMs: number;
  readonly buildSeconds: number;
  readonly counts: LoadCounts;
}

export interface StoreRecipe {
  /** Names the cache entry (`[a-z0-9_]`). */
  readonly name: string;
  /** Everything the rows depend on besides the schema (the layout, the generator's version). */
  readonly inputs: unknown;
  /** Rebuild when older than this. */
  readonly maxAgeMs: number;
  /** The rows, for a build at `builtMs`. */
  rows(builtMs: number): Promise<Iterable<Row>> | Iterable<Row>;
  /** Sees every row as it is written (sample checks). */
  readonly each?: (row: Row) => void;
}

/** A working copy of a cached store: where a host opens it, and how to remove it. */
export interface StoreCopy {
  readonly kind: 'sqlite' | 'postgres';
  readonly dataDir?: string;
  readonly url?: string;
  readonly manifest: Manifest;
  drop(): Promise<void>;
}

const keyOf = (r: StoreRecipe, kind: 'sqlite' | 'postgres'): string => createHash('sha256').update(JSON.stringify(r.inputs)).update(schemaDdl(kind)).digest('hex').slice(0, 12);
const fresh = (m: Manifest | undefined, key: string, maxAgeMs: number): m is Manifest => m !== undefined && m.key === key && Date.now() - m.builtMs < maxAgeMs;

async function build(r: StoreRecipe, target: LoadTarget, key: string, log: (line: string) => void): Promise<Manifest> {
  const builtMs = Date.now();
  const started = performance.now();
  log(`building the ${r.name} store (${target.kind}); kept for the next runs`);
  const counts = await loadRows(target, await r.rows(builtMs), r.each);
  const manifest: Manifest = { key, builtMs, buildSeconds: Math.round((performance.now() - started) / 100) / 10, counts };
  log(`built the ${r.name} store (${target.kind}) in ${manifest.buildSeconds} s: ${Object.entries(counts).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  return manifest;
}

/** Open and close a store through the runtime (creates the schema; on an existing file, checks it and records a clean close). */
async function touch(o: { kind: 'sqlite'; dataDir: string } | { kind: 'postgres'; url: string }): Promise<void> {
  await (await openStore(o)).close();
}

/** A copy of the SQLite store `r` (built first when missing or stale). */
export async function sqliteCopy(r: StoreRecipe, log: (line: string) => void = console.log): Promise<StoreCopy> {
  const key = keyOf(r, 'sqlite');
  const dir = join(CACHE_DIR, r.name);
  const manifestPath = join(dir, 'manifest.json');
  let manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest) : undefined;
  if (!fresh(manifest, key, r.maxAgeMs)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await touch({ kind: 'sqlite', dataDir: dir });
    manifest = await build(r, { kind: 'sqlite', file: join(dir, SQLITE_FILE) }, key, log);
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  const copy = join(CACHE_DIR, 'work', `${r.name}-${randomBytes(4).toString('hex')}`);
  mkdirSync(copy, { recursive: true });
  copyFileSync(join(dir, SQLITE_FILE), join(copy, SQLITE_FILE));
  await touch({ kind: 'sqlite', dataDir: copy });
  return { kind: 'sqlite', dataDir: copy, manifest, drop: async () => rmSync(copy, { recursive: true, force: true }) };
}

const withDatabase = (url: string, db: string): string => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

async function onServer<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: serverUrl() });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

/** A copy of the PostgreSQL store `r` (built first when missing or stale), in a database of its own. */
export async function postgresCopy(r: StoreRecipe, log: (line: string) => void = console.log): Promise<StoreCopy> {
  const key = keyOf(r, 'postgres');
  const cached = `wopkit_bench_${r.name}`;
  const found = await onServer((c) => c.query<{ comment: string | null }>('SELECT shobj_description(oid, \'pg_database\') AS comment FROM pg_database WHERE datname = $1', [cached]));
  const comment = found.rows[0]?.comment;
  let manifest = comment === undefined || comment === null ? undefined : (JSON.parse(comment) as Manifest);
  if (!fresh(manifest, key, r.maxAgeMs)) {
    await onServer(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${cached} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${cached}`);
    });
    const url = withDatabase(serverUrl(), cached);
    try {
      await touch({ kind: 'postgres', url });
      manifest = await build(r, { kind: 'postgres', url }, key, log);
    } catch (err) {
      await onServer((c) => c.query(`DROP DATABASE IF EXISTS ${cached} WITH (FORCE)`));
      throw err;
    }
    const text = JSON.stringify(manifest).replace(/'/g, "''");
    await onServer((c) => c.query(`COMMENT ON DATABASE ${cached} IS '${text}'`));
  }
  const copy = `wopkit_bench_work_${randomBytes(4).toString('hex')}`;
  await onServer((c) => c.query(`CREATE DATABASE ${copy} TEMPLATE ${cached}`));
  return { kind: 'postgres', url: withDatabase(serverUrl(), copy), manifest: manifest!, drop: () => onServer(async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`))) };
}

/** An empty store of `kind`, created by the runtime (schema only). */
export async function emptyStore(kind: 'sqlite' | 'postgres'): Promise<StoreCopy> {
  const manifest: Manifest = { key: 'empty', builtMs: Date.now(), buildSeconds: 0, counts: {} };
  if (kind === 'sqlite') {
    const dir = join(CACHE_DIR, 'work', `empty-${randomBytes(4).toString('hex')}`);
    await touch({ kind: 'sqlite', dataDir: dir });
    return { kind, dataDir: dir, manifest, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `wopkit_bench_work_${randomBytes(4).toString('hex')}`;
  await onServer((c) => c.query(`CREATE DATABASE ${name}`));
  const url = withDatabase(serverUrl(), name);
  await touch({ kind: 'postgres', url });
  return { kind, url, manifest, drop: () => onServer(async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))) };
}

/** The copy of `r` for `kind`. */
export const storeCopy = (kind: 'sqlite' | 'postgres', r: StoreRecipe, log?: (line: string) => void): Promise<StoreCopy> => (kind === 'sqlite' ? sqliteCopy(r, log) : postgresCopy(r, log));
