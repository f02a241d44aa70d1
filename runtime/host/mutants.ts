/**
 * Deliberately broken hosts, for proving the conformance suite can fail (tests only: `createHost({mutations})`).
 * Each switch wraps a HostRuntime and replaces the operations it breaks; the routes never know. The normal
 * implementation is reference-runtime.ts; nothing outside this module and the tests names a switch.
 */
import { createHash } from 'node:crypto';
import type { CommitmentFiredPayload, MemoryEntry } from '../../generated/ts/index.ts';
import { neutraliseByokForms } from '../compaction/byok-forms.ts';
import { Compactor } from '../compaction/compactor.ts';
import { MemoryWriter, DEFAULT_MEMORY_BOUNDS, type WriteContext } from '../memory/writer.ts';
import { orchestratorStep, SPEC_STEP_PAYLOADS } from '../multi-agent/escalation.ts';
import { ConsolidationService } from '../consolidation/service.ts';
import { TenantMemoryAdapter } from '../memory/adapter.ts';
import { parseMemoryRef } from '../memory/memory-ref.ts';
import type { OpenwopRuntime } from '../openwop/index.ts';
import { packEntries } from '../openwop/agent-inventory.ts';
import { WorkflowEngine, type Progress, type WorkflowDefinition, type WorkflowNode } from '../openwop/workflow-engine.ts';
import { unitsOf, type Tx } from '../storage/index.ts';
import type { HostCore } from './host-runtime.ts';

type Mutant = (base: HostCore, rt: OpenwopRuntime) => HostCore;
const tenantOfRef = (ref: string): string | undefined => parseMemoryRef(ref)?.tenant;

/** A writer that skips the SR-1 chokepoint (its redaction is the identity), attributing writes as the real one does. */
const unredactedWriter = (rt: OpenwopRuntime): MemoryWriter =>
  new MemoryWriter({
    clock: rt.clock, ids: rt.ids, bounds: DEFAULT_MEMORY_BOUNDS, redactor: async () => (c) => c,
    onWrite: (tx, w) => void rt.log.appendBackground(tx, w.tenant, { type: 'memory.written', payload: { memoryRef: w.memoryRef, memoryId: w.memoryId, operation: w.operation } }),
  });

/** Re-fire every armed commitment on each evaluation, without a claim (the ledger ignored): what `refire…` mutants share. */
const refiring = (rt: OpenwopRuntime, base: HostCore, decorate: (p: CommitmentFiredPayload, entry: MemoryEntry) => CommitmentFiredPayload): Partial<HostCore> => {
  const armed: { memoryRef: string; entry: MemoryEntry; ids: readonly string[] }[] = [];
  return {
    async armCommitments(tx, memoryRef, entry) {
      const ids = await base.armCommitments(tx, memoryRef, entry);
      armed.push({ memoryRef, entry, ids });
      return ids;
    },
    // An evaluation is a tick, its own unit of work as the commitment engine's is.
    evaluateCommitments: () => unitsOf(rt.port)((tx) => armed.flatMap(({ memoryRef, entry, ids }) => ids.map((commitmentId) => {
      const payload = decorate({ commitmentId, memoryRef, memoryId: entry.id, condition: entry.tags.some((t) => t.startsWith('at:')) ? 'time' : 'predicate' }, entry);
      rt.log.appendBackground(tx, tenantOfRef(memoryRef) ?? '', { type: 'commitment.fired', payload: { ...payload } });
      return payload;
    }))),
  };
};

/**
 * A host whose workflow runs (run, fork and interrupt code) are executed by `engine` — a WorkflowEngine with one step
 * broken — instead of the runtime's own.
 */
const withEngine = (base: HostCore, rt: OpenwopRuntime, engine: WorkflowEngine): HostCore => ({
  ...base,
  runWorkflow: (tx, definition, memoryRef) => engine.start(tx, definition, memoryRef),
  resumeWorkflow: (tx, runId, nodeId, value) => engine.resume(tx, runId, nodeId, value),
  fork: (tx, sourceRunId, fromSeq, mode) => engine.fork(tx, sourceRunId, fromSeq, mode),
});

