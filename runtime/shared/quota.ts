/**
 * The refusal every per-tenant bound answers with. The counts themselves live in the store (`quotas`, moved in the
 * transaction that changes what they count: runtime/storage/ops/quota.ts), so every host of a fleet sees the same.
 */
import { WopkitError } from './errors.ts';

/** A tenant holds as many of `resource` as its bound allows: 429 `quota_exceeded {resource, limit}`; nothing changed. */
export class QuotaExceededError extends WopkitError<'quota_exceeded'> {
  readonly resource: string;
  readonly limit: number;
  constructor(resource: string, limit: number) {
    super('quota_exceeded', `quota exceeded: at most ${limit} ${resource} per tenant`, {
      error: 'quota_exceeded',
      message: `quota exceeded: at most ${limit} ${resource} per tenant`,
      details: { resource, limit },
    });
    this.resource = resource;
    this.limit = limit;
  }
}
