/**
 * RFC 0096 reviewable learning: the host's proposal service. A proposal is persisted inert; it is read, revised,
 * rejected and archived by its tenant; it reaches the installed-artefact registry (the only thing runs resolve
 * from) through `apply` alone, and only through the advertised authorisation path:
 *
 * - `approval-gate`: apply opens an RFC 0051 gate bound to the current revision; the artefact is installed when an
 *   approver grants it (or overrides it, which needs a reason and is audited). Revising, rejecting or archiving the
 *   proposal supersedes a pending gate.
 * - `direct-rbac`: the caller must hold the advertised activation scope (403 otherwise, and nothing changes).
 *
 * Install copies the artefact's persisted JSON text byte for byte (no re-synthesis). Every string the service
 * persists passes the tenant's SR-1 redaction chokepoint first; the two events it emits carry identifiers only.
 * Every proposal is bound to `owner.tenant`: a caller of another tenant finds nothing (CTI-1).
 */
import type { ProposalActivatedPayload, ProposalCreatedPayload } from '../../generated/ts/run-event-payloads.ts';
import type { Proposal, ProposalActivation, ProposalKind, ProposalState } from '../../generated/ts/proposal.ts';
import type { ProposalsCapability } from '../../generated/ts/capabilities.ts';
import type { ApprovalGate } from '../../generated/ts/proposal-apply-response.ts';
import type { HostSampleProposalSynthesizeRequest } from '../../generated/ts/host-sample-proposal-synthesize-request.ts';
import type { ProposalReviseRequest } from '../../generated/ts/proposal-revise-request.ts';
import { validateProposal } from '../../generated/validators/validators.js';
import { toFailures } from '../../generated/guards/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { canTransition, IllegalTransitionError, transition } from '../shared/state-machine.ts';
import { ActivationForbiddenError, ProposalInvalidError, ProposalNotFoundError, StaleGateError } from './errors.ts';
import { APPROVAL_GATE_LIFECYCLE, PROPOSAL_LIFECYCLE, type GateState } from './lifecycle.ts';
import { ProposalRecords, type InstalledArtifacts, type StoredGate, type StoredProposal } from './store.ts';
import type { Tx } from '../storage/index.ts';

export const PROPOSAL_KINDS: readonly ProposalKind[] = ['agent-pack', 'workflow-chain-pack', 'prompt-template', 'automation'];
/** The RFC 0049 scope a direct-rbac host asks for, unless configured otherwise. */
export const DEFAULT_ACTIVATION_SCOPE = 'proposals:apply';

/** Who calls: a tenant (absent for an operator acting across tenants), the principal, and the scopes it holds ('all' for an operator key). */
export interface ProposalActor {
  readonly tenant?: string;
  readonly principal?: string;
  readonly scopes: readonly string[] | 'all';
}

export interface ProposalActivationPolicy {
  readonly mode: ProposalActivation;
  /** The scope a direct-rbac caller must hold (default DEFAULT_ACTIVATION_SCOPE). */
  readonly scope?: string;
}

export interface ProposalServiceOptions {
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly installed: InstalledArtifacts;
  /** Proposals one tenant may hold (default DEFAULT_PROPOSALS_PER_TENANT). */
  readonly maxPerTenant?: number;
  /** The SR-1 chokepoint of `tenant` within a request: every persisted string goes through it. */
  readonly redactor: (tx: Tx, tenant: string) => Promise<(content: string) => string>;
  /** Plan a content-free event (validated by the event log) into the tenant's log; where it was logged. */
  readonly emit: (tx: Tx, tenant: string, type: 'proposal.created' | 'proposal.activated', payload: ProposalCreatedPayload | ProposalActivatedPayload) => { readonly eventId: string; readonly runId: string };
  /** The tenant a run belongs to, when the host knows the run. */
  readonly runTenant: (tx: Tx, runId: string) => Promise<string | undefined>;
  readonly activation: ProposalActivationPolicy;
}

/** What apply (or a gate decision) leaves behind. */
export interface ApplyOutcome {
  readonly proposal: Proposal;
  readonly gate?: ApprovalGate;
}

/** An audited gate override (RFC 0009/0010): who overrode which gate, when, and why (redacted). */
export interface GateOverrideAudit {
  readonly approvalId: string;
  readonly proposalId: string;
  readonly tenant: string;
  readonly decidedBy: string;
  readonly reason: string;
  readonly at: string;
}

/** The document log audited gate overrides are kept in (one document per override, filed under its tenant). */
export const GATE_OVERRIDES_LOG = 'gate-overrides';

