#!/usr/bin/env -S npx tsx
/**
 * `npm start`: the reference host on localhost, on a durable store (docs/storage.md).
 * Storage (store-args.ts): `--store memory|sqlite|postgres` (default sqlite), `--data-dir DIR` (default
 * `./.wopkit-data`, printed at start), WOPKIT_DATABASE_URL for PostgreSQL.
 * Credentials (auth-config.ts, docs/host.md "Credentials"): `--credentials <file.json>` / WOPKIT_CREDENTIALS_FILE,
 * WOPKIT_API_KEYS, OPENWOP_HOST_TOKEN (the development operator token; a random one is generated and printed when
 * no key is configured). `--production` or NODE_ENV=production: a credentials file is required.
 * Keys (host-keys.ts): the credentials file's "secretKeys" and "cursorKey", or WOPKIT_SECRET_KEYS and WOPKIT_CURSOR_KEY (the
 * secret keys are required in production; on PostgreSQL a credentials file and both keys are, fleet-credentials.ts).
 * Listening: `--port` / PORT (default 8787), `--host` / HOST (127.0.0.1). `npm start -- --help` prints every flag and
 * environment variable from the one table of start-flags.ts. Env: LOG_LEVEL (info), OPENWOP_CONFORMANCE_SEED=true (seed the conformance
 * fixture workflows, as upstream's suite expects), WOPKIT_MEMORY_ATTRIBUTION=off (no memory.written, no
 * memory.attribution), and one variable per limit of limits.ts (e.g.
 * OPENWOP_REQUEST_TIMEOUT_MS; docs/security.md lists them).
 */
import { readFileSync } from 'node:fs';
import { startCredentials, type StartCredentials } from './auth-config.ts';
import { createHost } from './server.ts';
import { ROUTES } from './seam-catalogue.ts';
import { limitsFromEnv, resolveLimits, type HostLimits } from './limits.ts';
import { parseStoreArgs, type StoreArgs } from './store-args.ts';
import { argsOf, drainOf, listenOf, parseStartFlags, startHelp } from './start-flags.ts';
import { openStore, type StoragePort } from '../storage/index.ts';
import { hostKeys, type HostKeys } from './host-keys.ts';
import { signingKeysOfFile, type PublishedSigningKey } from './signing-keys.ts';
import { WopkitError } from '../shared/errors.ts';

/** One line: whatever a message carries (a database's report, a path) never breaks the one-line contract. */
const oneLine = (message: string): string => message.replace(/\s+/g, ' ').trim();

const refuse = (message: string): never => {
  process.stderr.write(`wopkit reference host: not starting: ${oneLine(message)}\n`);
  process.exit(2);
};

