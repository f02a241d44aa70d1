import { describe, expect, it } from 'vitest';
import { ROUTES, validatorOf } from '../../runtime/host/seam-catalogue.ts';
import { configFrom } from '../../conformance/config.ts';
import { runSuite } from '../../conformance/run.ts';
import { jsonRoutes, LONG_TERM_DISCOVERY, withServer } from './fake-host.ts';

/** The response schemas the catalogue names for the routes the scenarios below exercise. */
const EntriesResponse = validatorOf(ROUTES.memoryEntries.response);
const SeedResponse = validatorOf(ROUTES.memorySeed.response);
const RunEventsResponse = validatorOf(ROUTES.runEvents.response);
const CompactResponse = validatorOf(ROUTES.memoryCompact.response);
const entry = { id: 'mem-1', content: 'x', tags: [], createdAt: '2026-11-22T00:00:00.000Z' };

describe('seam response schemas (generated from schemas/openwop/v1)', () => {
  it('accept the documented shapes', () => {
    expect(EntriesResponse({ entries: [entry] })).toBe(true);
    expect(SeedResponse({ memoryRef: 'mem://t/a', runId: 'r', entries: [entry] })).toBe(true);
    expect(RunEventsResponse({ runId: 'r', events: [] })).toBe(true);
  });
  it('reject missing keys and invalid nested spec objects, with pointers', () => {
    expect(EntriesResponse({ entries: [{ ...entry, id: 5 }] })).toBe(false);
    expect(EntriesResponse.errors?.[0]?.instancePath).toMatch(/^\/entries\/0/);
    expect(EntriesResponse({ entries: [], diagnostics: { tookMs: 1 } })).toBe(true); // responses are open: hosts may add diagnostics
    expect(SeedResponse({ memoryRef: 'mem://t/a', entries: [] })).toBe(false);
    expect(RunEventsResponse({ runId: 'r', events: [{ type: 'memory.compacted' }] })).toBe(false);
    expect(CompactResponse({ compactionRunId: 'c', event: { memoryRef: 'mem://t/a' }, output: entry })).toBe(false);
    expect(EntriesResponse([])).toBe(false);
  });
});

const strictRun = (url: string, only: string) => runSuite(configFrom({}, { 'base-url': url, strict: true, only }));

describe('a host whose seam bodies are off-schema fails the scenario', () => {
  it('an entries list with a malformed entry fails the CTI-1 scenario', async () => {
    await withServer(jsonRoutes({
      [ROUTES.discovery.path]: () => LONG_TERM_DISCOVERY,
      [ROUTES.memorySeed.path]: () => ({ memoryRef: 'mem://t/a', runId: 'r', entries: [entry] }),
      [ROUTES.memoryEntries.path]: (url) => ({ entries: url.includes('tenant-a-probe') ? [] : [{ id: 'mem-1', content: 'x' }] }),
    }), async (url) => {
      const r = await strictRun(url, 'agent-memory-cross-tenant-isolation');
      expect(r.scenarios[0]!.outcome).toBe('fail');
      expect(r.scenarios[0]!.failures.join('\n')).toMatch(/does not match its schema/);
    });
  });
  it('a success where a refusal was due is a failure even though no schema was named for it', async () => {
    await withServer(jsonRoutes({
      [ROUTES.discovery.path]: () => LONG_TERM_DISCOVERY,
      [ROUTES.memorySeed.path]: () => ({ memoryRef: 'mem://t/a', runId: 'r', entries: [entry] }),
      [ROUTES.memoryEntries.path]: (url) => ({ entries: url.includes('tenant-a-probe') ? [] : [entry] }),
      // CTI-1 violation: tenant A's get of tenant B's entry answers 200.
      [ROUTES.memoryEntry.path]: () => entry,
    }), async (url) => {
      const r = await strictRun(url, 'agent-memory-cross-tenant-isolation');
      expect(r.scenarios[0]!.outcome).toBe('fail');
      expect(r.scenarios[0]!.failures.join('\n')).toMatch(/named no success schema|tenant A get/);
    });
  });
  it('a seam answering a generic 404 or 501 is blocked (lenient) and fails (strict), never a pass', async () => {
    for (const status of [404, 501]) {
      const body = status === 404 ? { error: 'not_found', message: 'Not Found' } : { error: 'capability_not_provided', message: 'no', details: { capability: 'memory' } };
      await withServer(jsonRoutes({ [ROUTES.discovery.path]: () => LONG_TERM_DISCOVERY }, { status, body }), async (url) => {
        const lenient = await runSuite(configFrom({}, { 'base-url': url, only: 'agent-memory-redaction' }));
        expect(lenient.scenarios[0]).toMatchObject({ outcome: 'skip', skipClass: 'blocked' });
        expect(lenient.scenarios[0]!.reason).toContain(`answered ${status}`);
        expect((await strictRun(url, 'agent-memory-redaction')).scenarios[0]!.outcome).toBe('fail');
      });
    }
  });
});
