/**
 * DTO validation for everything the Inquirium runtime accepts or produces, against the schemas in
 * schemas/inquirium/v1 — the one place the runtime gets its Inquirium validators from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../generator/ajv.ts';

const dir = fileURLToPath(new URL('../../schemas/inquirium/v1/', import.meta.url));
const ajv = createAjv();
for (const f of readdirSync(dir).filter((n) => n.endsWith('.schema.json')).sort()) ajv.addSchema(JSON.parse(readFileSync(dir + f, 'utf8')));
const BASE = 'https://wopkit.dev/schemas/inquirium/v1/';

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
  | 'inquirium.assistant-config.v1'
  | 'notification-create.v1';

const cache = new Map<string, ValidateFunction>();
const validatorFor = (id: DtoId): ValidateFunction => {
  let v = cache.get(id);
  if (v === undefined) cache.set(id, (v = ajv.getSchema(`${BASE}${id}.schema.json`)!));
  return v;
};

export interface DtoFailure {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message: string;
}

export class DtoValidationError extends Error {
  constructor(readonly dto: DtoId, readonly failures: readonly DtoFailure[]) {
    super(`${dto} is invalid: ${failures.map((f) => `${f.instancePath || '/'} ${f.message}`).join('; ')}`);
    this.name = 'DtoValidationError';
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
