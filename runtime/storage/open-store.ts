/**
 * Open the storage back-end a host was configured with: `memory` (nothing survives a restart), `sqlite` (a file
 * under the data directory; the default) or `postgres` (a connection URL). Refusals are `StoreConfigError`s with
 * a message fit for a command line: a missing or unwritable data directory, a missing URL, an unknown kind.
 */
import type { PostgresStoreOptions } from './postgres/index.ts';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { WopkitError } from '../shared/errors.ts';
import { openMemoryStore } from './memory/index.ts';
import type { StoragePort, StoreKind } from './port.ts';
import { openSqliteStore } from './sqlite/index.ts';

export const STORE_KINDS: readonly StoreKind[] = ['memory', 'sqlite', 'postgres'];
/** The SQLite file inside a data directory. */
export const SQLITE_FILE = 'wopkit.sqlite';

export interface OpenStoreOptions {
  readonly kind: StoreKind;
  /** SQLite: the data directory (created when missing). */
  readonly dataDir?: string;
  /** PostgreSQL: the connection URL. */
  readonly url?: string;
  /** PostgreSQL: pool size, timeouts, LISTEN (each absent one keeps its default). */
  readonly postgres?: PostgresStoreOptions;
}

export class StoreConfigError extends WopkitError<'store_config'> {
  constructor(message: string) {
    super('store_config', message);
  }
}

export const isStoreKind = (s: unknown): s is StoreKind => typeof s === 'string' && (STORE_KINDS as readonly string[]).includes(s);


export async function openStore(o: OpenStoreOptions): Promise<StoragePort> {
  switch (o.kind) {
    case 'memory':
      return openMemoryStore();
    case 'sqlite': {
      if (o.dataDir === undefined) throw new StoreConfigError('the sqlite store needs a data directory');
      const dir = resolve(o.dataDir);
      try {
        mkdirSync(dir, { recursive: true });
        accessSync(dir, constants.W_OK);
      } catch (err) {
        throw new StoreConfigError(`data directory ${dir} is not writable (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      }
      return openSqliteStore(join(dir, SQLITE_FILE));
    }
    case 'postgres': {
      if (o.url === undefined || o.url === '') throw new StoreConfigError('the postgres store needs a connection URL (WOPKIT_DATABASE_URL)');
      // Loaded only when asked for (it pulls in the client library). A literal specifier, so the package build
      // rewrites it to the compiled module like every other import.
      let mod: typeof import('./postgres/index.ts');
      try {
        mod = await import('./postgres/index.ts');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /['"]pg['"]/.test(String((err as Error).message))) {
          throw new StoreConfigError('the postgres store needs the pg package (npm install pg)');
        }
        throw err;
      }
      return mod.openPostgresStore(o.url, o.postgres);
    }
    default:
      throw new StoreConfigError(`unknown store ${JSON.stringify(o.kind)} (expected ${STORE_KINDS.join(', ')})`);
  }
}
