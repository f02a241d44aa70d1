/**
 * Where proposals, their approval gates and the artefacts applied proposals installed are kept: in the store, read
 * when a request needs them and written through the request's tx (one transaction per request). A proposal's
 * artefact is held as the JSON text that was persisted, so apply can install exactly those bytes. Every replacement
 * names the revision (or gate state) it was decided from: a proposal changed meanwhile by another request — on this
 * host or another — refuses the write as stale, and the request is re-run.
 */
import type { Proposal, ProposalKind } from '../../generated/ts/proposal.ts';
import type { ApprovalGate } from '../../generated/ts/proposal-apply-response.ts';
import { StoreCorruptError, type JsonDoc, type Tx } from '../storage/index.ts';
import { isApprovalGate, isProposal, isProposalKind } from '../../generated/guards/index.ts';


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

/** Proposals a tenant may hold (live or ended); one more is refused (429 `quota_exceeded`, resource `proposals`). */
export const DEFAULT_PROPOSALS_PER_TENANT = 1000;


const corrupt = (table: string, what: string): StoreCorruptError => new StoreCorruptError(table, `a stored ${what} is not one this runtime wrote`);

/** The proposals table's decoder: the stored document, checked as a proposal (with its artefact parsed) by the generated guard. */
export function storedProposalOf(doc: JsonDoc): StoredProposal {
  const { artifactJson, revision, ...rest } = doc;
  if (typeof artifactJson !== 'string' || typeof revision !== 'number') throw corrupt('proposals', 'proposal');
  const full = { ...rest, artifact: JSON.parse(artifactJson) };
  if (!isProposal(full)) throw corrupt('proposals', 'proposal');
  const { artifact: _artifact, ...proposal } = full;
  return { ...proposal, artifactJson, revision };
}

/** The approval gates table's decoder. */
export function storedGateOf(doc: JsonDoc): StoredGate {
  const { revision, ...gate } = doc;
  if (typeof revision !== 'number' || !isApprovalGate(gate)) throw corrupt('approval_gates', 'approval gate');
  return { ...gate, revision };
}

/** The installed artefacts table's decoder. */
export function installedArtifactOf(doc: JsonDoc): InstalledArtifact {
  const { tenant, proposalId, kind, ref, artifactJson, installedAt } = doc;
  if (typeof tenant !== 'string' || typeof proposalId !== 'string' || !isProposalKind(kind) || typeof ref !== 'string' || typeof artifactJson !== 'string' || typeof installedAt !== 'string') {
    throw corrupt('installed_artifacts', 'installed artefact');
  }
  return { tenant, proposalId, kind, ref, artifactJson, installedAt };
}

/** The proposal records of one request: reads and writes through the request's unit of work. */
export class ProposalRecords {
  readonly #tx: Tx;
  readonly #limit: number;

  constructor(tx: Tx, limit = DEFAULT_PROPOSALS_PER_TENANT) {
    this.#tx = tx;
    this.#limit = limit;
  }

  async get(id: string): Promise<StoredProposal | undefined> {
    const row = await this.#tx.read.proposalGet(id);
    return row === undefined ? undefined : storedProposalOf(row.doc);
  }

  /** Store a new proposal (no `revisionRead`), or replace the one read at `revisionRead`. */
  put(p: StoredProposal, revisionRead?: number): void {
    this.#tx.add('proposal.put', {
      proposalId: p.id, tenant: p.owner.tenant, state: p.state, kind: p.kind, createdMs: Date.parse(p.createdAt), doc: p,
      ...(revisionRead !== undefined ? { revisionRead } : {}), revision: p.revision, limit: this.#limit,
    });
  }

  /** Every proposal of `tenant`, oldest first (at most the tenant's bound). */
  async list(tenant: string): Promise<readonly StoredProposal[]> {
    return (await this.#tx.read.proposalsOf({ tenant, limit: this.#limit })).map(storedProposalOf);
  }

  async gate(approvalId: string): Promise<StoredGate | undefined> {
    const doc = await this.#tx.read.gateGet(approvalId);
    return doc === undefined ? undefined : storedGateOf(doc);
  }

  /** Store a new gate (no `stateRead`), or replace the one read in `stateRead`. */
  putGate(g: StoredGate, tenant: string, stateRead?: string): void {
    this.#tx.add('proposal.gate', { approvalId: g.approvalId, proposalId: g.proposalId, tenant, doc: g, ...(stateRead !== undefined ? { stateRead } : {}) });
  }

  /** The gate of the proposal that is still pending, if any. */
  async pendingGate(proposalId: string): Promise<StoredGate | undefined> {
    return (await this.#tx.read.gatesOf({ proposalId, limit: 1000 })).map(storedGateOf).find((g) => g.state === 'pending');
  }

  install(a: InstalledArtifact): void {
    this.#tx.add('proposal.install', { tenant: a.tenant, proposalId: a.proposalId, kind: a.kind, doc: a });
  }
}

/**
 * The registry of installed artefacts: the one place whose content influences how runs are resolved (the agent
 * inventory reads its agent packs). Only an authorised apply writes to it.
 */
export class InstalledArtifacts {
  readonly #limit: number;

  constructor(limit = DEFAULT_PROPOSALS_PER_TENANT) {
    this.#limit = limit;
  }

  /** What `proposalId` installed for `tenant` (nothing for another tenant's proposal), read through `tx`. */
  async get(tx: Tx, tenant: string, proposalId: string): Promise<InstalledArtifact | undefined> {
    const found = await tx.read.installedFor(proposalId);
    return found === undefined || found.tenant !== tenant ? undefined : installedArtifactOf(found.doc);
  }

  /** Everything installed for `tenant`, optionally of one kind, in install order. */
  async list(tx: Tx, tenant: string, kind?: ProposalKind): Promise<readonly InstalledArtifact[]> {
    return (await tx.read.installedOf({ tenant, ...(kind !== undefined ? { kind } : {}), limit: this.#limit })).map(installedArtifactOf);
  }
}
