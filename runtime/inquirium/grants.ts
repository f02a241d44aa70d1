/**
 * Context and training grants (Solution 045 § Granted Context And Classification, § Feedback And Training
 * Admission): durable operator grants, issued and revoked by their request DTOs, kept append-only in the store's
 * document log — an issue record per grant and, once revoked, a revocation record beside it, so a terminal grant
 * stays archived and never admits again.
 *
 * A context grant is bound to one participant, one session and one source, admits elements up to its
 * classification ceiling until it expires, and lets protected context reach a remote model only with an egress
 * acknowledgement. A training grant is bound to one participant and one feedback fact, and is live until it expires.
 * `admitContext` and `admitTraining` are the single decisions; nothing else reads a grant to admit something.
 *
 * Writes are planned into the caller's `Plan` (the caller commits); reads go through the storage port each time,
 * so a revocation committed by any host is seen by every later read on every host.
 */
import type { InquiriumContextGrantIssueRequest } from '../../generated/ts/inquirium.context-grant.issue.request.v1.ts';
import type { InquiriumTrainingGrantIssueRequest } from '../../generated/ts/inquirium.training-grant.issue.request.v1.ts';
import type { InquiriumContextElement } from '../../generated/ts/inquirium.context-element.v1.ts';
import type { InquiriumInquiryFeedback } from '../../generated/ts/inquirium.inquiry-feedback.v1.ts';
import type { Clock } from '../shared/clock.ts';
import { validationFailures, WopkitError, type WireAnswer } from '../shared/errors.ts';
import { assertDto, type DtoId } from './dto.ts';
import { classificationAxis } from './lattice.ts';
import { StoreCorruptError, type JsonDoc, type Tx } from '../storage/index.ts';
import { isInquiriumContextGrantIssueRequest, isInquiriumTrainingGrantIssueRequest } from '../../generated/guards/index.ts';

export type ContextGrant = InquiriumContextGrantIssueRequest;
export type TrainingGrant = InquiriumTrainingGrantIssueRequest;

/** The grant kinds as data: the DTO that issues each and the one that revokes it. */
export const GRANT_KINDS = {
  context: { issue: 'inquirium.context-grant.issue.request.v1', revoke: 'inquirium.context-grant.revoke.request.v1' },
  training: { issue: 'inquirium.training-grant.issue.request.v1', revoke: 'inquirium.training-grant.revoke.request.v1' },
} as const satisfies Record<string, { issue: DtoId; revoke: DtoId }>;
export type GrantKind = keyof typeof GRANT_KINDS;
interface IssueOf { context: ContextGrant; training: TrainingGrant }

/** The store's document log the grants live in. */
export const GRANT_LOG = 'inquirium-grants';

export type GrantErrorCode = 'grant-exists' | 'grant-unknown' | 'grant-already-expired';

function grantWire(code: GrantErrorCode): WireAnswer {
  if (code === 'grant-already-expired') return { error: 'validation_failed', message: 'the grant expires before it is issued', details: { failures: validationFailures([{ instancePath: '/expires~1at', message: 'must be later than now' }]) } };
  return { error: code === 'grant-unknown' ? 'not_found' : 'conflict', message: `grant refused: ${code}` };
}

export class GrantError extends WopkitError<GrantErrorCode> {
  constructor(code: GrantErrorCode, message: string) {
    super(code, message, grantWire(code));
  }
}

/** A grant as read: the issue request, when it was issued, and its revocation if any. */
export interface GrantView<K extends GrantKind> {
  readonly kind: K;
  readonly grant: IssueOf[K];
  readonly issuedMs: number;
  readonly revoked?: { readonly atMs: number; readonly reason?: string };
}

interface IssueDoc<K extends GrantKind = GrantKind> { readonly grant: IssueOf[K]; readonly issuedMs: number }
interface RevokeDoc { readonly atMs: number; readonly reason?: string }

/** The grants of one tenant: every read goes through the caller's unit of work (`tx`). */
export class Grants {
  constructor(private readonly clock: Clock, readonly tenant = 'local') {}

  forTenant(tenant: string): Grants {
    return tenant === this.tenant ? this : new Grants(this.clock, tenant);
  }

