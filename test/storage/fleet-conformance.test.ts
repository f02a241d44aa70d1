/**
 * Every host serves every request (issue 23 acceptance): three host processes started at the same moment on one
 * empty PostgreSQL database with OPENWOP_CONFORMANCE_SEED=true (they migrate once and seed the fixtures once between
 * them), and the strict conformance suite run through a round-robin proxy over the three — each request to the next
 * host, so a scenario's consecutive requests (create, read, fork, answer) land on different hosts — passes as against
 * one host. Nothing is forwarded between hosts: there is no code that could.
 */
import { describe, expect, it } from 'vitest';
import { configFrom } from '../../conformance/config.ts';
import { runSuite } from '../../conformance/run.ts';
import { SCENARIOS } from '../../conformance/scenarios/index.ts';
import { roundRobin } from '../../scripts/round-robin.ts';
import { freshDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';
import { CRASH_TOKEN, startHost } from './crash/host-process.ts';

const pg = toolchain('postgres');

describe('three hosts behind a round-robin proxy', () => {
  it.skipIf(pg.skip)('started at once on an empty database, they pass the strict conformance suite as one host does; every host served a third of it', async () => {
    pg.assert();
    const db = await freshDatabase('fleet-conformance');
    const env = { WOPKIT_DATABASE_URL: db.url, OPENWOP_CONFORMANCE_SEED: 'true' };
    const hosts = await Promise.all([0, 1, 2].map(() => startHost({ args: ['--store', 'postgres'], env })));
    const proxy = await roundRobin(hosts.map((h) => h.url));
    try {
      const results = await runSuite(configFrom({}, { 'base-url': proxy.url, 'api-key': CRASH_TOKEN, strict: true }));
      expect(results.scenarios.filter((s) => s.outcome !== 'pass').map((s) => `${s.id}: ${s.reason}`)).toEqual([]);
      expect(results.summary).toEqual({ pass: SCENARIOS.length, fail: 0, skip: 0 });
      const total = proxy.counts.reduce((a, b) => a + b, 0);
      for (const n of proxy.counts) expect(Math.abs(n - total / 3)).toBeLessThanOrEqual(1);
    } finally {
      await proxy.close();
      for (const h of hosts) await h.stop();
      await db.drop();
    }
  }, 180_000);
});
