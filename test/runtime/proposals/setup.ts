/**
 * The wired runtime's proposal service over a fresh in-memory store, a manual clock, the real SR-1 chokepoint (tenant
 * "acme" has a registered secret) and the event log (read back from the store).
 */
import type { HostSampleProposalSynthesizeRequest } from '../../../generated/ts/host-sample-proposal-synthesize-request.ts';
import { GATE_OVERRIDES_LOG, type ProposalActivationPolicy, type ProposalActor, type ProposalFilter, type ProposalService } from '../../../runtime/proposals/service.ts';
import type { ProposalReviseRequest } from '../../../generated/ts/proposal-revise-request.ts';
import type { StoragePort } from '../../../runtime/storage/index.ts';
import type { ProposalKind } from '../../../generated/ts/proposal.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { docsPage } from '../../../runtime/storage/reads/records.ts';
import { allEvents, openRuntime, registerSecrets, request as inRequest } from '../support.ts';

/** A secret tenant "acme" has registered: the chokepoint replaces it with its marker. */
export const SECRET = 'sk-live-CANARY-0123456789';
export const MARKER = '[REDACTED:byok-canary]';
export const TENANT = 'acme';
export const OTHER = 'globex';
export const actor = (tenant: string | undefined = TENANT, scopes: readonly string[] = []): ProposalActor => ({ ...(tenant !== undefined ? { tenant } : {}), scopes });
export const OPERATOR = actor(undefined);

/** The proposal service with each operation run as one request (its own unit of work) on `port`. */
export function requests(port: StoragePort, svc: ProposalService) {
  return {
    capability: () => svc.capability(),
    synthesize: (req: HostSampleProposalSynthesizeRequest) => inRequest(port, (tx) => svc.synthesize(tx, req)),
    list: (tenant: string, filter?: ProposalFilter) => inRequest(port, (tx) => svc.list(tx, tenant, filter)),
    get: (a: ProposalActor, id: string) => inRequest(port, (tx) => svc.get(tx, a, id)),
    revise: (a: ProposalActor, id: string, patch: ProposalReviseRequest) => inRequest(port, (tx) => svc.revise(tx, a, id, patch)),
    reject: (a: ProposalActor, id: string) => inRequest(port, (tx) => svc.reject(tx, a, id)),
    archive: (a: ProposalActor, id: string) => inRequest(port, (tx) => svc.archive(tx, a, id)),
    apply: (a: ProposalActor, id: string) => inRequest(port, (tx) => svc.apply(tx, a, id)),
    decide: (...args: Parameters<ProposalService['decide']> extends [unknown, ...infer A] ? A : never) => inRequest(port, (tx) => svc.decide(tx, ...args)),
    installed: (a: ProposalActor, id: string) => inRequest(port, (tx) => svc.installed(tx, a, id)),
  };
}

/** `runs`: runs to start first (run id → tenant). */
export async function setup(activation: ProposalActivationPolicy = { mode: 'approval-gate' }, runs: Readonly<Record<string, string>> = {}) {
  const t = await openRuntime({ clock: new ManualClock(Date.UTC(2026, 5, 1)), proposalActivation: activation });
  await registerSecrets(t.rt, TENANT, 'run-resolver', { 'byok-canary': SECRET });
  for (const [runId, tenant] of Object.entries(runs)) await inRequest(t.port, (plan) => t.rt.startRun(plan, { runId, workflowId: 'wf', memoryRef: `mem://${tenant}/x` }));
  return {
    ...t,
    /** The proposal service as requests use it: each call one request, its own unit of work. */
    service: requests(t.port, t.rt.proposals),
    /** The installed-artefact registry, each read one request (its own unit of work). */
    installed: {
      list: (tenant: string, kind?: ProposalKind) => inRequest(t.port, (tx) => t.rt.installedArtifacts.list(tx, tenant, kind)),
      get: (tenant: string, proposalId: string) => inRequest(t.port, (tx) => t.rt.installedArtifacts.get(tx, tenant, proposalId)),
    },
    /** The proposal events the log holds (validated when they were appended), oldest first. */
    events: async () => (await allEvents(t.port)).filter((e) => e.type.startsWith('proposal.')).sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.sequence - b.sequence)).map((e) => ({ type: e.type, payload: e.payload })),
    /** The audited gate overrides, oldest first. */
    overrides: async () => (await docsPage(t.port.reads, { log: GATE_OVERRIDES_LOG, fromPos: 0, limit: 1000 })).map((d) => d.doc),
  };
}
export type Env = Awaited<ReturnType<typeof setup>>;

export const agentPack = (id = 'acme.triage', extra: Record<string, unknown> = {}) => ({ name: 'triage-pack', version: '1.0.0', agents: [{ id, persona: 'Triage', memoryShape: { longTerm: true } }], ...extra });

export const request = (over: Partial<HostSampleProposalSynthesizeRequest> = {}): HostSampleProposalSynthesizeRequest => ({
  tenant: TENANT,
  principal: 'user:alice',
  kind: 'agent-pack',
  artifact: agentPack(),
  title: 'Triage agent',
  rationale: 'The same triage steps appeared in 14 runs.',
  sourceRunIds: ['run-1', 'run-2'],
  ...over,
});
