/**
 * The two RFC 0096 lifecycles as data: a proposal's (draft → revised → applied | rejected | archived) and that of
 * the RFC 0051 approval gate an approval-gate host opens on apply. The proposal service moves between states only
 * through `transition()` on these tables, and the site draws them from the same rows.
 */
import type { ProposalState } from '../../generated/ts/proposal.ts';
import type { ApprovalGate } from '../../generated/ts/proposal-apply-response.ts';
import { defineStateMachine } from '../shared/state-machine.ts';

export type GateState = ApprovalGate['state'];

/** RFC 0096: only applied influences runs; applied and archived are final, a rejected proposal can still be archived. */
export const PROPOSAL_LIFECYCLE = defineStateMachine<ProposalState>({
  id: 'proposal-lifecycle',
  title: 'Proposal lifecycle (RFC 0096)',
  source: 'agent-memory spec §Reviewable learning (RFC 0096)',
  states: ['draft', 'revised', 'applied', 'rejected', 'archived'],
  initial: 'draft',
  terminal: ['applied', 'archived'],
  transitions: [
    { from: 'draft', to: 'revised', on: 'PATCH (revise)' },
    { from: 'revised', to: 'revised', on: 'PATCH (revise)' },
    { from: 'draft', to: 'applied', on: 'apply, authorised' },
    { from: 'revised', to: 'applied', on: 'apply, authorised' },
    { from: 'draft', to: 'rejected', on: 'POST reject' },
    { from: 'revised', to: 'rejected', on: 'POST reject' },
    { from: 'draft', to: 'archived', on: 'DELETE (archive)' },
    { from: 'revised', to: 'archived', on: 'DELETE (archive)' },
    { from: 'rejected', to: 'archived', on: 'DELETE (archive)' },
  ],
});

/**
 * The approval gate of one apply request: it approves the revision it was opened on, so a change to the proposal
 * while it is pending supersedes it. Only granted and overridden install the artefact.
 */
export const APPROVAL_GATE_LIFECYCLE = defineStateMachine<GateState>({
  id: 'proposal-approval-gate',
  title: 'Approval gate of a proposal apply (RFC 0096 over RFC 0051)',
  source: 'agent-memory spec §Reviewable learning, requirement 2',
  states: ['pending', 'granted', 'denied', 'overridden', 'superseded'],
  initial: 'pending',
  terminal: ['granted', 'denied', 'overridden', 'superseded'],
  transitions: [
    { from: 'pending', to: 'granted', on: 'approver grants: install' },
    { from: 'pending', to: 'overridden', on: 'audited override: install' },
    { from: 'pending', to: 'denied', on: 'approver denies' },
    { from: 'pending', to: 'superseded', on: 'proposal revised, rejected or archived' },
  ],
});
