/** Request helpers every route uses: the validated body, and the tenant of a memoryRef (or a 400 naming it). */
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';
import { parseMemoryRef } from '../memory/memory-ref.ts';

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

export function tenantOrThrow(ref: string): string {
  const p = parseMemoryRef(ref);
  if (p === null) throw new HttpError('validation_failed', 'memoryRef is malformed', { failures: [{ instancePath: '/memoryRef', message: 'must be mem://<tenant>/<scope>' }] });
  return p.tenant;
}
