import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { createHost, HOST_VERSION } from '../../runtime/host/server.ts';
import type { HostMutations } from '../../runtime/host/mutants.ts';
import { configFrom } from '../../conformance/config.ts';
import { runSuite, type SuiteResults } from '../../conformance/run.ts';
import { SCENARIOS } from '../../conformance/scenarios/index.ts';
import { REQUIREMENTS } from '../../conformance/requirements.ts';
import { runScenario } from '../../conformance/scenario.ts';
import { HttpClient } from '../../conformance/client.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';

const TOKEN = 'reference-host-test-token';
async function start(mutations: HostMutations = {}): Promise<{ app: FastifyInstance; url: string }> {
  const { app } = await createHost({ token: TOKEN, mutations, seedConformanceFixtures: true });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

describe('conformance suite against the reference host (strict)', () => {
  let app: FastifyInstance;
  let results: SuiteResults;
  beforeAll(async () => {
    const h = await start();
    app = h.app;
    results = await runSuite(configFrom({}, { 'base-url': h.url, 'api-key': TOKEN, strict: true }));
  });
  afterAll(() => app.close());

  it('runs every scenario and every one passes, none skipped', () => {
    expect(results.scenarios.map((s) => s.id)).toEqual(SCENARIOS.map((s) => s.id));
    const notPassed = results.scenarios.filter((s) => s.outcome !== 'pass').map((s) => `${s.id}: ${s.reason}`);
    expect(notPassed).toEqual([]);
    expect(results.summary).toEqual({ pass: SCENARIOS.length, fail: 0, skip: 0 });
    for (const s of results.scenarios) expect(s.assertions).toBeGreaterThan(0);
  });
  it('every requirement with a witness passes, and every witnessing scenario asserted under every row that lists it', () => {
    expect(results.requirements.filter((q) => q.outcome !== 'pass' && q.outcome !== 'unwitnessed').map((q) => `${q.id}: ${q.outcome} ${q.reason ?? ''}`)).toEqual([]);
    const missing = results.requirements.flatMap((q) => {
      const row = REQUIREMENTS.get(q.id)!;
      return row.scenarios.filter((sid) => !(results.scenarios.find((s) => s.id === sid)?.requirements.some((t) => t.id === q.id && t.assertions > 0) ?? false)).map((sid) => `${sid} made no assertion under ${q.id}`);
    });
    expect(missing).toEqual([]);
    expect(results.requirementSummary.fail).toBe(0);
    expect(results.requirementSummary.unwitnessed).toBe([...REQUIREMENTS.values()].filter((r) => r.scenarios.length === 0).length);
  });
  it('the results document matches conformance/result.schema.json', () => {
    const ajv = new Ajv2020({ strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync('conformance/result.schema.json', 'utf8')));
    expect(validate(JSON.parse(JSON.stringify(results))), JSON.stringify(validate.errors)).toBe(true);
    expect(results.host).toMatchObject({ name: 'wopkit-reference-host', version: HOST_VERSION });
  });
});

describe('mutation checks: a broken host makes the matching scenario fail', () => {
  /** Each mutant, the scenario that must catch it, and the requirement ids (after `openwop.requirement.proposed.`) it breaks. */
  const cases: [keyof HostMutations, string, string[]][] = [
    ['leakSecret', 'memory-consolidation-idempotent', ['0068.d3-sr1-carry-forward']],
    ['leakIntention', 'commitment-fired', ['0068.c1-commitment-fired-event', '0068.d6-fire-at-most-once']],
    ['refireCommitment', 'commitment-fired', ['0068.d6-fire-at-most-once']],
    ['skipEscalationEvent', 'multi-agent-confidence-escalation', ['0039.a3-event-before-interrupt']],
    ['crossTenantRead', 'agent-memory-cross-tenant-isolation', ['agent-memory.cti1-cross-tenant-isolation', 'agent-memory.cti1-gate-per-adapter']],
    ['ignoreTtl', 'agent-memory-ttl-expiry', ['agent-memory.ttl-expired-never-surfaces']],
    ['forkReadsLive', 'replay-memory-snapshot', ['0039.b4-replay-reads-the-past']],
    ['forkReadsLive', 'replay-fork-mode', ['0039.b4-replay-reads-the-past']],
    ['crossTenantRead', 'agent-memory-fixture-runs', ['agent-memory.cti1-cross-tenant-isolation']],
    ['ignoreTtl', 'agent-memory-fixture-runs', ['agent-memory.ttl-expired-never-surfaces']],
    ['writeAroundRedaction', 'agent-memory-fixture-runs', ['agent-memory.sr1-secret-redaction']],
    ['skipEscalationEvent', 'multi-agent-escalation-run-waits', ['0039.a1-confidence-floor', '0039.a3-event-before-interrupt']],
    ['dropCausation', 'multi-agent-escalation-run-waits', ['0039.a3-event-before-interrupt']],
    ['dispatchWhileWaiting', 'multi-agent-escalation-run-waits', ['0039.a1-confidence-floor', '0039.a3-event-before-interrupt']],
    ['dispatchOnReject', 'multi-agent-escalation-resolve', ['core.interrupt-approval']],
    ['rejectOnApprove', 'multi-agent-escalation-resolve', ['core.interrupt-approval']],
    ['dispatchWhileWaiting', 'multi-agent-escalation-resolve', ['0039.a3-event-before-interrupt']],
    ['keepNonCanonicalMarkers', 'compaction-markers-canonical', ['0012.d1-sr1-carry-forward']],
    ['unstableArchive', 'memory-distillation-client-requested', ['agent-memory.scheduled-distillation']],
    ['partialArchiveOnBudget', 'memory-distillation-client-requested', ['agent-memory.scheduled-distillation']],
    ['applyWithoutGate', 'proposal-reviewable-learning', ['agent-memory.reviewable-learning']],
    ['resynthesizeOnApply', 'proposal-reviewable-learning', ['agent-memory.reviewable-learning']],
    ['draftInfluencesRun', 'proposal-reviewable-learning', ['agent-memory.reviewable-learning']],
    ['silentMemoryDegradation', 'memory-degraded-projection', ['agent-memory.degraded-memory-visible']],
  ];
  for (const [mutation, scenarioId, requirementIds] of cases) {
    it(`${mutation} → ${scenarioId} fails, naming ${requirementIds.join(', ')}`, async () => {
      const h = await start({ [mutation]: true });
      try {
        const r = await runSuite(configFrom({}, { 'base-url': h.url, 'api-key': TOKEN, strict: true, only: scenarioId }));
        expect(r.scenarios.map((s) => [s.id, s.outcome])).toEqual([[scenarioId, 'fail']]);
        expect(r.requirements.filter((q) => q.outcome === 'fail').map((q) => q.id)).toEqual(requirementIds.map((id) => `openwop.requirement.proposed.${id}`));
      } finally {
        await h.app.close();
      }
    });
  }
});

describe('outcome classes', () => {
  it('a host that does not advertise a behaviour: inapplicable (lenient) or fail (strict); opted-out profiles are skipped', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      // The four root members every discovery document carries (upstream requires them; so does capabilities.schema.json).
      if (req.url === ROUTES.discovery.path) res.end(JSON.stringify({ protocolVersion: '1.1', supportedEnvelopes: [], schemaVersions: {}, limits: { clarificationRounds: 0, schemaRounds: 0, envelopesPerTurn: 0 }, host: { name: 'bare', version: '1' } }));
      else { res.statusCode = 404; res.end(JSON.stringify({ error: 'not_found', message: `no route ${req.method} ${req.url}` })); }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const lenient = await runSuite(configFrom({}, { 'base-url': url, 'opt-out': 'inquirium' }));
      const byId = Object.fromEntries(lenient.scenarios.map((s) => [s.id, s]));
      expect(byId['memory-consolidation-shape']).toMatchObject({ outcome: 'skip', skipClass: 'inapplicable' });
      expect(byId['memory-consolidation-idempotent']).toMatchObject({ outcome: 'skip', skipClass: 'inapplicable' });
      expect(byId['inquirium-local-only-generate']).toMatchObject({ outcome: 'skip', skipClass: 'skipped' });
      const strict = await runSuite(configFrom({}, { 'base-url': url, strict: true }));
      expect(strict.scenarios.filter((s) => s.outcome === 'fail').length).toBe(SCENARIOS.length);
      // Keyed by id: nothing passes on a host that advertises nothing, and a gated-off requirement is a classified skip.
      expect(lenient.requirements.filter((q) => q.outcome === 'pass')).toEqual([]);
      expect(lenient.requirements.find((q) => q.id === 'openwop.requirement.proposed.0068.d2-idempotent-pass')).toMatchObject({ outcome: 'skip', skipClass: 'inapplicable' });
      expect(lenient.requirements.find((q) => q.id === 'orbiplex.inquirium.p066.d3-advise-only-local-only')).toMatchObject({ outcome: 'skip', skipClass: 'skipped' });
      expect(strict.requirements.filter((q) => q.outcome === 'pass' || q.outcome === 'skip')).toEqual([]);
    } finally {
      server.close();
    }
  });
  it('an advertised behaviour whose seam is missing is blocked (lenient) or fails (strict); a scenario that asserts nothing is blocked', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === ROUTES.discovery.path) res.end(JSON.stringify({ protocolVersion: '1.1', agents: { supported: true, memoryBackends: ['long-term'], memoryConsolidation: { supported: true } } }));
      else { res.statusCode = 404; res.end(JSON.stringify({ error: 'not_found', message: `no route ${req.method} ${req.url}` })); }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const lenient = await runSuite(configFrom({}, { 'base-url': url, only: 'memory-consolidation-idempotent' }));
      expect(lenient.scenarios[0]).toMatchObject({ outcome: 'skip', skipClass: 'blocked' });
      const strict = await runSuite(configFrom({}, { 'base-url': url, strict: true, only: 'memory-consolidation-idempotent' }));
      expect(strict.scenarios[0]!.outcome).toBe('fail');
      const vacuous = await runScenario({ id: 'vacuous', title: 't', rfc: '-', profile: 'x', run: async () => {} }, new HttpClient(configFrom({}, { 'base-url': url })), {}, configFrom({}, { 'base-url': url }));
      expect(vacuous).toMatchObject({ outcome: 'skip', skipClass: 'blocked' });
    } finally {
      server.close();
    }
  });
});