  #key(kind: GrantKind, part: 'issued' | 'revoked'): string {
    return `${this.tenant}\u001f${kind}\u001f${part}`;
  }

  /** Validate an issue request and plan its record; refused when the ref is taken or the grant is already expired. */
  async planIssue<K extends GrantKind>(tx: Tx, kind: K, request: unknown): Promise<IssueOf[K]> {
    const grant = ISSUE_DTOS[kind](request);
    const now = this.clock.now();
    if (Date.parse(grant['expires/at']) <= now) throw new GrantError('grant-already-expired', 'the grant expires before it is issued');
    if ((await this.get(tx, kind, grant['grant/ref'])) !== undefined) throw new GrantError('grant-exists', 'a grant with this ref exists');
    // The log's unique (key, item) index refuses a concurrent issue of the same ref that this read missed.
    tx.add('doc.append', { log: GRANT_LOG, tenant: this.tenant, key: this.#key(kind, 'issued'), item: grant['grant/ref'], readAbsent: true, atMs: now, doc: { grant: structuredClone(grant), issuedMs: now } satisfies IssueDoc });
    return grant;
  }

  /**
   * Validate a revoke request and plan the revocation; `false` (nothing planned) when the grant is already revoked.
   * Refused when the grant is unknown.
   */
  async planRevoke<K extends GrantKind>(tx: Tx, kind: K, request: unknown): Promise<boolean> {
    const req = assertDto(GRANT_KINDS[kind].revoke, request);
    const view = await this.get(tx, kind, req['grant/ref']);
    if (view === undefined) throw new GrantError('grant-unknown', 'no such grant');
    if (view.revoked !== undefined) return false;
    const now = this.clock.now();
    const doc: RevokeDoc = { atMs: now, ...(req['reason/code'] !== undefined ? { reason: req['reason/code'] } : {}) };
    tx.add('doc.append', { log: GRANT_LOG, tenant: this.tenant, key: this.#key(kind, 'revoked'), item: req['grant/ref'], atMs: now, doc: doc });
    return true;
  }

  /** The grant as the store holds it now (issue and revocation, two indexed reads through `tx`), or undefined. */
  async get<K extends GrantKind>(tx: Tx, kind: K, grantRef: string): Promise<GrantView<K> | undefined> {
    const issued = await tx.read.docByItem({ log: GRANT_LOG, key: this.#key(kind, 'issued'), item: grantRef });
    if (issued === undefined) return undefined;
    const revoked = await tx.read.docByItem({ log: GRANT_LOG, key: this.#key(kind, 'revoked'), item: grantRef });
    const doc = issueDocOf(kind, issued.doc);
    return { kind, grant: doc.grant, issuedMs: doc.issuedMs, ...(revoked !== undefined ? { revoked: revokeDocOf(revoked.doc) } : {}) };
  }
}

/** Each kind's issue request, validated as its DTO (DtoValidationError otherwise). */
const ISSUE_DTOS: { readonly [K in GrantKind]: (v: unknown) => IssueOf[K] } = {
  context: (v) => assertDto(GRANT_KINDS.context.issue, v),
  training: (v) => assertDto(GRANT_KINDS.training.issue, v),
};

/** Each kind's issue DTO guard (the grants log's decoder checks a stored grant with it). */
const ISSUE_GUARDS: { readonly [K in GrantKind]: (v: unknown) => v is IssueOf[K] } = { context: isInquiriumContextGrantIssueRequest, training: isInquiriumTrainingGrantIssueRequest };

const corrupt = (what: string): StoreCorruptError => new StoreCorruptError(GRANT_LOG, `a stored ${what} is not one this runtime wrote`);

/** The grants log's decoder for an issue record. */
function issueDocOf<K extends GrantKind>(kind: K, doc: JsonDoc): IssueDoc<K> {
  const guard: (v: unknown) => v is IssueOf[K] = ISSUE_GUARDS[kind];
  const { grant, issuedMs } = doc;
  if (!guard(grant) || typeof issuedMs !== 'number') throw corrupt(`${kind} grant`);
  return { grant, issuedMs };
}

/** The grants log's decoder for a revocation record. */
function revokeDocOf(doc: JsonDoc): RevokeDoc {
  const { atMs, reason } = doc;
  if (typeof atMs !== 'number' || (reason !== undefined && typeof reason !== 'string')) throw corrupt('revocation');
  return { atMs, ...(typeof reason === 'string' ? { reason } : {}) };
}

/** Why a grant did not admit something (content-free codes, traced per element). */
export type GrantRefusal =
  | 'grant-missing' | 'grant-unknown' | 'grant-revoked' | 'grant-expired' | 'grant-participant-mismatch' | 'grant-session-mismatch'
  | 'grant-source-mismatch' | 'above-grant-ceiling' | 'egress-not-acknowledged' | 'grant-feedback-mismatch' | 'feedback-not-flagged';
export type Admission = { readonly admit: true } | { readonly admit: false; readonly reason: GrantRefusal };

/** Who is using a grant, when, and whether the model the context would reach is remote. */
export interface GrantUse {
  readonly participant: string;
  readonly session: string;
  readonly nowMs: number;
  /** The context goes to a remote model: protected elements then need the grant's egress acknowledgement. */
  readonly remote?: boolean;
}

const refuse = (reason: GrantRefusal): Admission => ({ admit: false, reason });
const ADMIT: Admission = { admit: true };

/** The checks every use of a grant shares: it exists, is not revoked, has not expired, and is the participant's. */
function live(view: GrantView<GrantKind> | undefined, participant: string, nowMs: number): Admission {
  if (view === undefined) return refuse('grant-unknown');
  if (view.revoked !== undefined) return refuse('grant-revoked');
  if (!(nowMs < Date.parse(view.grant['expires/at']))) return refuse('grant-expired');
  if (view.grant['participant/ref'] !== participant) return refuse('grant-participant-mismatch');
  return ADMIT;
}

/** Whether a context grant lets this participant's session read from a source (before any element is seen). */
export function admitSource(view: GrantView<'context'> | undefined, source: { readonly 'source/kind': string }, use: GrantUse): Admission {
  const base = live(view, use.participant, use.nowMs);
  if (!base.admit) return base;
  if (view!.grant['session/ref'] !== use.session) return refuse('grant-session-mismatch');
  if (view!.grant['source/kind'] !== source['source/kind']) return refuse('grant-source-mismatch');
  return ADMIT;
}

/**
 * Whether a context grant admits one element: the source checks, the element's source is the grant's source, its
 * label (unknown ⇒ most restrictive) is at most the ceiling, and protected content going to a remote model has
 * the egress acknowledgement.
 */
export function admitContext(view: GrantView<'context'> | undefined, element: Pick<InquiriumContextElement, 'source/kind' | 'source/ref' | 'classification' | 'grant/ref'>, use: GrantUse): Admission {
  if (element['grant/ref'] === undefined) return refuse('grant-missing');
  if (view !== undefined && element['grant/ref'] !== view.grant['grant/ref']) return refuse('grant-unknown');
  const source = admitSource(view, element, use);
  if (!source.admit) return source;
  const g = view!.grant;
  if (element['source/ref'] !== g['source/ref']) return refuse('grant-source-mismatch');
  if (classificationAxis.rank(element.classification) > classificationAxis.rank(g['classification/ceiling'])) return refuse('above-grant-ceiling');
  if (use.remote === true && classificationAxis.rank(element.classification) > 0 && g['egress/ack/ref'] === undefined) return refuse('egress-not-acknowledged');
  return ADMIT;
}

/** The members of a feedback fact a training admission reads. */
export type TrainingFeedback = Pick<InquiriumInquiryFeedback, 'feedback/id' | 'participant/ref' | 'training/candidate'>;

/**
 * Whether a feedback fact is admitted as a training candidate now (P066 8.3): only when the operator flagged it
 * (`training/candidate: true`) and a live training grant of its participant names it.
 */
export function admitTraining(view: GrantView<'training'> | undefined, use: { readonly feedback: TrainingFeedback; readonly nowMs: number }): Admission {
  if (use.feedback['training/candidate'] !== true) return refuse('feedback-not-flagged');
  const base = live(view, use.feedback['participant/ref'], use.nowMs);
  if (!base.admit) return base;
  return view!.grant['feedback/ref'] === use.feedback['feedback/id'] ? ADMIT : refuse('grant-feedback-mismatch');
}
