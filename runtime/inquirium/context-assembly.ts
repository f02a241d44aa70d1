/**
 * Context assembly under grants (Solution 045 § Granted Context And Classification; P066 Decision 4): a context
 * assembly request names sources and the grant for each; the host resolves a source only through its own gate
 * (`ContextResolver`) and only when the grant, read from the store at assembly time, admits this participant's
 * session; every element the gate returns is admitted again on its own (source, ceiling, egress). Nothing is
 * cached: a grant revoked or expired on any host admits nothing afterwards.
 *
 * Refusals follow the turn's `on_context_denied`: `fail_closed` throws `ContextDeniedError` at the first refusal;
 * `drop_with_trace` drops what is refused and records why.
 */
import type { InquiriumContextSource } from '../../generated/ts/inquirium.context-assembly.request.v1.ts';
import type { InquiriumContextElement } from '../../generated/ts/inquirium.context-element.v1.ts';
import { WopkitError } from '../shared/errors.ts';
import { assertDto } from './dto.ts';
import { admitContext, admitSource, type ContextGrant, type GrantRefusal, type Grants, type GrantUse } from './grants.ts';
import type { Tx } from '../storage/index.ts';

export type ContextElement = InquiriumContextElement;

/** The host-owned gate that reads a granted source (relationship policy, Memarium read contract, a lease, …). */
export interface ContextResolver {
  resolve(source: Readonly<InquiriumContextSource>, grant: Readonly<ContextGrant>): Promise<readonly ContextElement[]>;
}

/** One decision per source and per element: what was admitted or dropped, and why (content-free). */
export interface AssemblyDecision {
  readonly 'grant/ref': string;
  readonly 'source/kind': string;
  readonly 'element/id'?: string;
  readonly outcome: 'include' | 'drop';
  readonly reason: 'grant-admitted' | GrantRefusal | 'over-max-elements';
}

export interface AssembledContext {
  readonly elements: readonly ContextElement[];
  readonly decisions: readonly AssemblyDecision[];
}

/** A refusal under fail_closed: 403 forbidden, naming the grant and the reason only. */
export class ContextDeniedError extends WopkitError<'context-denied'> {
  constructor(readonly decision: AssemblyDecision) {
    super('context-denied', `context refused: ${decision.reason}`, { error: 'forbidden', message: 'context refused by its grant', details: { 'grant/ref': decision['grant/ref'], reason: decision.reason } });
  }
}

export interface AssemblyUse extends GrantUse {
  readonly onDenied: 'fail_closed' | 'drop_with_trace';
}

/** Assemble the requested context for one participant's session under the grants as the store holds them now. */
export async function assembleContext(tx: Tx, grants: Grants, request: unknown, use: AssemblyUse, resolver: ContextResolver): Promise<AssembledContext> {
  const req = assertDto('inquirium.context-assembly.request.v1', request);
  const elements: ContextElement[] = [];
  const decisions: AssemblyDecision[] = [];
  const decide = (d: AssemblyDecision): boolean => {
    decisions.push(d);
    if (d.outcome === 'drop' && use.onDenied === 'fail_closed' && d.reason !== 'over-max-elements') throw new ContextDeniedError(d);
    return d.outcome === 'include';
  };
  for (const source of req.sources ?? []) {
    const at = { 'grant/ref': source['grant/ref'], 'source/kind': source['source/kind'] };
    const view = await grants.get(tx, 'context', source['grant/ref']);
    const gate = admitSource(view, source, use);
    if (!decide({ ...at, outcome: gate.admit ? 'include' : 'drop', reason: gate.admit ? 'grant-admitted' : gate.reason })) continue;
    let taken = 0;
    for (const raw of await resolver.resolve(source, view!.grant)) {
      const element = assertDto('inquirium.context-element.v1', raw);
      const one = { ...at, 'element/id': element['element/id'] };
      const admission = admitContext(view, element, use);
      if (!decide({ ...one, outcome: admission.admit ? 'include' : 'drop', reason: admission.admit ? 'grant-admitted' : admission.reason })) continue;
      if (source['max/elements'] !== undefined && taken >= source['max/elements']) {
        decisions[decisions.length - 1] = { ...one, outcome: 'drop', reason: 'over-max-elements' };
        continue;
      }
      taken++;
      elements.push(element);
    }
  }
  return { elements, decisions };
}
