/**
 * The fast variant of pg-connection-faults.test.ts, in `npm test`: a real host process on PostgreSQL under 8 writers;
 * its busy connections terminated once (again only if no request met it), then the host frozen inside a write transaction once, for 2 s, with the
 * server's idle-in-transaction timeout lowered to 0.8 s (test entry pg-fault-host.ts). The host does not exit, every
 * request is answered 200 or 503 + Retry-After, nothing acknowledged is lost, and it serves afterwards.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../support/postgres.ts';
import { toolchain } from '../../support/toolchains.ts';
import { startHost } from '../crash/host-process.ts';
import { expectSurvived, pauseInTransaction, servesAgain, terminateBusy, writeLoad } from './pg-faults.ts';

const pgToolchain = toolchain('postgres');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('a PostgreSQL host under its database\'s faults (fast)', () => {
  it.skipIf(pgToolchain.skip)('8 writers; busy connections terminated once, the host frozen in a write transaction past the idle timeout once: no exit, 200 or 503 + Retry-After, nothing acknowledged lost', async () => {
    pgToolchain.assert();
    const db = await freshDatabase('pg_faults_fast');
    cleanups.push(() => db.drop());
    const host = await startHost({ entry: 'test/storage/faults/pg-fault-host.ts', args: ['--store', 'postgres'], env: { WOPKIT_DATABASE_URL: db.url, WOPKIT_TEST_PG_IDLE_TX_MS: '800' } });
    cleanups.push(() => host.stop());
    let exited = false;
    void host.exit.then(() => { exited = true; });
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    cleanups.push(() => admin.end());
    await servesAgain(host.url);

    const terminations = writeLoad(host.url);
    // One round of terminations; another (at most 5) only if every connection it ended had already answered.
    for (let round = 0; round < 5 && terminations.refused() === 0; round++) {
      expect(await terminateBusy(admin, 1)).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
    }
    await expectSurvived(host, () => exited, await terminations.stop(), admin);
    await servesAgain(host.url);

    const pausing = writeLoad(host.url);
    expect(await pauseInTransaction(host, admin, 1, 2_000)).toBe(1);
    await expectSurvived(host, () => exited, await pausing.stop(), admin, true);
  }, 120_000);
});
