/**
 * RFC 0096 proposals, their approval gates and the installed-artefact registry on a storage port (issue 13). Like
 * the rest of the runtime they keep their working state in memory (the in-memory stores of
 * `runtime/proposals/store.ts`); every change is also written through the ordered write queue, and `restore`
 * loads what the store holds at start. The host awaits the queue before acknowledging a request, so an applied
 * proposal's install is committed when the apply is acknowledged.
 */
import {
  InMemoryInstalledArtifacts,
  InMemoryProposalStore,
  type InstalledArtifact,
  type InstalledArtifacts,
  type ProposalStore,
  type StoredGate,
  type StoredProposal,
} from '../proposals/store.ts';
import type { JsonDoc, StoragePort } from '../storage/port.ts';
import type { WriteQueue } from '../storage/write-queue.ts';

const asDoc = (record: object): JsonDoc => record as JsonDoc;

export interface DurableProposals {
  readonly store: ProposalStore;
  readonly installed: InstalledArtifacts;
  /** Load the stored proposals, gates and installs into the working state (no write-back); how many of each. */
  restore(): Promise<{ readonly proposals: number; readonly gates: number; readonly installed: number }>;
}

export function durableProposals(port: StoragePort, queue: WriteQueue): DurableProposals {
  const proposals = new InMemoryProposalStore();
  const artifacts = new InMemoryInstalledArtifacts();

  const store: ProposalStore = {
    get: (id) => proposals.get(id),
    list: (tenant) => proposals.list(tenant),
    gate: (approvalId) => proposals.gate(approvalId),
    pendingGate: (proposalId) => proposals.pendingGate(proposalId),
    async put(p) {
      await proposals.put(p);
      queue.enqueue(() => port.proposals.put({ proposalId: p.id, tenant: p.owner.tenant, proposal: asDoc(p) }));
    },
    async putGate(g) {
      await proposals.putGate(g);
      queue.enqueue(() => port.proposals.putGate({ approvalId: g.approvalId, proposalId: g.proposalId, gate: asDoc(g) }));
    },
  };
  const installed: InstalledArtifacts = {
    get: (tenant, proposalId) => artifacts.get(tenant, proposalId),
    list: (tenant, kind) => artifacts.list(tenant, kind),
    async install(a) {
      await artifacts.install(a);
      queue.enqueue(() => port.proposals.install({ tenant: a.tenant, proposalId: a.proposalId, artifact: asDoc(a) }));
    },
  };

  async function restore() {
    const stored = await port.proposals.all();
    const gates = await port.proposals.gates();
    const installs = await port.proposals.installed();
    for (const row of stored) await proposals.put(row.proposal as unknown as StoredProposal);
    for (const row of gates) await proposals.putGate(row.gate as unknown as StoredGate);
    for (const row of installs) await artifacts.install(row.artifact as unknown as InstalledArtifact);
    return { proposals: stored.length, gates: gates.length, installed: installs.length };
  }

  return { store, installed, restore };
}
