/**
 * One base class for every error the runtime throws on purpose, so the host maps errors with one `instanceof`
 * instead of a table of class names.
 *
 * A `WopkitError` carries:
 * - `code` — its machine code: the wire `ErrorCode` where the error surfaces as itself
 *   (`token_budget_exceeded`, `replay_memory_snapshot_unavailable`, …), otherwise the module's own refusal code
 *   (`no_sources`, `consolidation_cross_tenant`, …) that callers branch on;
 * - `status` — the HTTP status the host answers with (from the one ErrorCode → status table below);
 * - `details` — content-free details the envelope carries: identifiers and counts, never entry content or secrets;
 * - `toWire()` — the error envelope (schemas/openwop/v1/error.schema.json) the host sends: the wire code, a fixed
 *   public message (never `message`, which may name internals) and the details.
 *
 * An error class that does not say how it reaches the wire is a server fault: `internal_error`, 500, with the
 * fixed message "internal error".
 */
import type { ErrorCode, ErrorEnvelope, ValidationFailure } from '../../generated/ts/error.ts';

/**
 * Upstream OpenWOP's spellings of two codes wopkit spells differently, each with the code the reference host sends
 * for the same failure. The schema's ErrorCode list accepts both spellings from any host; ours never sends these.
 */
export const UPSTREAM_SPELLINGS = {
  validation_error: 'validation_failed',
  unauthenticated: 'unauthorized',
} as const satisfies Readonly<Partial<Record<ErrorCode, ErrorCode>>>;

/** The wire codes the reference host sends: the schema's ErrorCode list without upstream's spellings. */
export type WireCode = Exclude<ErrorCode, keyof typeof UPSTREAM_SPELLINGS>;

/** HTTP status of each error code of the schema, ours and upstream's spellings alike (a spelling pair shares one). */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  validation_error: 400, unauthenticated: 401,
  invalid_json: 400, bad_request: 400, validation_failed: 400, unauthorized: 401, forbidden: 403, not_found: 404,
  method_not_allowed: 405, request_timeout: 408, payload_too_large: 413, unsupported_media_type: 415, conflict: 409,
  quota_exceeded: 429,
  replay_memory_snapshot_unavailable: 422, token_budget_exceeded: 422, compaction_redaction_failed: 422,
  capability_not_provided: 501, internal_error: 500, runner_unavailable: 503, interrupt_not_found: 404, interrupt_already_resolved: 409,
  invalid_cursor: 400, secret_registry_unavailable: 409, fork_point_invalid: 422,
};

/** Content-free details of an error envelope. */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/** The error envelope with a known code, read-only. */
export type WireError = Readonly<Omit<ErrorEnvelope, 'error' | 'details'> & { error: WireCode; details?: ErrorDetails }>;

/**
 * How an error class answers on the wire: the envelope code, and optionally a fixed public message (default
 * `<ClassName>: <code>`, which names nothing but the refusal) and details.
 */
export type WireAnswer = Pick<WireError, 'error'> & Partial<Pick<WireError, 'message' | 'details'>>;

const SERVER_FAULT: WireAnswer = { error: 'internal_error', message: 'internal error' };

export abstract class WopkitError<C extends string = string> extends Error {
  readonly code: C;
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  readonly #error: WireCode;
  readonly #publicMessage: string;

  protected constructor(code: C, message: string, wire: WireAnswer = SERVER_FAULT) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.#error = wire.error;
    this.status = HTTP_STATUS[wire.error];
    this.#publicMessage = wire.message ?? `${this.name}: ${code}`;
    this.details = wire.details;
  }

  /** The error envelope the host sends for this error. */
  toWire(): WireError {
    return { error: this.#error, message: this.#publicMessage, ...(this.details !== undefined ? { details: { ...this.details } } : {}) };
  }
}

/** A refusal the client can fix by changing its request: 400 `bad_request` naming the class and refusal code only. */
export const BAD_REQUEST: WireAnswer = { error: 'bad_request' };

/** The host does not provide `capability` (a dotted path in the discovery document): 501 `capability_not_provided`. */
export const capabilityNotProvided = (capability: string): WireAnswer => ({
  error: 'capability_not_provided',
  message: `this host does not provide ${capability}`,
  details: { capability },
});

/** At most 20 failures of at most 500 characters each: the `failures` of a `validation_failed` envelope. */
export function validationFailures(failures: readonly Readonly<ValidationFailure>[]): ValidationFailure[] {
  return failures.slice(0, 20).map((f) => ({ instancePath: f.instancePath, message: f.message.slice(0, 500) }));
}
