/**
 * An in-memory predicate source for predicate commitments (the RFC 0060 heartbeat substrate of a real host):
 * named boolean predicates per tenant, flipped by whoever observes the world (a test, a seam, an integration).
 */
import type { PredicateSource } from '../commitments/engine.ts';

export class PredicateBoard implements PredicateSource {
  readonly #values = new Map<string, boolean>();
  readonly #watchers: ((predicateId: string, tenantId: string) => void)[] = [];
  /** Set a predicate; watchers hear of it when the value changes (so a commitment tick evaluates only that one). */
  set(tenant: string, predicateId: string, value: boolean): void {
    const key = `${tenant}\u0000${predicateId}`;
    const before = this.#values.get(key) === true;
    this.#values.set(key, value);
    if (before !== value) for (const w of this.#watchers) w(predicateId, tenant);
  }
  watch(onChange: (predicateId: string, tenantId: string) => void): void {
    this.#watchers.push(onChange);
  }
  evaluate(predicateId: string, tenantId: string): boolean {
    return this.#values.get(`${tenantId}\u0000${predicateId}`) === true;
  }
}