export type ProposalFilter = { readonly state?: ProposalState; readonly kind?: ProposalKind };

/** Every string value of `v`, deep, through `redact` (keys and structure unchanged). */
function redactStrings(v: unknown, redact: (s: string) => string): unknown {
  if (typeof v === 'string') return redact(v);
  if (Array.isArray(v)) return v.map((x) => redactStrings(x, redact));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactStrings(x, redact)]));
  return v;
}

/** The wire form of a stored proposal (its artefact parsed from the persisted text). */
export const proposalView = ({ artifactJson, revision: _r, ...rest }: StoredProposal): Proposal => ({ ...rest, artifact: JSON.parse(artifactJson) as Proposal['artifact'] });
const gateView = ({ revision: _r, ...g }: StoredGate): ApprovalGate => ({ ...g });

export class ProposalService {
  readonly #o: ProposalServiceOptions;

  constructor(o: ProposalServiceOptions) {
    this.#o = o;
  }

  /**
   * The records of the request `tx` belongs to: reads from the store, writes planned into its tx. Every write names
   * the revision (or gate state) it was decided from, so a request that raced another is refused as stale at its
   * commit and re-run from its reads by the request's unit of work: no lock is needed.
   */
  #records(tx: Tx): ProposalRecords {
    return new ProposalRecords(tx, this.#o.maxPerTenant);
  }

