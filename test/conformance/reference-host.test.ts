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
  it('the results document matches conformance/result.schema.json', () => {
    const ajv = new Ajv2020({ strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync('conformance/result.schema.json', 'utf8')));
    expect(validate(JSON.parse(JSON.stringify(results))), JSON.stringify(validate.errors)).toBe(true);
    expect(results.host).toMatchObject({ name: 'wopkit-reference-host', version: HOST_VERSION });
  });
});

describe('mutation checks: a broken host makes the matching scenario fail', () => {
  const cases: [keyof HostMutations, string][] = [
    ['leakSecret', 'memory-consolidation-idempotent'],
    ['leakIntention', 'commitment-fired'],
    ['refireCommitment', 'commitment-fired'],
    ['skipEscalationEvent', 'multi-agent-confidence-escalation'],
    ['crossTenantRead', 'agent-memory-cross-tenant-isolation'],
    ['ignoreTtl', 'agent-memory-ttl-expiry'],
    ['forkReadsLive', 'replay-memory-snapshot'],
    ['forkReadsLive', 'replay-fork-mode'],
    ['crossTenantRead', 'agent-memory-fixture-runs'],
    ['ignoreTtl', 'agent-memory-fixture-runs'],
    ['writeAroundRedaction', 'agent-memory-fixture-runs'],
    ['skipEscalationEvent', 'multi-agent-escalation-run-waits'],
    ['dropCausation', 'multi-agent-escalation-run-waits'],
    ['dispatchWhileWaiting', 'multi-agent-escalation-run-waits'],
    ['dispatchOnReject', 'multi-agent-escalation-resolve'],
    ['rejectOnApprove', 'multi-agent-escalation-resolve'],
    ['dispatchWhileWaiting', 'multi-agent-escalation-resolve'],
    ['keepNonCanonicalMarkers', 'compaction-markers-canonical'],
    ['unstableArchive', 'memory-distillation-client-requested'],
    ['partialArchiveOnBudget', 'memory-distillation-client-requested'],
    ['applyWithoutGate', 'proposal-reviewable-learning'],
    ['resynthesizeOnApply', 'proposal-reviewable-learning'],
    ['draftInfluencesRun', 'proposal-reviewable-learning'],
    ['silentMemoryDegradation', 'memory-degraded-projection'],
  ];
  for (const [mutation, scenarioId] of cases) {
    it(`${mutation} → ${scenarioId} fails`, async () => {
      const h = await start({ [mutation]: true });
      try {
        const r = await runSuite(configFrom({}, { 'base-url': h.url, 'api-key': TOKEN, strict: true, only: scenarioId }));
        expect(r.scenarios.map((s) => [s.id, s.outcome])).toEqual([[scenarioId, 'fail']]);
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
      expect(byId['memory-consolidation-shape']!.outcome).toBe('pass');
      expect(byId['memory-consolidation-idempotent']).toMatchObject({ outcome: 'skip', skipClass: 'inapplicable' });
      expect(byId['inquirium-local-only-generate']).toMatchObject({ outcome: 'skip', skipClass: 'skipped' });
      const strict = await runSuite(configFrom({}, { 'base-url': url, strict: true }));
      expect(strict.scenarios.filter((s) => s.outcome === 'fail').length).toBe(SCENARIOS.length - 1);
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
