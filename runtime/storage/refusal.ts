/**
 * How a store operation refuses a request: it throws a `WopkitError` (a bound reached, a run of another tenant, a
 * claim already taken, a decision made on a read that went stale), the request's transaction rolls back, and the
 * caller gets the error — the same object from an in-process store, an equal one rebuilt from its wire form when
 * the operation ran on the SQLite writer thread (`toWireRefusal` / `fromWireRefusal`).
 */
import { WopkitError, type WireAnswer, type WireError } from '../shared/errors.ts';
import { QuotaExceededError } from '../shared/quota.ts';
import { StoreCorruptError } from './corrupt.ts';

/** A refusal raised by a store operation; `code` says which (callers branch on it). */
export class StoreRefusal extends WopkitError<string> {
  constructor(code: string, message: string, wire?: WireAnswer) {
    super(code, message, wire);
  }
}

/**
 * A decision was made on a read another request changed before this one committed (a secret registry, a run's
 * state, a predicate): nothing was written; the request is re-run from its reads by its unit of work (unit-of-work.ts).
 */
export const isStale = (err: unknown): boolean => err instanceof WopkitError && err.code === 'stale_read';

/** The refusal as plain data, to cross a thread boundary. */
export interface WireRefusal {
  readonly code: string;
  readonly message: string;
  readonly wire: WireError;
  readonly quota?: { readonly resource: string; readonly limit: number };
  /** A row an operation read did not decode (a column reader's StoreCorruptError): rebuilt as one. */
  readonly corrupt?: { readonly location: string; readonly detail: string };
}

export function toWireRefusal(err: WopkitError): WireRefusal {
  return {
    code: err.code,
    message: err.message,
    wire: err.toWire(),
    ...(err instanceof QuotaExceededError ? { quota: { resource: err.resource, limit: err.limit } } : {}),
    ...(err instanceof StoreCorruptError ? { corrupt: { location: err.location, detail: err.detail } } : {}),
  };
}

export function fromWireRefusal(w: WireRefusal): WopkitError {
  if (w.quota !== undefined) return new QuotaExceededError(w.quota.resource, w.quota.limit);
  if (w.corrupt !== undefined) return new StoreCorruptError(w.corrupt.location, w.corrupt.detail);
  return new StoreRefusal(w.code, w.message, w.wire);
}
