/**
 * TEST ONLY: the reference host as `npm start` runs it on PostgreSQL, plus one hook for the stalled-host test. On
 * SIGUSR2 it opens a write transaction on the database and leaves it open — it locks the run row of
 * `WOPKIT_STALL_RUN` (every event of that run waits on it) and the tenant-wide quota rows of `WOPKIT_STALL_TENANT`
 * (every memory write of that tenant waits on them) — then prints `holding` on stdout. The test then stops the whole
 * process with SIGSTOP: a host frozen mid-transaction, as a host is in a long GC pause or a stopped VM.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { startCredentials } from '../../../runtime/host/auth-config.ts';
import { hostKeys } from '../../../runtime/host/host-keys.ts';
import { createHost } from '../../../runtime/host/server.ts';
import { parseStoreArgs } from '../../../runtime/host/store-args.ts';
import { openStore } from '../../../runtime/storage/open-store.ts';
import { DEFAULT_POSTGRES_OPTIONS } from '../../../runtime/storage/postgres/index.ts';

const { store, rest } = parseStoreArgs(process.argv.slice(2), process.env, process.cwd());
const start = startCredentials({ argv: rest, env: process.env, readFile: (p) => readFileSync(p, 'utf8') });
const keys = hostKeys({ env: process.env, production: false, store: store.kind, ...(start.file !== undefined ? { file: start.file } : {}) });
const { app } = await createHost({ credentials: start.credentials, logger: { level: 'warn' }, backgroundIdleMs: 1000, storage: await openStore(store), ...keys });
const url = await app.listen({ port: 0, host: '127.0.0.1' });

process.on('SIGUSR2', () => {
  void (async () => {
    // A connection set up as the host's pool sets up its own (the same server-side timeouts).
    const o = DEFAULT_POSTGRES_OPTIONS;
    const client = new pg.Client({ connectionString: process.env.WOPKIT_DATABASE_URL, options: `-c statement_timeout=${o.statementTimeoutMs} -c lock_timeout=${o.lockTimeoutMs} -c idle_in_transaction_session_timeout=${o.idleInTransactionTimeoutMs}` });
    client.on('error', () => {}); // the server ends the session once it idles in its transaction too long
    await client.connect();
    await client.query('BEGIN');
    await client.query('UPDATE runs SET next_seq = next_seq WHERE run_id = $1', [process.env.WOPKIT_STALL_RUN]);
    await client.query("UPDATE quotas SET n = n WHERE tenant = $1 AND scope = ''", [process.env.WOPKIT_STALL_TENANT]);
    process.stdout.write('holding\n');
  })();
});
process.stdout.write(`stall test host listening on ${url} (store: ${store.kind})\n`);
