/**
 * Where proposals, their approval gates and the artefacts applied proposals installed are kept. Each is a small
 * async port (so a durable back-end can implement it) with an in-memory implementation; a proposal's artefact is
 * held as the JSON text that was persisted, so apply can install exactly those bytes.
 */
import type { Proposal, ProposalKind } from '../../generated/ts/proposal.ts';
import type { ApprovalGate } from '../../generated/ts/proposal-apply-response.ts';

/** A proposal as stored: every field but the artefact, which is kept as its persisted JSON text. */
export type StoredProposal = Readonly<Omit<Proposal, 'artifact'>> & {
  readonly artifactJson: string;
  /** Bumped on every persisted change: an approval gate approves one revision. */
  readonly revision: number;
};

/** A gate as stored: the wire shape plus the revision it approves. */
export type StoredGate = Readonly<ApprovalGate> & { readonly revision: number };

/** An installed artefact: what an applied proposal put in the registry runs resolve from. */
export interface InstalledArtifact {
  readonly tenant: string;
  readonly proposalId: string;
  readonly kind: ProposalKind;
  readonly ref: string;
  /** The artefact's JSON text, as installed. */
  readonly artifactJson: string;
  readonly installedAt: string;
}

export interface ProposalStore {
  get(id: string): Promise<StoredProposal | undefined>;
  put(p: StoredProposal): Promise<void>;
  /** Every proposal of `tenant`, oldest first. */
  list(tenant: string): Promise<readonly StoredProposal[]>;
  gate(approvalId: string): Promise<StoredGate | undefined>;
  putGate(g: StoredGate): Promise<void>;
  /** The gate of the proposal that is still pending, if any. */
  pendingGate(proposalId: string): Promise<StoredGate | undefined>;
}

/**
 * The registry of installed artefacts: the one place whose content influences how runs are resolved (the agent
 * inventory reads its agent packs). Only an authorised apply writes to it.
 */
export interface InstalledArtifacts {
  install(a: InstalledArtifact): Promise<void>;
  /** What `proposalId` installed for `tenant` (nothing for another tenant's proposal). */
  get(tenant: string, proposalId: string): Promise<InstalledArtifact | undefined>;
  /** Everything installed for `tenant`, optionally of one kind, in install order. */
  list(tenant: string, kind?: ProposalKind): Promise<readonly InstalledArtifact[]>;
}

export class InMemoryProposalStore implements ProposalStore {
  readonly #proposals = new Map<string, StoredProposal>();
  readonly #gates = new Map<string, StoredGate>();

  async get(id: string) {
    return this.#proposals.get(id);
  }
  async put(p: StoredProposal) {
    this.#proposals.set(p.id, p);
  }
  async list(tenant: string) {
    return [...this.#proposals.values()].filter((p) => p.owner.tenant === tenant);
  }
  async gate(approvalId: string) {
    return this.#gates.get(approvalId);
  }
  async putGate(g: StoredGate) {
    this.#gates.set(g.approvalId, g);
  }
  async pendingGate(proposalId: string) {
    return [...this.#gates.values()].find((g) => g.proposalId === proposalId && g.state === 'pending');
  }
}

export class InMemoryInstalledArtifacts implements InstalledArtifacts {
  readonly #byTenant = new Map<string, InstalledArtifact[]>();

  async install(a: InstalledArtifact) {
    const list = this.#byTenant.get(a.tenant) ?? [];
    list.push(a);
    this.#byTenant.set(a.tenant, list);
  }
  async get(tenant: string, proposalId: string) {
    return this.#byTenant.get(tenant)?.find((a) => a.proposalId === proposalId);
  }
  async list(tenant: string, kind?: ProposalKind) {
    return (this.#byTenant.get(tenant) ?? []).filter((a) => kind === undefined || a.kind === kind);
  }
}
