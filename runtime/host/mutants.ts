/**
 * Deliberately broken hosts, for proving the conformance suite can fail (tests only: `createHost({mutations})`).
 * Each switch wraps a HostRuntime and replaces the operations it breaks; the routes never know. The normal
 * implementation is reference-runtime.ts; nothing outside this module and the tests names a switch.
 */
import { createHash } from 'node:crypto';
import type { CommitmentFiredPayload, MemoryEntry } from '../../generated/ts/index.ts';
import { neutraliseByokForms } from '../compaction/byok-forms.ts';
import { Compactor } from '../compaction/compactor.ts';
import { MemoryWriter, type WriteContext } from '../memory/writer.ts';
import { orchestratorStep, SPEC_STEP_PAYLOADS } from '../multi-agent/escalation.ts';
import { CommitmentEngine, InMemoryFiredLedger } from '../commitments/engine.ts';
import { ConsolidationService } from '../consolidation/service.ts';
import { TenantMemoryAdapter } from '../memory/adapter.ts';
import { parseMemoryRef } from '../memory/memory-ref.ts';
import { BACKGROUND_RUN_ID, type OpenwopRuntime } from '../openwop/index.ts';
import { packEntries } from '../openwop/agent-inventory.ts';
import type { HostCore } from './host-runtime.ts';
import { durablePointer } from './reference-runtime.ts';

type Mutant = (base: HostCore, rt: OpenwopRuntime) => HostCore;
const tenantOfRef = (ref: string): string | undefined => parseMemoryRef(ref)?.tenant;

