/**
 * Crisis candidates (Solution 045 § Operator Questions And Escalation; P066 Decision 11): when a turn may need crisis
 * review, Inquirium raises a classified, metadata-only candidate for the host-owned crisis layer — never a verdict,
 * never a mode change, never a notification of its own. The candidate names the turn, the participant, a
 * content-free reason code and a label at least as restrictive as the turn's; the schema leaves no room for
 * content or for "crisis is active".
 *
 * Candidates are planned into the caller's `Plan` as append-only records of the store's document log, one log key
 * per tenant, where the host's crisis layer reads them (`crisisCandidates`).
 */
import type { InquiriumCrisisCandidate } from '../../generated/ts/inquirium.crisis-candidate.v1.ts';
import { toIso, type Clock, type IdSource } from '../shared/clock.ts';
import { assertDto } from './dto.ts';
import { normaliseClassification } from './lattice.ts';
import { StoreCorruptError, type JsonDoc, type Tx } from '../storage/index.ts';
import { isInquiriumCrisisCandidate } from '../../generated/guards/index.ts';

export type CrisisCandidate = InquiriumCrisisCandidate;

/** The store's document log the candidates wait in for host review. */
export const CRISIS_CANDIDATE_LOG = 'inquirium-crisis-candidates';

export interface CandidateSignal {
  readonly turnId: string;
  readonly participant: string;
  /** The turn's label; unknown or missing counts as the most restrictive. */
  readonly turnClassification?: unknown;
  /** Why the turn was flagged: a kebab-case code, never text from the turn. */
  readonly reason: string;
}

/** Build, validate and plan one candidate; the candidate as planned. */
export function raiseCrisisCandidate(tx: Tx, signal: CandidateSignal, deps: { readonly clock: Clock; readonly ids: IdSource; readonly tenant?: string }): CrisisCandidate {
  const now = deps.clock.now();
  const candidate = assertDto('inquirium.crisis-candidate.v1', {
    schema: 'inquirium.crisis-candidate.v1',
    'candidate/id': `crisis-candidate:${deps.ids.next('crisis-candidate')}`,
    'turn/id': signal.turnId,
    'participant/ref': signal.participant,
    classification: normaliseClassification(signal.turnClassification),
    'reason/code': signal.reason,
    review: 'needs-host-review',
    'raised/at': toIso(now),
  });
  tx.add('doc.append', { log: CRISIS_CANDIDATE_LOG, tenant: deps.tenant ?? 'local', key: deps.tenant ?? 'local', item: candidate['candidate/id'], atMs: now, doc: candidate });
  return candidate;
}

/** A tenant's candidates awaiting the host crisis layer, oldest first, at most `limit`. */
export async function crisisCandidates(tx: Tx, a: { readonly tenant?: string; readonly limit: number }): Promise<CrisisCandidate[]> {
  return (await tx.read.docsPage({ log: CRISIS_CANDIDATE_LOG, key: a.tenant ?? 'local', fromPos: 0, limit: a.limit })).map((d) => {
    // The candidate log's decoder: each document is a candidate this runtime validated before it planned it.
    if (!isInquiriumCrisisCandidate(d.doc)) throw new StoreCorruptError(CRISIS_CANDIDATE_LOG, 'a stored crisis candidate is not one this runtime wrote');
    return d.doc;
  });
}
