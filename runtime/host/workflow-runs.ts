/**
 * Adds the workflow runs (POST /v1/runs) to a host: a fixture runner (runtime/openwop/fixtures/) whose every memory
 * and supervisor operation is one of the host's own — after the test-only mutants wrapped them, so a host broken
 * in CTI-1, SR-1, TTL or escalation is broken in its fixture runs as well. Discovery gains `fixtures` once seeded.
 */
import { FixtureRunner } from '../openwop/fixtures/runner.ts';
import type { HostCore, HostRuntime } from './host-runtime.ts';

export function withWorkflowRuns(core: HostCore, o: { readonly seed?: boolean } = {}): HostRuntime {
  const runner = new FixtureRunner({
    startRun: (r) => core.startFixtureRun(r),
    memoryFor: (tenant) => core.memoryFor(tenant),
    write: (memoryRef, entry, as) => core.write(memoryRef, entry, as),
    resolveSecret: (runId, tenant, secret) => core.resolveSecret(runId, tenant, secret),
    endRun: (runId) => core.endRun(runId),
    supervisorStep: (runId, decision, resolve) => core.supervisorStep(runId, decision, resolve),
    continueStep: (runId, interruptId, resolution) => core.continueStep(runId, interruptId, resolution),
    events: (runId) => core.events(runId),
    run: (runId) => core.run(runId),
    now: () => core.now(),
  });
  if (o.seed === true) runner.seed();
  let merged: { base: object; count: number; doc: ReturnType<HostCore['discovery']> } | undefined;
  return {
    ...core,
    discovery: () => {
      const fixtures = runner.advertised();
      if (fixtures.length === 0) return core.discovery();
      // One merged document per (core document, fixture count), so the discovery route's text cache keeps hitting.
      const base = core.discovery();
      if (merged?.base !== base || merged.count !== fixtures.length) merged = { base, count: fixtures.length, doc: { ...base, fixtures: [...fixtures] } };
      return merged.doc;
    },
    fixtureIds: async () => runner.advertised(),
    seedFixtures: async () => runner.seed(),
    startWorkflow: (workflowId, tenant) => runner.start(workflowId, tenant),
    workflowRun: (runId) => runner.snapshot(runId),
    resolveInterrupt: (runId, interruptId, resolution) => runner.resolveInterrupt(runId, interruptId, resolution),
  };
}
