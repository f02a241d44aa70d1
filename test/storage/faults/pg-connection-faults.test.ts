/**
 * Issue 32's fault campaigns on PostgreSQL, in full (the soak set, test/soak.ts): a real host (`npm start -- --store
 * postgres`, the default entry) under 8 concurrent writers; every busy connection of it terminated
 * (`pg_terminate_backend`) in 20 rounds; then the host frozen (SIGSTOP) inside a write transaction for 12 s — past
 * the server's 5 s idle-in-transaction timeout — and thawed (SIGCONT), 5 times. 0 exits, every request 200 or 503 +
 * Retry-After (or, while frozen, 408 for a request it had begun to receive), 0 acknowledged writes lost, and the host
 * serves after each fault. The fast variant is
 * pg-connection-faults-fast.test.ts in `npm test`.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../support/postgres.ts';
import { toolchain } from '../../support/toolchains.ts';
import { startHost } from '../crash/host-process.ts';
import { expectSurvived, pauseInTransaction, servesAgain, terminateBusy, writeLoad } from './pg-faults.ts';

const pgToolchain = toolchain('postgres');
const PAUSE_SECONDS = Number(process.env.WOPKIT_PAUSE_SECONDS ?? 12);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('a PostgreSQL host under its database\'s faults (soak)', () => {
  it.skipIf(pgToolchain.skip)(`8 writers; every busy connection terminated ×20, then the host frozen in a write transaction for ${PAUSE_SECONDS} s ×5: 0 exits, every answer 200 or 503 + Retry-After (408 while frozen), 0 acknowledged writes lost`, async () => {
    pgToolchain.assert();
    const db = await freshDatabase('pg_faults_soak');
    cleanups.push(() => db.drop());
    const host = await startHost({ args: ['--store', 'postgres'], env: { WOPKIT_DATABASE_URL: db.url } });
    cleanups.push(() => host.stop());
    let exited = false;
    void host.exit.then(() => { exited = true; });
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    cleanups.push(() => admin.end());
    await servesAgain(host.url);

    const terminations = writeLoad(host.url);
    const ended = await terminateBusy(admin, 20);
    const terminated = await terminations.stop();
    await expectSurvived(host, () => exited, terminated, admin);
    await servesAgain(host.url);

    const pausing = writeLoad(host.url);
    const caught = await pauseInTransaction(host, admin, 5, PAUSE_SECONDS * 1000);
    const paused = await pausing.stop();
    expect(caught, 'freezes that caught the host inside a transaction').toBe(5);
    await expectSurvived(host, () => exited, paused, admin, true);
    console.info(`pg faults: ${ended} connections terminated in 20 rounds (${terminated.answers.length} answers, ${terminated.answers.filter((a) => a.status === 503).length} × 503, ${terminated.acknowledged.length} acknowledged, 0 lost); 5 freezes of ${PAUSE_SECONDS} s (${paused.answers.length} answers, ${paused.answers.filter((a) => a.status === 503).length} × 503, ${paused.answers.filter((a) => a.status === 408).length} × 408, ${paused.acknowledged.length} acknowledged, 0 lost)`);
  }, (PAUSE_SECONDS * 5 + 240) * 1000);
});
