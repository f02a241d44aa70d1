/**
 * Adds the workflow runs (POST /v1/runs) to a host: a fixture runner (runtime/openwop/fixtures/) whose every memory,
 * supervisor and workflow operation is one of the host's own — after the test-only mutants wrapped them, so a host
 * broken in CTI-1, SR-1, TTL, escalation, or its run, fork or interrupt code is broken in its fixture runs as well.
 * Discovery gains `fixtures` once seeded.
 * What the runner keeps — that the fixtures were seeded, each probe run's outcome — is in the store.
 */
import { FixtureRunner, type ProbeOutcome } from '../openwop/fixtures/runner.ts';
import type { OpenwopRuntime } from '../openwop/index.ts';
import { unitsOf, type JsonDoc, type Units } from '../storage/index.ts';

import { WopkitError } from '../shared/errors.ts';
import { OPERATOR_DEFAULT_TENANT } from './auth-binding.ts';
import type { HostCore, HostRuntime, MemoryReader } from './host-runtime.ts';

/** The claim that records, once for every host on the store, that the conformance fixtures were seeded. */
/** The store's record that the conformance fixtures are seeded (meta: retention never prunes it, as it did a claim). */
const SEEDED = 'fixtures.seeded';

/**
 * The draft proposal seeded with the fixtures, for tenant `default` (the tenant an operator key acts as): upstream's
 * proposal scenario takes the first draft an operator key lists and applies it. Its artefact is upstream's own example
 * of a conforming `workflow-chain-pack` draft; it stays inert (a draft installs nothing).
 */
export const SEEDED_DRAFT = {
  request: {
    tenant: OPERATOR_DEFAULT_TENANT,
    kind: 'workflow-chain-pack',
    title: 'Conformance seed draft',
    artifact: { name: 'conformance-weekly-digest', version: '1.0.0' },
    sourceRunIds: ['conformance-seed'],
  },
} as const;

/**
 * Make sure exactly one seeded draft is in state draft for tenant `default`, whichever hosts seed at once and however often: a
 * seeder that finds none synthesises one; one that then finds several (two hosts started together) archives all but
 * the oldest, so every seeder converges on the same single draft.
 */
async function seedDraftProposal(core: HostCore, unit: Units): Promise<void> {
  const { tenant, title, sourceRunIds } = SEEDED_DRAFT.request;
  const seeded = async () => (await unit((tx) => core.listProposals(tx, tenant, { state: 'draft' }))).filter((p) => p.title === title && p.provenance.sourceRunIds.includes(sourceRunIds[0]));
  if ((await seeded()).length === 0) await unit((tx) => core.synthesizeProposal(tx, { ...SEEDED_DRAFT.request, artifact: { ...SEEDED_DRAFT.request.artifact }, sourceRunIds: [...sourceRunIds] }));
  const live = await seeded();
  for (const extra of live.slice(1)) {
    // Another seeder may archive the same extra first: its 409 says the draft is archived already.
    await unit((tx) => core.archiveProposal(tx, { tenant, scopes: 'all' }, extra.id)).catch((e: unknown) => {
      if (!(e instanceof WopkitError && e.status === 409)) throw e;
    });
  }
}

/**
 * The fixture runner drives the host as a client would: each host operation it calls is one request of its own — its
 * own unit of work, committed before the next one reads what it wrote (a fixture run is a sequence of steps, each
 * seeing the last one's events). This is the one host module besides the request boundary that opens units
 * (test/architecture/unit-of-work.test.ts names it).
 */
export function withWorkflowRuns(core: HostCore, rt: OpenwopRuntime): HostRuntime {
  const unit = unitsOf(rt.port);
  /** Memory as `tenant` reads it, each read one unit. */
  const memoryFor = (tenant: string): MemoryReader => ({
    list: (memoryRef, options) => unit((tx) => core.memoryFor(tx, tenant).list(memoryRef, options)),
    get: (memoryRef, id) => unit((tx) => core.memoryFor(tx, tenant).get(memoryRef, id)),
    page: (memoryRef, options) => unit((tx) => core.memoryFor(tx, tenant).page(memoryRef, options)),
  });
  const runner = new FixtureRunner({
    startRun: (r) => unit((tx) => core.startRun(tx, r)),
    memoryFor,
    write: async (memoryRef, entry, as) => (await unit((tx) => core.write(tx, memoryRef, entry, as))).value,
    resolveSecret: (runId, tenant, secret) => unit((tx) => core.resolveSecret(tx, runId, tenant, secret)),
    endRun: (runId) => unit((tx) => core.endRun(tx, runId)),
    // A step that halts at its interrupt keeps the events it recorded up to it.
    supervisorStep: (runId, decision, resolve) => unit((tx) => core.supervisorStep(tx, runId, decision, resolve), { commitOnThrow: true }),
    continueStep: (runId, interruptId, resolution) => unit((tx) => core.continueStep(tx, runId, interruptId, resolution)),
    events: async (runId) => (await unit((tx) => core.events(tx, runId)))?.events ?? [],
    run: (runId) => unit((tx) => core.run(tx, runId)),
    runWorkflow: (definition, memoryRef) => unit((tx) => core.runWorkflow(tx, definition, memoryRef)),
    resumeWorkflow: (runId, nodeId, value) => unit((tx) => core.resumeWorkflow(tx, runId, nodeId, value)),
    workflowState: (runId) => unit((tx) => core.workflowState(tx, runId)),
    now: () => core.now(),
    seeded: async () => (await unit((tx) => tx.read.metaValue(SEEDED))) !== undefined,
    async seed() {
      await unit((tx) => void tx.add('meta.set', { key: SEEDED, value: new Date(rt.clock.now()).toISOString(), when: { absent: true } }));
      await seedDraftProposal(core, unit);
    },
    async recordOutcome(run, outcome) {
      await unit((tx) => rt.runs.update(tx, { runId: run.runId, tenant: run.tenant, kind: 'run' }, { status: outcome.status, doc: { ...run, outcome }, ended: true }));
    },
    async outcomeOf(runId) {
      const row = await unit((tx) => rt.runs.row(tx, runId));
      const recorded = (row?.doc as { outcome?: ProbeOutcome } | undefined)?.outcome;
      // A run that ended without an outcome (one a 0.2 store held: that version kept outcomes in memory) ended as its
      // row says, with nothing to show.
      if (recorded === undefined && row?.endedMs !== undefined && (row.status === 'completed' || row.status === 'failed')) return { status: row.status, variables: {} };
      return recorded;
    },
  });
  return {
    ...core,
    async discovery() {
      const [doc, fixtures] = await Promise.all([core.discovery(), runner.advertised()]);
      return fixtures.length === 0 ? doc : { ...doc, fixtures: [...fixtures] };
    },
    fixtureIds: () => runner.advertised(),
    seedFixtures: () => runner.seed(),
    startWorkflow: (workflowId, tenant) => runner.start(workflowId, tenant),
    workflowRun: (runId) => runner.snapshot(runId),
    resolveInterrupt: (runId, nodeId, value) => runner.resolveInterrupt(runId, nodeId, value),
  };
}
