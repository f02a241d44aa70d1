/** Refusals of the proposal surface, each with the wire answer the host sends (content-free). */
import type { ValidationFailure } from '../../generated/ts/error.ts';
import { validationFailures, WopkitError } from '../shared/errors.ts';

/** No proposal (or gate) with that id for the caller: a missing one and another tenant's answer alike (CTI-1). */
export class ProposalNotFoundError extends WopkitError<'proposal_not_found'> {
  constructor(what: 'proposal' | 'gate' | 'installed artefact' = 'proposal') {
    super('proposal_not_found', `no such ${what}`, { error: 'not_found', message: `no such ${what}` });
  }
}

/** direct-rbac: the caller does not hold the advertised activation scope. Nothing changes. */
export class ActivationForbiddenError extends WopkitError<'activation_forbidden'> {
  constructor(scope: string) {
    super('activation_forbidden', `applying a proposal needs the scope ${scope}`, { error: 'forbidden', message: `applying a proposal needs the scope ${scope}`, details: { scope } });
  }
}

/** The proposal (or revision) would not be a valid Proposal, or names a run of another tenant. Nothing is stored. */
export class ProposalInvalidError extends WopkitError<'proposal_invalid'> {
  constructor(readonly failures: readonly ValidationFailure[]) {
    super('proposal_invalid', 'the proposal is not valid', { error: 'validation_failed', message: 'the proposal is not valid', details: { failures: validationFailures(failures) } });
  }
}

/** The gate was opened on an older revision (a race the lifecycle should make impossible): nothing is installed. */
export class StaleGateError extends WopkitError<'stale_gate'> {
  constructor() {
    super('stale_gate', 'the gate approves an older revision of the proposal', { error: 'conflict', message: 'the gate approves an older revision of the proposal' });
  }
}
