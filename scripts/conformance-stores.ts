#!/usr/bin/env -S npx tsx
/**
 * The conformance suite, strict, against the reference host on each storage back-end, so the interop matrix shows
 * one column per back-end from evidence: `wopkit-reference-host (in-memory)`, `(SQLite)`, `(PostgreSQL)`.
 *
 *   npm run conformance:stores [-- --out DIR] [-- --only memory,sqlite]
 *
 * Each host is started with its store (SQLite in a fresh temporary data directory; PostgreSQL in a throwaway
 * database of WOPKIT_DATABASE_URL's server, or of the local cluster, shared by three hosts behind a round-robin
 * balancer), and its results are written where the
 * matrix reads them (default conformance/results). Exit 1 when a scenario failed on any back-end, 2 when a
 * back-end could not be started.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { configFrom } from '../conformance/config.ts';
import { RESULTS_DIR, writeResults } from '../conformance/cli.ts';
import { formatSummary, runSuite, type SuiteResults } from '../conformance/run.ts';
import { createHost } from '../runtime/host/server.ts';
import { SecretKeyRing } from '../runtime/redaction/sealing.ts';
import { openStore } from '../runtime/storage/open-store.ts';
import type { StoreKind } from '../runtime/storage/port.ts';
import { freshDatabase } from '../test/support/postgres.ts';
import { roundRobin } from './round-robin.ts';

/** Each back-end and the label its matrix column carries. */
export const STORE_LABELS: Readonly<Record<StoreKind, string>> = { memory: 'in-memory', sqlite: 'SQLite', postgres: 'PostgreSQL' };

const TOKEN = 'conformance-stores-operator-token';
/** What every host of one store shares: the operator token, the SR-1 sealing key and the cursor key (docs/host.md). */
const FLEET_KEYS = { token: TOKEN, secretKeys: new SecretKeyRing([{ id: 'conformance', key: randomBytes(32) }]), cursorKey: randomBytes(32) };

/**
 * Start the host on a fresh store of `kind`, run the strict suite against it over HTTP, stop it. The results name
 * the host `<discovery host name> (<label>)`.
 */
export async function conformanceOnStore(kind: StoreKind): Promise<SuiteResults> {
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    let url: string | undefined;
    let dataDir: string | undefined;
    if (kind === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'wopkit-conformance-sqlite-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      dataDir = dir;
    }
    if (kind === 'postgres') {
      const db = await freshDatabase('conformance');
      cleanups.push(() => db.drop());
      url = db.url;
    }
    const open = () => openStore({ kind, ...(dataDir !== undefined ? { dataDir } : {}), ...(url !== undefined ? { url } : {}) });
    let baseUrl: string;
    if (kind === 'postgres') {
      // As a fleet runs on PostgreSQL: three host processes' worth of hosts on one database behind a round-robin
      // balancer, so consecutive requests of one scenario land on different hosts (no leader, nothing forwarded).
      const hosts = await Promise.all([0, 1, 2].map(async () => createHost({ ...FLEET_KEYS, storage: await open(), seedConformanceFixtures: true })));
      const origins: string[] = [];
      for (const h of hosts) {
        cleanups.unshift(() => h.app.close());
        origins.push(await h.app.listen({ port: 0, host: '127.0.0.1' }));
      }
      const balancer = await roundRobin(origins);
      cleanups.unshift(() => balancer.close());
      baseUrl = balancer.url;
    } else {
      const { app } = await createHost({ ...FLEET_KEYS, storage: await open(), seedConformanceFixtures: true });
      cleanups.unshift(() => app.close()); // closes the store too
      baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    }
    const results = await runSuite(configFrom({}, { 'base-url': baseUrl, 'api-key': TOKEN, strict: true }));
    return { ...results, host: { ...results.host, name: `${results.host.name} (${STORE_LABELS[kind]})` } };
  } finally {
    for (const c of cleanups) await c();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: { out: { type: 'string' }, only: { type: 'string' } }, strict: true });
  const kinds = (values.only?.split(',') ?? Object.keys(STORE_LABELS)) as StoreKind[];
  let failed = false;
  for (const kind of kinds) {
    let results: SuiteResults;
    try {
      results = await conformanceOnStore(kind);
    } catch (err) {
      process.stderr.write(`conformance:stores: cannot run on ${kind}: ${(err as Error).message}\n`);
      return 2;
    }
    const file = writeResults(values.out ?? RESULTS_DIR, results);
    process.stdout.write(`${formatSummary(results)}\n  → ${file}\n`);
    failed ||= results.summary.fail > 0;
  }
  return failed ? 1 : 0;
}

const invokedDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (invokedDirectly) main(process.argv.slice(2)).then((code) => process.exit(code));
