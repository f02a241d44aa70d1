/**
 * Run-event validation for the runtime: the single place the runtime gets its event validator from. It wraps
 * the generated validator (`generated/run-events/`): the envelope, then the payload of a known type through the
 * `x-type-index` of run-event-payloads.schema.json; unknown types pass on the envelope alone (consumers must
 * tolerate them).
 */
import { KNOWN_RUN_EVENT_TYPES, validateRunEvent as generatedValidateRunEvent } from '../../generated/run-events/index.ts';
import { toFailures } from '../../generated/guards/index.ts';
import * as V from '../../generated/validators/validators.js';
import type { Validator } from '../../generated/validators/validators.js';

export interface EventValidationFailure {
  readonly instancePath: string;
  readonly message: string;
}
export interface EventValidationResult {
  readonly ok: boolean;
  readonly known: boolean;
  readonly failures: readonly EventValidationFailure[];
}

/** Validate a complete event (envelope + payload). Never throws. */
export function validateRunEvent(event: unknown): EventValidationResult {
  const r = generatedValidateRunEvent(event);
  return { ok: r.valid, known: r.known, failures: r.failures.map((f) => ({ instancePath: f.instancePath, message: f.message })) };
}

const payloadValidators: ReadonlyMap<string, Validator<unknown>> = new Map<string, Validator<unknown>>([
  ['memory.compacted', V.validateMemoryCompactedPayload],
  ['memory.written', V.validateMemoryWrittenPayload],
  ['workspace.updated', V.validateWorkspaceUpdatedPayload],
]);

/**
 * Check a payload before any side effect, so a module can refuse to start a mutation whose closing event would be
 * refused by the log (atomicity: "no archive without its event"). Types without a payload validator here pass;
 * the log validates every event again on append.
 */
export function validatePayload(type: string, payload: unknown): EventValidationResult {
  const v = payloadValidators.get(type);
  if (v === undefined) return { ok: true, known: KNOWN_EVENT_TYPES.has(type), failures: [] };
  if (v(payload)) return { ok: true, known: true, failures: [] };
  return { ok: false, known: true, failures: toFailures(v.errors).map((f) => ({ instancePath: `/payload${f.instancePath}`, message: f.message })) };
}

/** Event types the runtime knows (the x-type-index keys). */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set<string>(KNOWN_RUN_EVENT_TYPES);
