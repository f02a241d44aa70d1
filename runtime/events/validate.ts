/**
 * Run-event validation for the runtime: the single place the runtime gets its event validator from. Both checks
 * are the generated ones (`generated/run-events/`): the envelope, then the payload of a known type through the
 * `x-type-index` of run-event-payloads.schema.json; unknown types pass on the envelope alone (consumers must
 * tolerate them). This module only gives them the runtime's result shape.
 */
import { validateRunEvent as generatedValidateRunEvent, validateRunEventPayload, type RunEventValidation } from '../../generated/run-events/index.ts';
import type { GuardFailure } from '../../generated/guards/index.ts';

/** One failure: a JSON pointer into the event (`/payload/…` for the payload) and what was expected there. */
export type EventValidationFailure = Readonly<Pick<GuardFailure, 'instancePath' | 'message'>>;
export interface EventValidationResult {
  readonly ok: boolean;
  /** Whether the type is one the corpus defines (its payload was checked too). */
  readonly known: boolean;
  readonly failures: readonly EventValidationFailure[];
}

const toResult = (r: RunEventValidation): EventValidationResult => ({
  ok: r.valid,
  known: r.known,
  failures: r.failures.map(({ instancePath, message }) => ({ instancePath, message })),
});

/** Validate a complete event (envelope + payload). Never throws. */
export const validateRunEvent = (event: unknown): EventValidationResult => toResult(generatedValidateRunEvent(event));

/**
 * Check a payload before any side effect, so a module can refuse to start a mutation whose closing event would be
 * refused by the log (atomicity: "no archive without its event"). An unknown type passes (`known: false`); the log
 * validates every event again on append.
 */
export const validatePayload = (type: string, payload: unknown): EventValidationResult => toResult(validateRunEventPayload(type, payload));
