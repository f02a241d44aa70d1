/**
 * DTO validation for everything the Inquirium runtime accepts or produces, against the schemas in
 * schemas/inquirium/v1 — the one place the runtime gets its Inquirium validators from (the generated standalone
 * module, so nothing is compiled at start-up).
 */
import { validatorIndex } from '../../generated/validators/validators.js';
import { validationFailures, WopkitError } from '../shared/errors.ts';

const BASE = 'https://wopkit.dev/schemas/inquirium/v1/';
interface GeneratedValidator {
  (value: unknown): boolean;
  errors?: readonly { instancePath: string; keyword: string; message?: string }[] | null;
}
/** The generated standalone validators, by schema `$id`. */
const byId = new Map<string, GeneratedValidator>(
  Object.values(validatorIndex as Record<string, { validator: GeneratedValidator; id: string }>).map((v) => [v.id, v.validator]),
);

export type DtoId =
  | 'inquirium.generate.request.v1'
  | 'inquirium.generate.response.v1'
  | 'inquirium.assistant-turn-trace.v1'
  | 'inquirium.inquiry-turn.v1'
  | 'inquirium.inquiry-result.v1'
  | 'inquirium.inquiry-feedback.v1'
  | 'inquirium.operator-question.request.v1'
  | 'inquirium.operator-question.answer.v1'
  | 'inquirium.operator-question.state.v1'
  | 'inquirium.baseline-assistant-profile.v1'
  | 'inquirium.baseline-assistant-conformance-report.v1'
  | 'inquirium.model-acceptance.v1'
  | 'inquirium.runtime-candidate.v1'
  | 'inquirium.context-element.v1'
  | 'inquirium.context-assembly.request.v1'
  | 'inquirium.assistant-config.v1'
  | 'notification-create.v1'
  // Solution 045's shapes (issue 38).
  | 'inquirium.assistant.turn.request.v1'
  | 'inquirium.assistant.turn.response.v1'
  | 'inquirium.assistant.transcript.fact.v1'
  | 'inquirium.assistant.transcript.bundle.v1'
  | 'inquirium.context-grant.issue.request.v1'
  | 'inquirium.context-grant.revoke.request.v1'
  | 'inquirium.training-grant.issue.request.v1'
  | 'inquirium.training-grant.revoke.request.v1'
  | 'inquirium.operator-question.transition.request.v1'
  | 'inquirium.crisis-candidate.v1'
  | 'inquirium.terminal-outcome.v1';

const validatorFor = (id: DtoId): GeneratedValidator => {
  const v = byId.get(`${BASE}${id}.schema.json`);
  if (v === undefined) throw new Error(`no generated validator for ${id}: run npm run gen`);
  return v;
};

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

/** Validate without throwing. */
export function checkDto(id: DtoId, value: unknown): DtoFailure[] {
  const v = validatorFor(id);
  return v(value) ? [] : (v.errors ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, message: e.message ?? e.keyword }));
}

/** Validate and return the value typed, or throw DtoValidationError. */
export function assertDto<T>(id: DtoId, value: unknown): T {
  const failures = checkDto(id, value);
  if (failures.length > 0) throw new DtoValidationError(id, failures);
  return value as T;
}
