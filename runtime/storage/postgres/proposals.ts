/**
 * PostgreSQL: RFC 0096 proposals and approval gates (replaced whole by id, listed in first-stored order) and the
 * installed-artefact registry (append-only, in install order).
 */
import type { ApprovalGateRow, InstalledArtifactRow, JsonDoc, ProposalRecordStore, ProposalRow } from '../port.ts';
import type { StoreDb } from './connection.ts';
import { docText, parseDoc } from './entries.ts';

export function postgresProposals(pool: StoreDb): ProposalRecordStore {
  return {
    async put({ proposalId, tenant, proposal }) {
      await pool.query(
        'INSERT INTO proposals (proposal_id, tenant, doc) VALUES ($1, $2, $3) ON CONFLICT (proposal_id) DO UPDATE SET tenant = excluded.tenant, doc = excluded.doc',
        [proposalId, tenant, docText(proposal)],
      );
    },
    async all() {
      const r = await pool.query<{ proposal_id: string; tenant: string; doc: string }>('SELECT proposal_id, tenant, doc FROM proposals ORDER BY ord');
      return r.rows.map((row): ProposalRow => ({ proposalId: row.proposal_id, tenant: row.tenant, proposal: parseDoc<JsonDoc>(row.doc) }));
    },
    async putGate({ approvalId, proposalId, gate }) {
      await pool.query(
        'INSERT INTO approval_gates (approval_id, proposal_id, doc) VALUES ($1, $2, $3) ON CONFLICT (approval_id) DO UPDATE SET proposal_id = excluded.proposal_id, doc = excluded.doc',
        [approvalId, proposalId, docText(gate)],
      );
    },
    async gates() {
      const r = await pool.query<{ approval_id: string; proposal_id: string; doc: string }>('SELECT approval_id, proposal_id, doc FROM approval_gates ORDER BY ord');
      return r.rows.map((row): ApprovalGateRow => ({ approvalId: row.approval_id, proposalId: row.proposal_id, gate: parseDoc<JsonDoc>(row.doc) }));
    },
    async install({ tenant, proposalId, artifact }) {
      await pool.query('INSERT INTO installed_artifacts (tenant, proposal_id, doc) VALUES ($1, $2, $3)', [tenant, proposalId, docText(artifact)]);
    },
    async installed() {
      const r = await pool.query<{ tenant: string; proposal_id: string; doc: string }>('SELECT tenant, proposal_id, doc FROM installed_artifacts ORDER BY ord');
      return r.rows.map((row): InstalledArtifactRow => ({ tenant: row.tenant, proposalId: row.proposal_id, artifact: parseDoc<JsonDoc>(row.doc) }));
    },
  };
}
