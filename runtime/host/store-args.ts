/**
 * The storage flags of `npm start`: `--store memory|sqlite|postgres` (default sqlite), `--data-dir DIR` (default
 * `./.wopkit-data` under the working directory; SQLite only) and, for PostgreSQL, the URL from
 * `WOPKIT_DATABASE_URL`. Both flags also take the `--flag=value` form. The storage flags are taken out of argv;
 * whatever remains goes to the credentials parser (auth-config.ts).
 */
import { resolve } from 'node:path';
import { isStoreKind, StoreConfigError, STORE_KINDS, type OpenStoreOptions } from '../storage/open-store.ts';

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
      return { store: { kind, url }, rest };
    }
  }
}