let storeArgs: StoreArgs;
let start: StartCredentials;
let limits: Partial<HostLimits>;
let listen: { port: number; host: string };
let drainSettings: { delayMs: number; graceMs: number };
try {
  const flags = parseStartFlags(process.argv.slice(2));
  if (flags.has('--help')) {
    process.stdout.write(startHelp());
    process.exit(0);
  }
  listen = listenOf(flags, process.env);
  drainSettings = drainOf(process.env);
  storeArgs = parseStoreArgs(argsOf(flags, 'storage'), process.env, process.cwd());
  start = startCredentials({ argv: argsOf(flags, 'credentials'), env: process.env, readFile: (p) => readFileSync(p, 'utf8') });
  limits = limitsFromEnv(process.env);
  resolveLimits(limits);
} catch (err) {
  // Every refusal at start is one line (the message names the flag, variable or file at fault; never a key).
  refuse(err instanceof Error ? err.message : String(err));
}
let keys: HostKeys;
let signingKeys: readonly PublishedSigningKey[] = [];
try {
  // Several hosts share a PostgreSQL database: they must be given one credentials file (fleet-credentials.ts).
  if (storeArgs!.store.kind === 'postgres' && start!.file === undefined) {
    refuse('on PostgreSQL a host needs a credentials file (--credentials <file.json> or WOPKIT_CREDENTIALS_FILE), the same for every host of the database, with its "secretKeys" and "cursorKey"');
  }
  keys = hostKeys({ env: process.env, production: start!.production, store: storeArgs!.store.kind, ...(start!.file !== undefined ? { file: start!.file } : {}) });
  if (start!.file !== undefined) signingKeys = signingKeysOfFile(start!.file.text, start!.file.path);
} catch (err) {
  if (!(err instanceof WopkitError)) throw err;
  refuse(err.message);
}
let storage: StoragePort;
try {
  storage = await openStore(storeArgs!.store);
} catch (err) {
  // A bad data directory, a store newer than this code, a corrupt file, an unreachable database: say so and stop.
  refuse(err instanceof Error ? err.message : String(err));
}
const { port, host } = listen!;
const seedConformanceFixtures = process.env.OPENWOP_CONFORMANCE_SEED === 'true';
const attribution = process.env.WOPKIT_MEMORY_ATTRIBUTION ?? 'on';
if (attribution !== 'on' && attribution !== 'off') refuse(`WOPKIT_MEMORY_ATTRIBUTION must be on or off (got ${JSON.stringify(attribution.slice(0, 40))})`);
// Corrupt data met at run time: one line and exit 2, as at start (the host answered 503 meanwhile).
const onFatal = (err: Error) => {
  process.stderr.write(`wopkit reference host: stopping: ${oneLine(err.message)}\n`);
  process.exit(2);
};
// A rotation of the fleet's credentials finished without this host's: one line and exit 2 (restart it with the new file).
const onRetired = () => {
  process.stderr.write("wopkit reference host: stopping: a rotation of the fleet's credentials finished without this host's; start it again with the fleet's current credentials file\n");
  process.exit(2);
};
let started: Awaited<ReturnType<typeof createHost>>;
try {
  started = await createHost({
    credentials: start!.credentials, logger: { level: process.env.LOG_LEVEL ?? 'info' }, backgroundIdleMs: 1000, limits: limits!, storage: storage!, seedConformanceFixtures, memoryAttribution: attribution === 'on', onFatal, onRetired, signingKeys,
    ...(keys!.secretKeys !== undefined ? { secretKeys: keys!.secretKeys } : {}), ...(keys!.cursorKey !== undefined ? { cursorKey: keys!.cursorKey } : {}),
  });
} catch (err) {
  await storage!.close().catch(() => undefined);
  refuse(err instanceof Error ? err.message : String(err));
}
const { app, drain } = started!;
let url = '';
try {
  url = await app.listen({ port, host });
} catch (err) {
  await app.close().catch(() => undefined);
  refuse(`cannot listen on ${host}:${port}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}
const credentialKeys = start!.credentials.summary().map((p) => (p.role === 'tenant' ? `${p.keyId} (tenant ${p.tenant})` : `${p.keyId} (operator)`));
const token = start!.devToken === undefined ? '' : `  token:     ${start!.devToken}\n  conformance: npm run conformance -- --base-url ${url} --api-key ${start!.devToken}\n`;
const where = `store: ${storage!.kind}${storage!.kind === 'memory' ? '' : `, data: ${storeArgs!.store.dataDir ?? storage!.location}`}`;
const sealing = keys!.secretKeys === undefined ? '  secrets:   no WOPKIT_SECRET_KEYS: SR-1 registries are sealed with a key of this process only (runs with secrets refuse writes after a restart)\n' : '';
// The stop handlers before the ready line: a supervisor may signal as soon as it reads it. A stop drains: /readyz
// answers 503 at once and the background work stops; the host keeps serving for WOPKIT_DRAIN_DELAY_MS (a balancer
// notices), then stops accepting and lets the requests in flight finish — within WOPKIT_DRAIN_GRACE_MS, else exit 1 —
// and closes the store.
let stopping = false;
const stop = async () => {
  if (stopping) return; // a second signal while closing changes nothing
  stopping = true;
  await drain();
  if (drainSettings!.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainSettings!.delayMs));
  setTimeout(() => {
    process.stderr.write(`wopkit reference host: stopping: requests in flight did not finish within WOPKIT_DRAIN_GRACE_MS (${drainSettings!.graceMs} ms); exiting without them\n`);
    process.exit(1);
  }, drainSettings!.graceMs).unref();
  await app.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.stdout.write(`\nwopkit reference host listening on ${url} (${where})${start!.production ? ' (production)' : ''}\n  discovery: ${url}${ROUTES.discovery.path}\n  keys:      ${credentialKeys.join(', ')}\n${token}${sealing}\n`);
