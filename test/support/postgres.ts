/**
 * A throwaway PostgreSQL database per test file.
 *
 * Where the server comes from, in order:
 * 1. `WOPKIT_DATABASE_URL` (any reachable server; its role must be allowed to CREATE DATABASE);
 * 2. the local Debian cluster (`pg_lsclusters`): started with `pg_ctlcluster <version> <name> start` when it is down,
 *    and, when the tests run as root, a `wopkit` role (password `wopkit`) created through `su postgres -c psql`.
 *
 * Each `freshDatabase()` creates `wopkit_t_<label>_<random>` and returns its URL; `drop()` removes it (forcing
 * other connections off, so a killed host's sessions do not keep it alive). The `postgres` toolchain
 * (test/support/toolchains.ts) decides whether a test runs: skipped with the reason when no server can be reached,
 * required under WOPKIT_REQUIRE_TOOLCHAINS=1.
 *
 *   const pg = toolchain('postgres');
 *   let db: TestDatabase;
 *   beforeAll(async () => { if (!pg.skip) db = await freshDatabase('crash'); });
 *   afterAll(() => db?.drop());
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DATABASE_URL_ENV = 'WOPKIT_DATABASE_URL';
const LOCAL_ROLE = 'wopkit';
const LOCAL_URL = `postgres://${LOCAL_ROLE}:${LOCAL_ROLE}@127.0.0.1:5432/postgres`;

export interface TestDatabase {
  /** Connection URL of the throwaway database. */
  readonly url: string;
  readonly name: string;
  /** Drop the database (idempotent). */
  drop(): Promise<void>;
}

interface Cluster {
  readonly version: string;
  readonly name: string;
  readonly port: number;
  readonly online: boolean;
}

const run = (cmd: string, args: readonly string[], input?: string): string =>
  execFileSync(cmd, args, { encoding: 'utf8', ...(input !== undefined ? { input } : {}), stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });

/** Debian's clusters (`pg_lsclusters -h`: version, name, port, status, …); [] when the tool is missing. */
export function localClusters(): Cluster[] {
  let out: string;
  try {
    out = run('pg_lsclusters', ['-h']);
  } catch {
    return [];
  }
  return out.split('\n').filter(Boolean).map((line) => {
    const [version = '', name = '', port = '0', status = ''] = line.trim().split(/\s+/);
    return { version, name, port: Number(port), online: status.startsWith('online') };
  });
}

const isRoot = (): boolean => process.getuid?.() === 0;

/** As the `postgres` OS user (root only): SQL on the maintenance database, given on stdin (no shell quoting). */
function psqlAsPostgres(sql: string, port: number): string {
  return run('su', ['postgres', '-c', `psql -p ${port} -v ON_ERROR_STOP=1 -Atq`], sql);
}

let localUrl: string | undefined;

/** The URL of the local cluster, started and given the test role when needed (root only for those two steps). */
function localServerUrl(): string {
  if (localUrl !== undefined) return localUrl;
  const cluster = localClusters()[0];
  if (cluster === undefined) throw new Error(`no PostgreSQL server: set ${DATABASE_URL_ENV} or install Debian's postgresql (scripts/install-toolchains.sh)`);
  if (!cluster.online) {
    if (!isRoot()) throw new Error(`PostgreSQL cluster ${cluster.version} ${cluster.name} is down; start it (pg_ctlcluster ${cluster.version} ${cluster.name} start) or set ${DATABASE_URL_ENV}`);
    try {
      run('pg_ctlcluster', [cluster.version, cluster.name, 'start']);
    } catch (err) {
      // Another test file may have started it meanwhile.
      if (!localClusters().some((c) => c.name === cluster.name && c.version === cluster.version && c.online)) throw err;
    }
  }
  if (isRoot()) {
    // Idempotent, and safe when several test files race: a duplicate-role error inside the block is swallowed.
    psqlAsPostgres(
      `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${LOCAL_ROLE}') THEN CREATE ROLE ${LOCAL_ROLE} LOGIN SUPERUSER PASSWORD '${LOCAL_ROLE}'; END IF; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;`,
      cluster.port,
    );
  }
  localUrl = LOCAL_URL.replace(':5432/', `:${cluster.port}/`);
  return localUrl;
}

/** The server the tests use: WOPKIT_DATABASE_URL, else the local cluster (started if needed). */
export function serverUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env[DATABASE_URL_ENV] ?? localServerUrl();
}

/** Whether a server can be reached for tests: a URL is configured, or a local cluster exists that we may start. */
export function postgresAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[DATABASE_URL_ENV] !== undefined) return true;
  const cluster = localClusters()[0];
  return cluster !== undefined && (cluster.online || isRoot());
}

const withUrlDatabase = (url: string, database: string): string => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

async function onServer<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await f(client);
  } finally {
    await client.end();
  }
}

/** A new empty database for one test file. `label` is reduced to `[a-z0-9_]`. */
export async function freshDatabase(label: string, env: NodeJS.ProcessEnv = process.env): Promise<TestDatabase> {
  const server = serverUrl(env);
  const name = `wopkit_t_${label.toLowerCase().replace(/[^a-z0-9_]+/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  await onServer(server, (c) => c.query(`CREATE DATABASE ${name}`));
  let dropped = false;
  return {
    name,
    url: withUrlDatabase(server, name),
    async drop() {
      if (dropped) return;
      dropped = true;
      await onServer(server, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
