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
