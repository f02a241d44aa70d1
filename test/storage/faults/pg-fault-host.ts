/**
 * TEST ONLY: the reference host as `npm start -- --store postgres` runs it, with the server's idle-in-transaction
 * timeout lowered to WOPKIT_TEST_PG_IDLE_TX_MS, so the fast fault test can pause the host past it in a second or two
 * instead of the 5 s of the default (the soak test pauses the real entry for 12 s).
 */
import { readFileSync } from 'node:fs';
import { startCredentials } from '../../../runtime/host/auth-config.ts';
import { hostKeys } from '../../../runtime/host/host-keys.ts';
import { createHost } from '../../../runtime/host/server.ts';
import { parseStoreArgs } from '../../../runtime/host/store-args.ts';
import { openStore } from '../../../runtime/storage/open-store.ts';

const { store, rest } = parseStoreArgs(process.argv.slice(2), process.env, process.cwd());
const start = startCredentials({ argv: rest, env: process.env, readFile: (p) => readFileSync(p, 'utf8') });
const keys = hostKeys({ env: process.env, production: false, store: store.kind, ...(start.file !== undefined ? { file: start.file } : {}) });
const idleInTransactionTimeoutMs = Number(process.env.WOPKIT_TEST_PG_IDLE_TX_MS ?? 5000);
const storage = await openStore({ ...store, postgres: { ...store.postgres, idleInTransactionTimeoutMs } });
const { app } = await createHost({ credentials: start.credentials, logger: { level: 'warn' }, backgroundIdleMs: 1000, storage, ...keys });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`pg fault test host listening on ${url} (store: ${store.kind})\n`);