/** Switch name → the broken host it builds. Applied in this order, so a switch that replaces an operation comes before one that delegates to it. */
const MUTANTS = {
  /** Consolidation seam writes its secret canary around the SR-1 chokepoint, and consolidates without redaction. */
  leakSecret: (base, rt) => {
    const writer = unredactedWriter(rt);
    const unredacted = new ConsolidationService({
      clock: rt.clock, store: { readerFor: (tx, t) => rt.readerFor(tx, t) }, writer, tenantOf: tenantOfRef,
      emit: (tx, payload, { tenantId }) => ({ eventId: rt.log.appendBackground(tx, tenantId, { type: 'agent.memory.consolidated', payload: { ...payload } }).eventId, runId: `bg-${tenantId}` }),
    });
    return {
      ...base,
      async plantSecret(tx, memoryRef, { runId, tenant, secretId, value, content }) {
        await base.resolveSecret(tx, runId, tenant, { secretId, value, scope: 'run' });
        await writer.put(tx, memoryRef, { id: `leak-${runId}`, content }, { tenant });
      },
      consolidate: async (tx, memoryRef, tenant) => {
        const result = await unredacted.consolidate(tx, memoryRef, { trigger: 'on-demand', tenantId: tenant });
        return { event: result.payload, eventId: result.eventId, runId: result.runId };
      },
    };
  },
  /** Commitment seam re-fires on every evaluation: the fired ledger is never consulted. */
  refireCommitment: (base, rt) => ({ ...base, ...refiring(rt, base, (p) => p) }),
  /** Commitment seam puts the intention text (the source entry's content) on the fired event. */
  leakIntention: (base, rt) => ({ ...base, ...refiring(rt, base, (p, entry) => Object.assign({}, p, { note: entry.content })) }),
  /** A below-floor decision is dispatched without the escalation event or the interrupt. */
  skipEscalationEvent: (base, rt) => ({
    ...base,
    supervisorStep: async (tx, runId, decision) => {
      rt.log.append(tx, runId, { type: 'runOrchestrator.decided', payload: { decision } });
      const { worker } = decision;
      rt.log.append(tx, runId, { type: 'worker.dispatched', payload: { decisionKind: decision.kind, ...(worker !== undefined ? { worker } : {}) } });
    },
  }),
  /** Read seams ignore expiresAt (TTL broken). */
  ignoreTtl: (base, rt) => ({ ...base, memoryFor: (tx, tenant) => new TenantMemoryAdapter(rt.readerFor(tx, tenant), { now: () => 0 }, { cursors: rt.cursors }) }),
  /** Read seams serve the tenant named in the memoryRef instead of the caller's tenant (CTI-1 broken). */
  crossTenantRead: (base) => ({
    ...base,
    memoryFor: (tx, tenant) => ({
      list: (memoryRef, options) => base.memoryFor(tx, tenantOfRef(memoryRef) ?? tenant).list(memoryRef, options),
      get: (memoryRef, id) => base.memoryFor(tx, tenantOfRef(memoryRef) ?? tenant).get(memoryRef, id),
      page: (memoryRef, options) => base.memoryFor(tx, tenantOfRef(memoryRef) ?? tenant).page(memoryRef, options),
    }),
  }),
  /** Writes go around the SR-1 chokepoint: a resolved secret is persisted in plaintext. */
  writeAroundRedaction: (base, rt) => {
    const unredacted = unredactedWriter(rt);
    return {
      ...base,
      write: async (tx, memoryRef, entry, as) => (await unredacted.put(tx, memoryRef, entry, as)).stored,
      seedMemory: async (tx, seed) => {
        if (seed.runId !== undefined || seed.secrets !== undefined) {
          for (const s of seed.secrets ?? []) await base.resolveSecret(tx, seed.runId ?? 'seed-mutant', seed.tenant, { ...s, scope: 'run' });
        }
        const stored = await Promise.all(seed.entries.map(async (e) => (await unredacted.put(tx, seed.memoryRef, e, { tenant: seed.tenant })).stored));
        return { ...(seed.runId !== undefined ? { runId: seed.runId } : {}), entries: stored };
      },
    };
  },
  /** Compaction keeps non-canonical `<REDACTED:…>` markers in the derived content. */
  keepNonCanonicalMarkers: (base, rt) => {
    class LaxCompactor extends Compactor {
      override async carryForward(tx: Tx, memoryRef: string, ctx: WriteContext = {}): Promise<(content: string) => string> {
        const redact = await rt.writer.redactFor(tx, memoryRef, ctx);
        return (content) => redact(neutraliseByokForms(content));
      }
    }
    const lax = new LaxCompactor({ store: { readerFor: (tx, t) => rt.readerFor(tx, t) }, writer: rt.writer, clock: rt.clock, ids: rt.ids, log: rt.log, trigger: 'both', maxOutputBytes: rt.writer.maxEntrySizeBytes });
    return { ...base, compact: (tx, memoryRef, tenant, sourceIds) => lax.compact(tx, memoryRef, { trigger: 'client-requested', context: { tenant }, ...(sourceIds !== undefined ? { sourceIds: [...sourceIds] } : {}) }) };
  },
  /** The archive embeds the time it was written: the same sources and budget give another checksum each run. */
  unstableArchive: (base, rt) => ({
    ...base,
    distill: async (...args) => {
      const r = await base.distill(...args);
      return { ...r, archiveChecksum: `sha256:${createHash('sha256').update(`${r.entry.content}@${rt.clock.now()}:${Math.random()}`).digest('hex')}` };
    },
  }),
  /** An un-meetable budget still writes a partial archive before refusing. */
  partialArchiveOnBudget: (base, rt) => ({
    ...base,
    distill: async (tx, memoryRef, tenant, tokenBudget, sourceIds) => {
      try {
        return await base.distill(tx, memoryRef, tenant, tokenBudget, sourceIds);
      } catch (e) {
        // The partial archive is planned into the request's unit, which the refusal then rolls back — so it is kept
        // the way a broken host would: in a unit of its own.
        if ((e as { code?: unknown }).code === 'token_budget_exceeded') await unitsOf(rt.port)((own) => base.write(own, memoryRef, { content: 'partial archive', tags: ['distilled-archive'] }, { tenant }));
        throw e;
      }
    },
  }),
  /** Escalation events name no cause (no causationId back to the decision). */
  dropCausation: (base, rt) => ({
    ...base,
    async supervisorStep(tx, runId, decision, resolve = async () => ({ outcome: 'approved' })) {
      await orchestratorStep(decision, rt.escalationPolicy, {
        record: (type, payload) => void rt.log.append(tx, runId, { type, payload }),
        interrupt: resolve,
        execute: () => {},
        newInterruptId: () => rt.ids.next('int'),
        payloads: SPEC_STEP_PAYLOADS,
      });
    },
  }),
  /** The interrupt is answered at once: the run never waits, and the decision is dispatched. */
  dispatchWhileWaiting: (base) => ({ ...base, supervisorStep: (tx, runId, decision) => base.supervisorStep(tx, runId, decision) }),
  /** A person's rejection of an escalated decision is ignored: the worker is dispatched anyway. */
  dispatchOnReject: (base) => ({
    ...base,
    continueStep: (tx, runId, interruptId, resolution) => base.continueStep(tx, runId, interruptId, resolution.outcome === 'rejected' ? { outcome: 'approved' } : resolution),
  }),
  /** A person's approval of an escalated decision is taken as a rejection: nothing is ever carried out. */
  rejectOnApprove: (base) => ({
    ...base,
    continueStep: (tx, runId, interruptId, resolution) => base.continueStep(tx, runId, interruptId, resolution.outcome === 'approved' ? { outcome: 'rejected' } : resolution),
  }),
  /** A fork reads live memory instead of its snapshot (MAE-3 broken). */
  forkReadsLive: (base, rt) => ({
    ...base,
    async runMemory(tx, runId) {
      const run = await rt.runs.get(tx, runId);
      return run === undefined ? undefined : { run, memory: rt.adapterFor(tx, run.tenant) };
    },
  }),
  /** Run code: a workflow run never ends — after its last node it neither completes nor writes its summary. */
  runNeverEnds: (base, rt) => withEngine(base, rt, new (class extends WorkflowEngine {
    protected override async complete(): Promise<void> {}
  })(rt.workflows.parts)),
  /** Fork code: a fork of a workflow run is created but never executed (it stays `created`). */
  forkNotExecuted: (base, rt) => withEngine(base, rt, new (class extends WorkflowEngine {
    protected override async executeFork(): Promise<void> {}
  })(rt.workflows.parts)),
  /** Fork code: a replay does its source's steps anew — its memory writes get new ids — instead of re-emitting what was recorded. */
  replayRedoesWrites: (base, rt) => withEngine(base, rt, new (class extends WorkflowEngine {
    protected override recorded(): undefined {
      return undefined;
    }
  })(rt.workflows.parts)),
  /** Interrupt code: an answer goes to whichever node the run waits on, whatever node it names. */
  answerAnyNode: (base, rt) => withEngine(base, rt, new (class extends WorkflowEngine {
    protected override interruptedNode(def: WorkflowDefinition, progress: Progress): WorkflowNode | undefined {
      return def.nodes.find((n) => progress.nodes.get(n.nodeId)?.interruptId !== undefined && progress.nodes.get(n.nodeId)?.action === undefined);
    }
  })(rt.workflows.parts)),
  /** Run code: an agent's decision below the confidence floor goes on as if it were sure (no suspension). */
  lowConfidenceProceeds: (base, rt) => withEngine(base, rt, new WorkflowEngine({ ...rt.workflows.parts, floor: () => 0 })),
  /** Interrupt code: an approval gate takes any action as accept (its resume schema is not checked). */
  anyActionAccepts: (base, rt) => withEngine(base, rt, new (class extends WorkflowEngine {
    protected override admits(): 'accept' {
      return 'accept';
    }
  })(rt.workflows.parts)),
  /** RFC 0096: apply installs at once, whatever the advertised activation (the approval gate is granted by itself). */
  applyWithoutGate: (base, rt) => ({
    ...base,
    // The gate must be committed before it can be granted: this broken host applies and grants in two units of its
    // own, outside the request's.
    async applyProposal(_tx, actor, proposalId) {
      const own = unitsOf(rt.port);
      const out = await own((tx) => base.applyProposal(tx, actor, proposalId));
      const gate = out.gate;
      return gate?.state === 'pending' ? own((tx) => base.decideProposalGate(tx, { approvalId: gate.approvalId, decision: 'granted' }, 'mutant')) : out;
    },
  }),
  /** RFC 0096: the artefact is re-synthesised at install time (what the registry holds is a regenerated copy, not the persisted one). */
  resynthesizeOnApply: (base) => ({
    ...base,
    async installedArtifact(tx, actor, proposalId) {
      const a = await base.installedArtifact(tx, actor, proposalId);
      return { ...a, artifact: { ...a.artifact, resynthesizedAt: a.installedAt } };
    },
  }),
  /** RFC 0096: agent packs of proposals that are not applied (draft, revised) already resolve in the agent inventory. */
  draftInfluencesRun: (base) => ({
    ...base,
    async agentInventory(tx, tenant) {
      const inv = await base.agentInventory(tx, tenant);
      const pending = tenant === undefined ? [] : (await base.listProposals(tx, tenant, { kind: 'agent-pack' })).filter((p) => p.state === 'draft' || p.state === 'revised');
      const agents = [...inv.agents, ...pending.flatMap((p) => packEntries({ tenant: tenant ?? '', proposalId: p.id, kind: p.kind, ref: p.id, artifactJson: JSON.stringify(p.artifact), installedAt: p.createdAt }))];
      return { agents, total: agents.length };
    },
  }),
  /** RFC 0080 §C: the host lost long-term durability (discovery no longer lists it) but the inventory still looks satisfied. */
  silentMemoryDegradation: (base) => ({
    ...base,
    async discovery() {
      const doc = structuredClone(await base.discovery()) as { agents?: { memoryBackends?: unknown } };
      delete doc.agents?.memoryBackends;
      return doc;
    },
  }),
} satisfies Record<string, Mutant>;

export type MutationName = keyof typeof MUTANTS;
/** Which switches to turn on (all off by default). */
export type HostMutations = { readonly [K in keyof typeof MUTANTS]?: boolean };
export const MUTATION_NAMES = Object.keys(MUTANTS) as MutationName[];

/** `base` with every switched-on mutant wrapped around it (`base` itself when none is on). */
export function withMutations(base: HostCore, rt: OpenwopRuntime, mutations: HostMutations = {}): HostCore {
  return MUTATION_NAMES.filter((m) => mutations[m] === true).reduce((host, m) => MUTANTS[m](host, rt), base);
}
