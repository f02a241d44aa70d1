#!/usr/bin/env -S npx tsx
/**
 * `npm start`: the reference host on localhost, on a durable store (docs/storage.md).
 * Storage (store-args.ts): `--store memory|sqlite|postgres` (default sqlite), `--data-dir DIR` (default
 * `./.wopkit-data`, printed at start), WOPKIT_DATABASE_URL for PostgreSQL.
 * Credentials (auth-config.ts, docs/host.md "Credentials"): `--credentials <file.json>` / WOPKIT_CREDENTIALS_FILE,
 * WOPKIT_API_KEYS, OPENWOP_HOST_TOKEN (the development operator token; a random one is generated and printed when
 * no key is configured). `--production` or NODE_ENV=production: a credentials file is required.
 * Listening: `--port` / PORT (default 8787), `--host` / HOST (127.0.0.1). `npm start -- --help` prints every flag and
 * environment variable from the one table of start-flags.ts. Env: WOPKIT_ADVERTISE_URL (the address other hosts on one PostgreSQL database
 * reach this one at, when not the listen address), LOG_LEVEL (info), OPENWOP_CONFORMANCE_SEED=true (seed the conformance
 * fixture workflows, as upstream's suite expects), and one variable per limit of limits.ts (e.g.
 * OPENWOP_REQUEST_TIMEOUT_MS; docs/security.md lists them).
 */
import { readFileSync } from 'node:fs';
import { CredentialsError } from './auth.ts';
import { startCredentials, type StartCredentials } from './auth-config.ts';
import { createHost } from './server.ts';
import { ROUTES } from './seam-catalogue.ts';
import { limitsFromEnv, resolveLimits, type HostLimits } from './limits.ts';
import { parseStoreArgs, type StoreArgs } from './store-args.ts';
import { argsOf, listenOf, parseStartFlags, startHelp, StartFlagError } from './start-flags.ts';
import { openStore } from '../storage/open-store.ts';
import type { StoragePort } from '../storage/port.ts';
import { WopkitError } from '../shared/errors.ts';

const refuse = (message: string): never => {
  process.stderr.write(`wopkit reference host: not starting: ${message}\n`);
  process.exit(2);
};

let storeArgs: StoreArgs;
let start: StartCredentials;
let limits: Partial<HostLimits>;
let listen: { port: number; host: string };
try {
  const flags = parseStartFlags(process.argv.slice(2));
  if (flags.has('--help')) {
    process.stdout.write(startHelp());
    process.exit(0);
  }
  listen = listenOf(flags, process.env);
  storeArgs = parseStoreArgs(argsOf(flags, 'storage'), process.env, process.cwd());
  start = startCredentials({ argv: argsOf(flags, 'credentials'), env: process.env, readFile: (p) => readFileSync(p, 'utf8') });
  limits = limitsFromEnv(process.env);
  resolveLimits(limits);
} catch (err) {
  if (!(err instanceof CredentialsError || err instanceof RangeError || err instanceof WopkitError || err instanceof StartFlagError)) throw err;
  refuse(err.message);
}
/** WOPKIT_ADVERTISE_URL, checked before anything starts: an http(s) origin, or absent. */
const advertiseUrl = ((raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined;
  const u = URL.canParse(raw) ? new URL(raw) : undefined;
  if (u === undefined || !/^https?:$/.test(u.protocol) || u.pathname !== '/' || u.search !== '' || u.username !== '') {
    refuse(`WOPKIT_ADVERTISE_URL must be an http(s) origin such as http://10.0.0.5:8787 (got ${JSON.stringify(raw.slice(0, 200))})`);
  }
  return u!.origin;
})(process.env.WOPKIT_ADVERTISE_URL);
let storage: StoragePort;
try {
  storage = await openStore(storeArgs!.store);
} catch (err) {
  // A bad data directory, a store newer than this code, an unreachable database: say so and stop.
  refuse(err instanceof Error ? err.message : String(err));
}
const { port, host } = listen!;
const seedConformanceFixtures = process.env.OPENWOP_CONFORMANCE_SEED === 'true';
// PostgreSQL may be shared by several host processes: each starts as a standby and one becomes the active host
// (runtime/host/cluster/). One that loses its lease stops, so a supervisor restarts it as a standby.
const shared = storage!.lease !== undefined;
const onLost = (err: Error) => {
  process.stderr.write(`wopkit reference host: lost the active-host lease (${err.message}); stopping\n`);
  process.exit(1);
};
const { app, cluster } = await createHost({
  credentials: start!.credentials, logger: { level: process.env.LOG_LEVEL ?? 'info' }, scheduleTickMs: 1000, limits: limits!, storage: storage!, seedConformanceFixtures,
  ...(shared ? { cluster: { onLost } } : {}),
});
const url = await app.listen({ port, host });
// Where the other hosts reach this one when it is active: the listen address, unless hosts on other machines need
// another (a listen address of 0.0.0.0 is published as 127.0.0.1, which only reaches hosts on this machine).
cluster?.start(advertiseUrl ?? url);
const keys = start!.credentials.summary().map((p) => (p.role === 'tenant' ? `${p.keyId} (tenant ${p.tenant})` : `${p.keyId} (operator)`));
const token = start!.devToken === undefined ? '' : `  token:     ${start!.devToken}\n  conformance: npm run conformance -- --base-url ${url} --api-key ${start!.devToken}\n`;
const where = `store: ${storage!.kind}${storage!.kind === 'memory' ? '' : `, data: ${storeArgs!.store.dataDir ?? storage!.location}`}${shared ? ', shared: serves once it holds the store lease, forwards to the active host until then' : ''}`;
// The stop handlers before the ready line: a supervisor may signal as soon as it reads it, and a stop must close
// the app (flush, release the store's lock or lease) rather than kill the process mid-write.
let stopping = false;
const stop = async () => {
  if (stopping) return; // a second signal while closing changes nothing
  stopping = true;
  await app.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.stdout.write(`\nwopkit reference host listening on ${url} (${where})${start!.production ? ' (production)' : ''}\n  discovery: ${url}${ROUTES.discovery.path}\n  keys:      ${keys.join(', ')}\n${token}\n`);