  get activation(): Required<ProposalActivationPolicy> {
    return { mode: this.#o.activation.mode, scope: this.#o.activation.scope ?? DEFAULT_ACTIVATION_SCOPE };
  }

  /** The `agents.proposals` block: what this service does, and how apply is authorised. */
  capability(): { agents: { proposals: ProposalsCapability } } {
    const { mode, scope } = this.activation;
    return { agents: { proposals: { supported: true, artifactKinds: [...PROPOSAL_KINDS], duplicationDetection: true, activation: mode, ...(mode === 'direct-rbac' ? { activationScope: scope } : {}) } } };
  }

  /**
   * Persist a synthesised proposal as an inert draft (the host's synthesiser, or the test seam standing in for it).
   * Duplication detection: an artefact of the same kind and name already installed for the tenant is named in
   * duplicateOf.
   */
  async synthesize(tx: Tx, req: HostSampleProposalSynthesizeRequest): Promise<{ proposal: Proposal; eventId?: string; runId?: string }> {
    const records = this.#records(tx);
    const { tenant } = req;
    const owners = await Promise.all(req.sourceRunIds.map((id) => this.#o.runTenant(tx, id)));
    const foreign = req.sourceRunIds.flatMap((_id, i) => {
      const owner = owners[i];
      return owner !== undefined && owner !== tenant ? [{ instancePath: `/sourceRunIds/${i}`, message: 'names a run of another tenant' }] : [];
    });
    if (foreign.length > 0) throw new ProposalInvalidError(foreign);
    const clean = await this.#o.redactor(tx, tenant);
    const artifact = redactStrings(req.artifact, clean) as Proposal['artifact'];
    const duplicateOf = req.duplicateOf ?? (await this.#duplicateOf(tx, tenant, req.kind, artifact));
    const now = new Date(this.#o.clock.now()).toISOString();
    const proposal: Proposal = {
      id: this.#o.ids.next('prop'),
      kind: req.kind,
      ...(req.title !== undefined ? { title: clean(req.title) } : {}),
      artifact,
      provenance: { sourceRunIds: req.sourceRunIds.map(clean) },
      ...(duplicateOf !== undefined ? { duplicateOf: clean(duplicateOf) } : {}),
      owner: { tenant, ...(req.principal !== undefined ? { principal: clean(req.principal) } : {}) },
      ...(req.rationale !== undefined ? { rationale: clean(req.rationale) } : {}),
      state: PROPOSAL_LIFECYCLE.initial,
      createdAt: now,
      updatedAt: now,
    };
    const stored = this.#checked(proposal, 0);
    records.put(stored);
    const where = this.#o.emit(tx, tenant, 'proposal.created', { proposalId: proposal.id, kind: proposal.kind, sourceRunIds: [...proposal.provenance.sourceRunIds], ...(proposal.duplicateOf != null ? { duplicateOf: proposal.duplicateOf } : {}) });
    return { proposal: proposalView(stored), ...where };
  }

  /** The caller's tenant's proposals (a tenant must be named), oldest first, filtered by state and kind. */
  async list(tx: Tx, tenant: string, filter: ProposalFilter = {}): Promise<readonly Proposal[]> {
    const all = await this.#records(tx).list(tenant);
    return all.filter((p) => (filter.state === undefined || p.state === filter.state) && (filter.kind === undefined || p.kind === filter.kind)).map(proposalView);
  }

  async get(tx: Tx, actor: ProposalActor, id: string): Promise<Proposal> {
    return proposalView(await this.#own(this.#records(tx), actor, id));
  }

  /** The tenant a proposal belongs to (undefined when there is none): for binding a request to its key's tenant. */
  async tenantOf(tx: Tx, id: string): Promise<string | undefined> {
    return (await this.#records(tx).get(id))?.owner.tenant;
  }

  /** Replace artefact, title or rationale; the proposal becomes revised. Never installs anything. */
  async revise(tx: Tx, actor: ProposalActor, id: string, patch: ProposalReviseRequest): Promise<Proposal> {
    const records = this.#records(tx);
    const p = await this.#own(records, actor, id);
    const state = transition(PROPOSAL_LIFECYCLE, p.state, 'revised');
    const clean = await this.#o.redactor(tx, p.owner.tenant);
    const current = proposalView(p);
    const next: Proposal = {
      ...current,
      ...(patch.artifact !== undefined ? { artifact: redactStrings(patch.artifact, clean) as Proposal['artifact'] } : {}),
      ...(patch.title !== undefined ? { title: clean(patch.title) } : {}),
      ...(patch.rationale !== undefined ? { rationale: clean(patch.rationale) } : {}),
      state,
      updatedAt: this.#now(),
    };
    const stored = this.#checked(next, p.revision + 1);
    records.put(stored, p.revision);
    await this.#supersedeGate(records, p);
    return proposalView(stored);
  }

  reject(tx: Tx, actor: ProposalActor, id: string): Promise<Proposal> {
    return this.#move(tx, actor, id, 'rejected');
  }

  /** DELETE: a soft delete, kept for audit. */
  archive(tx: Tx, actor: ProposalActor, id: string): Promise<Proposal> {
    return this.#move(tx, actor, id, 'archived');
  }

  /**
   * Ask to apply. direct-rbac: install now when the caller holds the scope (403 otherwise). approval-gate: open a
   * gate on the current revision (or return the one already pending); nothing is installed until it is granted.
   */
  async apply(tx: Tx, actor: ProposalActor, id: string): Promise<ApplyOutcome> {
    const records = this.#records(tx);
    const p = await this.#own(records, actor, id);
    if (!canTransition(PROPOSAL_LIFECYCLE, p.state, 'applied')) throw new IllegalTransitionError(PROPOSAL_LIFECYCLE.id, p.state, 'applied');
    const { mode, scope } = this.activation;
    if (mode === 'direct-rbac') {
      if (actor.scopes !== 'all' && !actor.scopes.includes(scope)) throw new ActivationForbiddenError(scope);
      return { proposal: this.#install(records, tx, p, { mode }) };
    }
    const pending = await records.pendingGate(id);
    if (pending !== undefined) return { proposal: proposalView(p), gate: gateView(pending) };
    const gate: StoredGate = { approvalId: this.#o.ids.next('gate'), proposalId: id, state: APPROVAL_GATE_LIFECYCLE.initial, requestedAt: this.#now(), revision: p.revision };
    records.putGate(gate, p.owner.tenant);
    return { proposal: proposalView(p), gate: gateView(gate) };
  }

  /**
   * An approver decides a pending gate (RFC 0051). granted or overridden installs the revision the gate was opened
   * on; an override needs a reason and is audited; denied installs nothing.
   */
  async decide(tx: Tx, approvalId: string, decision: 'granted' | 'denied' | 'overridden', by: { readonly decidedBy: string; readonly reason?: string }): Promise<ApplyOutcome> {
    const records = this.#records(tx);
    const gate = await records.gate(approvalId);
    if (gate === undefined) throw new ProposalNotFoundError('gate');
    const p = (await records.get(gate.proposalId))!;
    const state: GateState = transition(APPROVAL_GATE_LIFECYCLE, gate.state, decision);
    if (decision !== 'denied' && gate.revision !== p.revision) throw new StaleGateError();
    const reason = by.reason === undefined ? undefined : (await this.#o.redactor(tx, p.owner.tenant))(by.reason);
    const decided: StoredGate = { ...gate, state, decidedAt: this.#now(), ...(reason !== undefined ? { reason } : {}) };
    if (decision === 'overridden') {
      // The audit record of an override (RFC 0009/0010): who, which gate, when and why (redacted).
      const audit: GateOverrideAudit = { approvalId, proposalId: p.id, tenant: p.owner.tenant, decidedBy: by.decidedBy, reason: reason ?? '', at: decided.decidedAt! };
      tx.add('doc.append', { log: GATE_OVERRIDES_LOG, tenant: p.owner.tenant, atMs: this.#o.clock.now(), doc: { ...audit } });
    }
    const proposal = decision === 'denied' ? proposalView(p) : this.#install(records, tx, p, { mode: 'approval-gate', approvalId, gateOutcome: decision });
    records.putGate(decided, p.owner.tenant, gate.state);
    return { proposal, gate: gateView(decided) };
  }

  /** What an applied proposal installed, read back from the registry (404 before apply). */
  async installed(tx: Tx, actor: ProposalActor, id: string) {
    const a = await this.#o.installed.get(tx, (await this.#own(this.#records(tx), actor, id)).owner.tenant, id);
    if (a === undefined) throw new ProposalNotFoundError('installed artefact');
    return { proposalId: id, kind: a.kind, installedArtifactRef: a.ref, installedAt: a.installedAt, artifact: JSON.parse(a.artifactJson) as Record<string, unknown> };
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────────────────────

  #now(): string {
    return new Date(this.#o.clock.now()).toISOString();
  }

  /** The proposal, when it exists and the actor may see it (an actor of another tenant finds nothing). */
  async #own(records: ProposalRecords, actor: ProposalActor, id: string): Promise<StoredProposal> {
    const p = await records.get(id);
    if (p === undefined || (actor.tenant !== undefined && actor.tenant !== p.owner.tenant)) throw new ProposalNotFoundError();
    return p;
  }

  /** The stored form of `proposal`, after checking it against the Proposal schema (artefact shape by kind included). */
  #checked(proposal: Proposal, revision: number): StoredProposal {
    if (!validateProposal(proposal)) throw new ProposalInvalidError(toFailures(validateProposal.errors));
    const { artifact, ...rest } = proposal;
    return { ...rest, artifactJson: JSON.stringify(artifact), revision };
  }

  async #move(tx: Tx, actor: ProposalActor, id: string, to: 'rejected' | 'archived'): Promise<Proposal> {
    const records = this.#records(tx);
    const p = await this.#own(records, actor, id);
    const next: StoredProposal = { ...p, state: transition(PROPOSAL_LIFECYCLE, p.state, to), updatedAt: this.#now(), revision: p.revision + 1 };
    records.put(next, p.revision);
    await this.#supersedeGate(records, p);
    return proposalView(next);
  }

  async #supersedeGate(records: ProposalRecords, p: StoredProposal): Promise<void> {
    const g = await records.pendingGate(p.id);
    if (g !== undefined) records.putGate({ ...g, state: transition(APPROVAL_GATE_LIFECYCLE, g.state, 'superseded'), decidedAt: this.#now() }, p.owner.tenant, g.state);
  }

  /** Install exactly the persisted artefact text, then mark the proposal applied and emit proposal.activated. */
  #install(records: ProposalRecords, tx: Tx, p: StoredProposal, how: { mode: ProposalActivation; approvalId?: string; gateOutcome?: 'granted' | 'overridden' }): Proposal {
    const state = transition(PROPOSAL_LIFECYCLE, p.state, 'applied');
    const name = String((JSON.parse(p.artifactJson) as { name?: unknown }).name ?? p.id);
    const ref = `artifact://${p.owner.tenant}/${p.kind}/${encodeURIComponent(name)}@${p.id}`;
    const at = this.#now();
    records.install({ tenant: p.owner.tenant, proposalId: p.id, kind: p.kind, ref, artifactJson: p.artifactJson, installedAt: at });
    const applied: StoredProposal = { ...p, state, updatedAt: at, activation: { ...how, installedArtifactRef: ref, appliedAt: at } };
    records.put(applied, p.revision);
    this.#o.emit(tx, p.owner.tenant, 'proposal.activated', { proposalId: p.id, kind: p.kind, activation: how.mode, ...(how.approvalId !== undefined ? { approvalId: how.approvalId } : {}), installedArtifactRef: ref });
    return proposalView(applied);
  }

  async #duplicateOf(tx: Tx, tenant: string, kind: ProposalKind, artifact: Proposal['artifact']): Promise<string | undefined> {
    return (await this.#o.installed.list(tx, tenant, kind)).find((a) => (JSON.parse(a.artifactJson) as { name?: unknown }).name === artifact.name)?.ref;
  }
}
