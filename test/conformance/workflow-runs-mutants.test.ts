/**
 * Issue 24: the suite's run, fork and interrupt scenarios pass on the reference host and fail on a host broken in the
 * runtime's run, fork or interrupt code (the mutants of runtime/host/mutants.ts that replace a step of the workflow
 * engine — never fixture code). Each pair names the scenario the broken step must fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHost } from '../../runtime/host/server.ts';
import type { HostMutations } from '../../runtime/host/mutants.ts';
import { configFrom } from '../../conformance/config.ts';
import { runSuite } from '../../conformance/run.ts';

const TOKEN = 'workflow-runs-mutants-token';
const SCENARIOS = ['run-lifecycle-noop', 'replay-fork-workflow', 'interrupt-approval-gate', 'agent-low-confidence-suspends', 'multi-agent-escalation-resolve', 'replay-memory-snapshot'] as const;

async function start(mutations: HostMutations = {}): Promise<{ app: FastifyInstance; url: string }> {
  const { app } = await createHost({ token: TOKEN, mutations, seedConformanceFixtures: true });
  return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
}
const run = (url: string, only: string) => runSuite(configFrom({}, { 'base-url': url, 'api-key': TOKEN, strict: true, only }));

describe('run, fork and interrupt scenarios on the reference host', () => {
  let h: { app: FastifyInstance; url: string };
  beforeAll(async () => {
    h = await start();
  });
  afterAll(() => h.app.close());
  it.each(SCENARIOS)('%s passes (strict), with assertions', async (id) => {
    const r = await run(h.url, id);
    expect(r.scenarios.map((s) => [s.id, s.outcome, s.reason])).toEqual([[id, 'pass', undefined]]);
    expect(r.scenarios[0]!.assertions).toBeGreaterThan(5);
  });
});

describe('a host broken in its run, fork or interrupt code fails the matching scenario', () => {
  const cases: [keyof HostMutations, string][] = [
    ['runNeverEnds', 'run-lifecycle-noop'],
    ['runNeverEnds', 'replay-fork-workflow'],
    ['runNeverEnds', 'interrupt-approval-gate'],
    ['forkNotExecuted', 'replay-fork-workflow'],
    ['replayRedoesWrites', 'replay-fork-workflow'],
    ['answerAnyNode', 'interrupt-approval-gate'],
    ['anyActionAccepts', 'interrupt-approval-gate'],
    ['lowConfidenceProceeds', 'agent-low-confidence-suspends'],
    ['runNeverEnds', 'agent-low-confidence-suspends'],
  ];
  for (const [mutation, scenarioId] of cases) {
    it(`${mutation} → ${scenarioId} fails`, async () => {
      const h = await start({ [mutation]: true });
      try {
        const r = await run(h.url, scenarioId);
        expect(r.scenarios.map((s) => [s.id, s.outcome])).toEqual([[scenarioId, 'fail']]);
      } finally {
        await h.app.close();
      }
    }, 60_000);
  }
});
