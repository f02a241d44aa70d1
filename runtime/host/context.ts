/** What every route module gets: the two runtimes, the host's options, and small request helpers. */
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';
import type { OpenwopRuntime } from '../openwop/index.ts';
import type { InquiriumRuntime } from '../inquirium/index.ts';

/** Deliberately broken behaviours, for proving the conformance suite can fail (tests only). */
export interface HostMutations {
  /** Consolidation seam writes its secret canary around the SR-1 chokepoint. */
  readonly leakSecret?: boolean;
  /** Commitment seam puts the intention text on the fired event. */
  readonly leakIntention?: boolean;
  /** Commitment seam re-fires on every evaluation. */
  readonly refireCommitment?: boolean;
  /** Escalation fixture dispatches a below-floor decision without recording the escalation. */
  readonly skipEscalationEvent?: boolean;
  /** Read seams serve the tenant named in the memoryRef instead of the caller's tenant (CTI-1 broken). */
  readonly crossTenantRead?: boolean;
  /** Read seams ignore expiresAt (TTL broken). */
  readonly ignoreTtl?: boolean;
  /** A fork reads live memory instead of its snapshot (MAE-3 broken). */
  readonly forkReadsLive?: boolean;
}

export interface HostContext {
  readonly openwop: OpenwopRuntime;
  readonly inquirium: InquiriumRuntime;
  /** A second Inquirium runtime whose only candidate is remote: proves there is no remote fallback. */
  readonly inquiriumRemoteOnly: InquiriumRuntime;
  readonly mutations: HostMutations;
}

export interface Validator {
  (value: unknown): boolean;
  errors?: readonly { instancePath: string; message?: string }[] | null;
}

/** The parsed JSON body validated against a generated validator, or a 400 validation_failed with pointers. */
export function bodyOf<T>(req: FastifyRequest, validate: Validator): T {
  const body = req.body;
  if (!validate(body)) {
    throw new HttpError('validation_failed', 'request body does not match its schema', {
      failures: (validate.errors ?? []).slice(0, 20).map((e) => ({ instancePath: e.instancePath, message: (e.message ?? 'invalid').slice(0, 500) })),
    });
  }
  return body as T;
}

/** A plain-object body (for seams whose body is checked field by field). */
export function objectBody(req: FastifyRequest): Record<string, unknown> {
  const b = req.body;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new HttpError('validation_failed', 'request body must be a JSON object', { failures: [{ instancePath: '', message: 'must be object' }] });
  return b as Record<string, unknown>;
}

export function str(b: Record<string, unknown>, key: string, opts: { optional?: boolean; max?: number } = {}): string | undefined {
  const v = b[key];
  if (v === undefined && opts.optional) return undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > (opts.max ?? 1024)) throw new HttpError('validation_failed', `${key} must be a non-empty string`, { failures: [{ instancePath: `/${key}`, message: 'must be a non-empty string' }] });
  return v;
}

export function num(b: Record<string, unknown>, key: string, opts: { optional?: boolean; min?: number; max?: number } = {}): number | undefined {
  const v = b[key];
  if (v === undefined && opts.optional) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < (opts.min ?? -Infinity) || v > (opts.max ?? Infinity)) throw new HttpError('validation_failed', `${key} is out of range`, { failures: [{ instancePath: `/${key}`, message: 'must be a number in range' }] });
  return v;
}
