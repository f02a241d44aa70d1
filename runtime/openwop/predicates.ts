/**
 * An in-memory predicate source for predicate commitments (the RFC 0060 heartbeat substrate of a real host):
 * named boolean predicates per tenant, flipped by whoever observes the world (a test, a seam, an integration).
 */
import type { PredicateSource } from '../commitments/engine.ts';

export class PredicateBoard implements PredicateSource {
  readonly #values = new Map<string, boolean>();
  set(tenant: string, predicateId: string, value: boolean): void {
    this.#values.set(`${tenant}\u0000${predicateId}`, value);
  }
  evaluate(predicateId: string, tenantId: string): boolean {
    return this.#values.get(`${tenantId}\u0000${predicateId}`) === true;
  }
}
