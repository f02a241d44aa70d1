/** A proposal service over in-memory stores, a manual clock, a fake SR-1 chokepoint and a recording event sink. */
import type { HostSampleProposalSynthesizeRequest } from '../../../generated/ts/host-sample-proposal-synthesize-request.ts';
import { validateProposalActivatedPayload, validateProposalCreatedPayload } from '../../../generated/validators/validators.js';
import { ProposalService, type ProposalActivationPolicy, type ProposalActor } from '../../../runtime/proposals/service.ts';
import { InMemoryInstalledArtifacts, InMemoryProposalStore } from '../../../runtime/proposals/store.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';

/** A secret tenant "acme" has registered: the fake chokepoint replaces it with its marker. */
export const SECRET = 'sk-live-CANARY-0123456789';
export const MARKER = '[REDACTED:byok-canary]';
export const TENANT = 'acme';
export const OTHER = 'globex';
export const actor = (tenant: string | undefined = TENANT, scopes: readonly string[] = []): ProposalActor => ({ ...(tenant !== undefined ? { tenant } : {}), scopes });
export const OPERATOR = actor(undefined);

export function setup(activation: ProposalActivationPolicy = { mode: 'approval-gate' }, runs: Readonly<Record<string, string>> = {}) {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  const installed = new InMemoryInstalledArtifacts();
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  const service = new ProposalService({
    clock,
    ids: new SequentialIds(),
    store: new InMemoryProposalStore(),
    installed,
    redact: (content, tenant) => (tenant === TENANT ? content.split(SECRET).join(MARKER) : content),
    emit: (type, payload) => {
      const ok = type === 'proposal.created' ? validateProposalCreatedPayload(payload) : validateProposalActivatedPayload(payload);
      if (!ok) throw new Error(`invalid ${type} payload`);
      events.push({ type, payload: { ...payload } });
    },
    runTenant: (runId) => runs[runId],
    activation,
  });
  return { clock, installed, events, service };
}

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
