/**
 * Per-tenant bounds on the state a caller can make the runtime keep (issue 12 item 8b). One mechanism for every
 * bounded resource: a `TenantBound` counts the keys each tenant holds, oldest first, and at its limit either
 * refuses the next one (`refuse`: a QuotaExceededError, 429 `quota_exceeded`, before anything is stored) or names
 * the oldest ones to retire (`evict-oldest`), whichever the resource documents.
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

export type BoundPolicy = 'refuse' | 'evict-oldest';

/** The keys each tenant holds under one bound, in the order they were added. */
export class TenantBound<K> {
  readonly #held = new Map<string, Set<K>>();

  readonly resource: string;
  readonly limit: number;
  readonly policy: BoundPolicy;
  constructor(resource: string, limit: number, policy: BoundPolicy) {
    this.resource = resource;
    this.limit = limit;
    this.policy = policy;
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`the bound on ${resource} must be a positive integer, got ${limit}`);
  }

  /** How many keys `tenant` holds. */
  count(tenant: string): number {
    return this.#held.get(tenant)?.size ?? 0;
  }

  /** Throw QuotaExceededError when `tenant` is at a `refuse` bound; call before storing what `add` will count. */
  check(tenant: string): void {
    if (this.policy === 'refuse' && this.count(tenant) >= this.limit) throw new QuotaExceededError(this.resource, this.limit);
  }

  /**
   * Count `key` for `tenant` (a key already held keeps its place). A `refuse` bound at its limit throws instead; an
   * `evict-oldest` bound drops and returns the oldest keys that no longer fit, for the caller to retire.
   */
  add(tenant: string, key: K): readonly K[] {
    const held = this.#held.get(tenant);
    if (held?.has(key) === true) return [];
    this.check(tenant);
    const set = held ?? new Set<K>();
    if (held === undefined) this.#held.set(tenant, set);
    set.add(key);
    const evicted: K[] = [];
    for (const oldest of set) {
      if (set.size <= this.limit) break;
      set.delete(oldest);
      evicted.push(oldest);
    }
    return evicted;
  }

  /** Stop counting `key` for `tenant` (it was retired or ended); false when it was not held. */
  delete(tenant: string, key: K): boolean {
    const held = this.#held.get(tenant);
    if (held === undefined || !held.delete(key)) return false;
    if (held.size === 0) this.#held.delete(tenant);
    return true;
  }

  /** The keys `tenant` holds, oldest first. */
  keys(tenant: string): readonly K[] {
    return [...(this.#held.get(tenant) ?? [])];
  }
}
