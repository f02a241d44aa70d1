/**
 * The validator's verdict on a JSON text, as `wopkit validate` gives it: the parse error with its line and column
 * (the same parser and words: generator/json-parse.ts), or every failure of the generated validator as
 * pointer / keyword / message (the same formatting as the generated guards' `toFailures`), run events checked
 * envelope first and then the payload of a known type (as `validateRunEvent` does). Pure; runs in the browser on
 * the validator modules the package ships.
 */
import { parseJsonText } from '../../../../generator/json-parse.ts';

/** One failure as the generated validators report it (their `ValidatorError`, the fields read here). */
export interface ValidatorError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface ValidatorFn {
  (data: unknown): boolean;
  errors?: readonly ValidatorError[] | null;
}

export interface Failure {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message: string;
}

/** How a run-event envelope is checked: its payload by the validator of its `type` (absent: only the envelope). */
export interface PayloadDispatch {
  readonly payloadOf: (type: string) => ValidatorFn | undefined;
}

export type Verdict =
  | { readonly kind: 'malformed'; readonly message: string; readonly line?: number; readonly column?: number; readonly offset?: number }
  | { readonly kind: 'valid' }
  | { readonly kind: 'invalid'; readonly failures: readonly Failure[] };

/** A validator's errors as failures, worded as the generated guards word them (the CLI prints these). */
export function toFailures(errors: readonly ValidatorError[] | null | undefined): Failure[] {
  return (errors ?? []).map((e) => {
    const p = e.params;
    let message = e.message ?? e.keyword;
    if (e.keyword === 'additionalProperties' && p['additionalProperty'] !== undefined) message += `: ${JSON.stringify(p['additionalProperty'])}`;
    else if (e.keyword === 'unevaluatedProperties' && p['unevaluatedProperty'] !== undefined) message += `: ${JSON.stringify(p['unevaluatedProperty'])}`;
    else if (e.keyword === 'enum' && Array.isArray(p['allowedValues'])) message += `: ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    else if (e.keyword === 'const' && 'allowedValue' in p) message += `: ${JSON.stringify(p['allowedValue'])}`;
    return { instancePath: e.instancePath, keyword: e.keyword, message };
  });
}

/** Validate one parsed value. */
export function checkValue(data: unknown, validate: ValidatorFn, dispatch?: PayloadDispatch): Verdict {
  if (!validate(data)) return { kind: 'invalid', failures: toFailures(validate.errors) };
  if (dispatch === undefined) return { kind: 'valid' };
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  const payload = typeof type === 'string' ? dispatch.payloadOf(type) : undefined;
  if (payload === undefined || payload((data as { payload?: unknown }).payload)) return { kind: 'valid' };
  return { kind: 'invalid', failures: toFailures(payload.errors).map((f) => ({ ...f, instancePath: `/payload${f.instancePath}` })) };
}

/** Parse and validate a JSON text. */
export function checkText(text: string, validate: ValidatorFn, dispatch?: PayloadDispatch): Verdict {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const { message, line, column, offset } = parsed;
    return { kind: 'malformed', message, ...(line !== undefined ? { line, column: column!, offset: offset! } : {}) };
  }
  return checkValue(parsed.value, validate, dispatch);
}