/** Switch name → the broken host it builds. Applied in this order, so a switch that replaces an operation comes before one that delegates to it. */
const MUTANTS = {
  /** Consolidation seam writes its secret canary around the SR-1 chokepoint, and consolidates without redaction. */
  leakSecret: (base, rt) => {
    const unredacted = new ConsolidationService({ clock: rt.clock, store: rt.store, tenantOf: tenantOfRef, redact: (c) => c, emit: (type, payload) => { rt.log.append(BACKGROUND_RUN_ID, { type, payload: { ...payload } }); } });
    return {
      ...base,
      plantSecret(memoryRef, { runId, tenant, secretId, value, content }) {
        rt.registries.forRun(runId, tenant).register(secretId, value, 'run');
        rt.store.upsertSync(memoryRef, { id: `leak-${runId}`, content, tags: [], createdAt: new Date().toISOString() });
      },
      async consolidate(memoryRef, tenant) {
        const result = await unredacted.consolidate(memoryRef, { trigger: 'on-demand', tenantId: tenant });
        return { event: result.payload, ...durablePointer(rt) };
      },
    };
  },
  /** Commitment seam re-fires on every evaluation: each one runs on a fresh fired-ledger. */
  refireCommitment: (base, rt) => {
    const armed: [string, MemoryEntry][] = [];
    return {
      ...base,
      armCommitments(memoryRef, entry) {
        armed.push([memoryRef, entry]);
        return base.armCommitments(memoryRef, entry);
      },
      async evaluateCommitments() {
        const fresh = new CommitmentEngine({ clock: rt.clock, tenantOf: tenantOfRef, predicates: rt.predicates, emit: (_t, p) => { rt.log.append(BACKGROUND_RUN_ID, { type: 'commitment.fired', payload: { ...p } }); }, ledger: new InMemoryFiredLedger() });
        for (const [memoryRef, entry] of armed) fresh.inferFrom(memoryRef, entry);
        return (await fresh.tick()).map((o) => o.payload);
      },
    };
  },
  /** Commitment seam puts the intention text (the source entry's content) on the fired event. */
  leakIntention: (base) => {
    const intention = new Map<string, string>();
    return {
      ...base,
      armCommitments(memoryRef, entry) {
        const ids = base.armCommitments(memoryRef, entry);
        for (const id of ids) intention.set(id, entry.content);
        return ids;
      },
      evaluateCommitments: async () => (await base.evaluateCommitments()).map((p): CommitmentFiredPayload => Object.assign({}, p, { note: intention.get(p.commitmentId) })),
    };
  },
  /** A below-floor decision is dispatched without the escalation event or the interrupt. */
  skipEscalationEvent: (base, rt) => ({
    ...base,
    async supervisorStep(runId, decision) {
      rt.log.append(runId, { type: 'runOrchestrator.decided', payload: { decision } });
      const { worker } = decision;
      rt.log.append(runId, { type: 'worker.dispatched', payload: { decisionKind: decision.kind, ...(worker !== undefined ? { worker } : {}) } });
    },
  }),
  /** Read seams ignore expiresAt (TTL broken). */
  ignoreTtl: (base, rt) => ({ ...base, memoryFor: (tenant) => new TenantMemoryAdapter(tenant, rt.store, { now: () => 0 }) }),
  /** Read seams serve the tenant named in the memoryRef instead of the caller's tenant (CTI-1 broken). */
  crossTenantRead: (base) => ({
    ...base,
    memoryFor: (tenant) => ({
      list: (memoryRef, options) => base.memoryFor(tenantOfRef(memoryRef) ?? tenant).list(memoryRef, options),
      get: (memoryRef, id) => base.memoryFor(tenantOfRef(memoryRef) ?? tenant).get(memoryRef, id),
    }),
  }),
  /** Writes go around the SR-1 chokepoint: a resolved secret is persisted in plaintext. */
  writeAroundRedaction: (base, rt) => {
    const unredacted = new MemoryWriter({ store: rt.store, clock: rt.clock, ids: rt.ids, redact: (c) => c });
    return { ...base, write: (memoryRef, entry, as) => rt.asRun(as.runId, () => unredacted.put(memoryRef, entry, as)) };
  },
  /** Compaction keeps non-canonical `<REDACTED:…>` markers in the derived content. */
  keepNonCanonicalMarkers: (base, rt) => {
    class LaxCompactor extends Compactor {
      override carryForward(memoryRef: string, content: string, ctx: WriteContext = {}): string {
        return rt.writer.redactFor(memoryRef, ctx)(neutraliseByokForms(content));
      }
    }
    const lax = new LaxCompactor({ store: rt.store, writer: rt.writer, clock: rt.clock, ids: rt.ids, emit: rt.log.emit, trigger: 'both', maxOutputBytes: rt.writer.maxEntrySizeBytes });
    return { ...base, compact: (memoryRef, tenant, sourceIds) => lax.compact(memoryRef, { trigger: 'client-requested', context: { tenant }, ...(sourceIds !== undefined ? { sourceIds: [...sourceIds] } : {}) }) };
  },
  /** The archive embeds the time it was written: the same sources and budget give another checksum each run. */
  unstableArchive: (base, rt) => ({
    ...base,
    distill: (...args) => {
      const r = base.distill(...args);
      return { ...r, archiveChecksum: `sha256:${createHash('sha256').update(`${r.entry.content}@${rt.clock.now()}:${Math.random()}`).digest('hex')}` };
    },
  }),
  /** An un-meetable budget still writes a partial archive before refusing. */
  partialArchiveOnBudget: (base) => ({
    ...base,
    distill: (memoryRef, tenant, tokenBudget, sourceIds) => {
      try {
        return base.distill(memoryRef, tenant, tokenBudget, sourceIds);
      } catch (e) {
        if ((e as { code?: unknown }).code === 'token_budget_exceeded') base.write(memoryRef, { content: 'partial archive', tags: ['distilled-archive'] }, { tenant });
        throw e;
      }
    },
  }),
  /** Escalation events name no cause (no causationId back to the decision). */
  dropCausation: (base, rt) => ({
    ...base,
    async supervisorStep(runId, decision, resolve = async () => ({ outcome: 'approved' })) {
      await orchestratorStep(decision, rt.escalationPolicy, {
        record: (type, payload) => void rt.log.append(runId, { type, payload }),
        interrupt: resolve,
        execute: () => {},
        newInterruptId: () => rt.ids.next('int'),
        payloads: SPEC_STEP_PAYLOADS,
      });
    },
  }),
  /** The interrupt is answered at once: the run never waits, and the decision is dispatched. */
  dispatchWhileWaiting: (base) => ({ ...base, supervisorStep: (runId, decision) => base.supervisorStep(runId, decision) }),
  /** A person's rejection of an escalated decision is ignored: the worker is dispatched anyway. */
  dispatchOnReject: (base) => ({
    ...base,
    continueStep: (runId, interruptId, resolution) => base.continueStep(runId, interruptId, resolution.outcome === 'rejected' ? { outcome: 'approved' } : resolution),
  }),
  /** A person's approval of an escalated decision is taken as a rejection: nothing is ever carried out. */
  rejectOnApprove: (base) => ({
    ...base,
    continueStep: (runId, interruptId, resolution) => base.continueStep(runId, interruptId, resolution.outcome === 'approved' ? { outcome: 'rejected' } : resolution),
  }),
  /** A fork reads live memory instead of its snapshot (MAE-3 broken). */
  forkReadsLive: (base, rt) => ({ ...base, runMemory: (run) => rt.adapterFor(run.tenant) }),
  /** RFC 0096: apply installs at once, whatever the advertised activation (the approval gate is granted by itself). */
  applyWithoutGate: (base) => ({
    ...base,
    async applyProposal(actor, proposalId) {
      const out = await base.applyProposal(actor, proposalId);
      return out.gate?.state === 'pending' ? base.decideProposalGate({ approvalId: out.gate.approvalId, decision: 'granted' }, 'mutant') : out;
    },
  }),
  /** RFC 0096: the artefact is re-synthesised at install time (the registry gets a regenerated copy, not the persisted one). */
  resynthesizeOnApply: (base, rt) => {
    const registry = rt.installedArtifacts;
    const install = registry.install.bind(registry);
    registry.install = (a) => install({ ...a, artifactJson: JSON.stringify({ ...(JSON.parse(a.artifactJson) as object), resynthesizedAt: a.installedAt }) });
    return base;
  },
  /** RFC 0096: agent packs of proposals that are not applied (draft, revised) already resolve in the agent inventory. */
  draftInfluencesRun: (base) => ({
    ...base,
    async agentInventory(tenant) {
      const inv = await base.agentInventory(tenant);
      const pending = tenant === undefined ? [] : (await base.listProposals(tenant, { kind: 'agent-pack' })).filter((p) => p.state === 'draft' || p.state === 'revised');
      const agents = [...inv.agents, ...pending.flatMap((p) => packEntries({ tenant: tenant ?? '', proposalId: p.id, kind: p.kind, ref: p.id, artifactJson: JSON.stringify(p.artifact), installedAt: p.createdAt }))];
      return { agents, total: agents.length };
    },
  }),
  /** RFC 0080 §C: the host lost long-term durability (discovery no longer lists it) but the inventory still looks satisfied. */
  silentMemoryDegradation: (base) => ({
    ...base,
    discovery() {
      const doc = structuredClone(base.discovery()) as { agents?: { memoryBackends?: unknown } };
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
