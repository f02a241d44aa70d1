/**
 * DTO validation for everything the Inquirium runtime accepts or produces, against the schemas in
 * schemas/inquirium/v1 — the one place the runtime gets its Inquirium validators from (the generated standalone
 * module, so nothing is compiled at start-up).
 *
 * One table names each DTO's schema id and its generated validator. A generated validator is a type predicate, so
 * `assertDto(id, value)` answers the DTO's generated type from a check, never from a cast (a test holds each row to
 * the validator the generated index files under that schema's `$id`).
 */
import * as V from '../../generated/validators/validators.js';
import type { Validator } from '../../generated/validators/validators.js';
import { validationFailures, WopkitError } from '../shared/errors.ts';

/** Each DTO's schema id (its `$id`'s last segment without `.schema.json`) → its generated validator. */
const DTO_VALIDATORS = {
  'inquirium.generate.request.v1': V.validateInquiriumGenerateRequest,
  'inquirium.generate.response.v1': V.validateInquiriumGenerateResponse,
  'inquirium.assistant-turn-trace.v1': V.validateInquiriumAssistantTurnTrace,
  'inquirium.inquiry-turn.v1': V.validateInquiriumInquiryTurn,
  'inquirium.inquiry-result.v1': V.validateInquiriumInquiryResult,
  'inquirium.inquiry-feedback.v1': V.validateInquiriumInquiryFeedback,
  'inquirium.operator-question.request.v1': V.validateInquiriumOperatorQuestionRequest,
  'inquirium.operator-question.answer.v1': V.validateInquiriumOperatorQuestionAnswer,
  'inquirium.operator-question.state.v1': V.validateInquiriumOperatorQuestionState,
  'inquirium.baseline-assistant-profile.v1': V.validateInquiriumBaselineAssistantProfile,
  'inquirium.baseline-assistant-conformance-report.v1': V.validateInquiriumBaselineConformanceReport,
  'inquirium.model-acceptance.v1': V.validateInquiriumModelAcceptance,
  'inquirium.runtime-candidate.v1': V.validateInquiriumRuntimeCandidate,
  'inquirium.context-element.v1': V.validateInquiriumContextElement,
  'inquirium.context-assembly.request.v1': V.validateInquiriumContextAssemblyRequest,
  'inquirium.assistant-config.v1': V.validateInquiriumAssistantConfig,
  'notification-create.v1': V.validateInquiriumNotificationCreate,
  'inquirium.assistant.turn.request.v1': V.validateInquiriumAssistantTurnRequest,
  'inquirium.assistant.turn.response.v1': V.validateInquiriumAssistantTurnResponse,
  'inquirium.assistant.transcript.fact.v1': V.validateInquiriumAssistantTranscriptFact,
  'inquirium.assistant.transcript.bundle.v1': V.validateInquiriumAssistantTranscriptBundle,
  'inquirium.context-grant.issue.request.v1': V.validateInquiriumContextGrantIssueRequest,
  'inquirium.context-grant.revoke.request.v1': V.validateInquiriumContextGrantRevokeRequest,
  'inquirium.training-grant.issue.request.v1': V.validateInquiriumTrainingGrantIssueRequest,
  'inquirium.training-grant.revoke.request.v1': V.validateInquiriumTrainingGrantRevokeRequest,
  'inquirium.operator-question.transition.request.v1': V.validateInquiriumOperatorQuestionTransitionRequest,
  'inquirium.crisis-candidate.v1': V.validateInquiriumCrisisCandidate,
  'inquirium.terminal-outcome.v1': V.validateInquiriumTerminalOutcome,
} as const;

/** A DTO's schema id. */
export type DtoId = keyof typeof DTO_VALIDATORS;

/** The generated type a DTO id validates. */
export type DtoOf<I extends DtoId> = (typeof DTO_VALIDATORS)[I] extends Validator<infer T> ? T : never;

/** The table, typed so that indexing it with any id gives that id's validator. */
const VALIDATORS: { readonly [I in DtoId]: Validator<DtoOf<I>> } = DTO_VALIDATORS;

/** Every DTO id, in table order. */
export const DTO_IDS: readonly DtoId[] = Object.keys(VALIDATORS).filter((k): k is DtoId => Object.prototype.hasOwnProperty.call(VALIDATORS, k));

/** The schema `$id` a DTO id names. */
export const dtoSchemaId = (id: DtoId): string => `https://wopkit.dev/schemas/inquirium/v1/${id}.schema.json`;

/** The generated validator of a DTO. */
export const dtoValidator = <I extends DtoId>(id: I): Validator<DtoOf<I>> => VALIDATORS[id];

export interface DtoFailure {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message: string;
}

/** A DTO failed its schema: 400 validation_failed with the (bounded) failures. */
export class DtoValidationError extends WopkitError<'dto-invalid'> {
  constructor(readonly dto: DtoId, readonly failures: readonly DtoFailure[]) {
    super('dto-invalid', `${dto} is invalid: ${failures.map((f) => `${f.instancePath || '/'} ${f.message}`).join('; ')}`, {
      error: 'validation_failed',
      message: 'body does not match its schema',
      ...(failures.length > 0 ? { details: { failures: validationFailures(failures) } } : {}),
    });
  }
}

/** The failures of a validator's last call. */
const failuresOf = (v: Validator<unknown>): DtoFailure[] =>
  (v.errors ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, message: e.message ?? e.keyword }));

/** Validate without throwing. */
export function checkDto(id: DtoId, value: unknown): DtoFailure[] {
  const v = dtoValidator(id);
  return v(value) ? [] : failuresOf(v);
}

/** Validate and return the value as the DTO's generated type, or throw DtoValidationError. */
export function assertDto<I extends DtoId>(id: I, value: unknown): DtoOf<I> {
  const v = dtoValidator(id);
  if (v(value)) return value;
  throw new DtoValidationError(id, failuresOf(v));
}
