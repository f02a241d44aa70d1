/**
 * The storage flags of `npm start`: `--store memory|sqlite|postgres` (default sqlite), `--data-dir DIR` (default
 * `./.wopkit-data` under the working directory; SQLite only) and, for PostgreSQL, the URL from
 * `WOPKIT_DATABASE_URL`. Both flags also take the `--flag=value` form. The storage flags are taken out of argv;
 * whatever remains goes to the credentials parser (auth-config.ts).
 */
import { resolve } from 'node:path';
import { STORE_KINDS, StoreConfigError, isStoreKind, type OpenStoreOptions, type PostgresStoreOptions } from '../storage/index.ts';

export const DEFAULT_DATA_DIR = '.wopkit-data';

export interface StoreArgs {
  readonly store: OpenStoreOptions;
  /** argv without the storage flags. */
  readonly rest: readonly string[];
}

const FLAGS = ['--store', '--data-dir'] as const;

export function parseStoreArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, cwd: string): StoreArgs {
  const values = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const flag = FLAGS.find((f) => a === f || a.startsWith(`${f}=`));
    if (flag === undefined) {
      rest.push(a);
      continue;
    }
    const value = a === flag ? argv[++i] : a.slice(flag.length + 1);
    if (value === undefined || value === '' || (a === flag && value.startsWith('--'))) throw new StoreConfigError(`${flag} needs a value`);
    if (values.has(flag)) throw new StoreConfigError(`${flag} given twice`);
    values.set(flag, value);
  }
  const kind = values.get('--store') ?? 'sqlite';
  if (!isStoreKind(kind)) throw new StoreConfigError(`--store must be one of ${STORE_KINDS.join(', ')} (got ${JSON.stringify(kind.slice(0, 40))})`);
  if (values.has('--data-dir') && kind !== 'sqlite') throw new StoreConfigError(`--data-dir applies to the sqlite store only (this is --store ${kind})`);
  switch (kind) {
    case 'memory':
      return { store: { kind }, rest };
    case 'sqlite':
      return { store: { kind, dataDir: resolve(cwd, values.get('--data-dir') ?? DEFAULT_DATA_DIR) }, rest };
    case 'postgres': {
      const url = env.WOPKIT_DATABASE_URL;
      if (url === undefined || url === '') throw new StoreConfigError('--store postgres needs WOPKIT_DATABASE_URL (postgres://user:password@host:port/database)');
      const postgres = postgresSettings(env);
      return { store: { kind, url, ...(Object.keys(postgres).length > 0 ? { postgres } : {}) }, rest };
    }
  }
}

/**
 * The PostgreSQL settings a host takes from its environment: WOPKIT_PG_POOL_SIZE (connections of this host's pool,
 * 1-100, default 10: a fleet's hosts together must stay under the server's max_connections), and a switch for a
 * pooler in transaction mode, where a server session does not follow its client: WOPKIT_PG_LISTEN=off (LISTEN cannot
 * work; the background work then finds other hosts' new work at its next look at the agenda, every second when idle).
 */
const PG_SWITCHES = [['WOPKIT_PG_LISTEN', 'listen']] as const;

function postgresSettings(env: Readonly<Record<string, string | undefined>>): PostgresStoreOptions {
  const out: { poolSize?: number; listen?: boolean } = {};
  const pool = env.WOPKIT_PG_POOL_SIZE;
  if (pool !== undefined && pool !== '') {
    const n = Number(pool);
    if (!Number.isInteger(n) || n < 1 || n > 100) throw new StoreConfigError(`WOPKIT_PG_POOL_SIZE must be an integer from 1 to 100 (got ${JSON.stringify(pool.slice(0, 20))})`);
    out.poolSize = n;
  }
  for (const [name, option] of PG_SWITCHES) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (value !== 'on' && value !== 'off') throw new StoreConfigError(`${name} must be on or off (got ${JSON.stringify(value.slice(0, 20))})`);
    out[option] = value === 'on';
  }
  return out;
}
