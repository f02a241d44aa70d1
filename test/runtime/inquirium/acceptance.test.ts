import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyLayers, decideElement, grantLayer, OUTCOMES, validateModelAcceptance, type AcceptanceLayer, type ElementOutcome } from '../../../runtime/inquirium/acceptance.ts';
import { filterCandidates, isLocal, selectRuntime, type RuntimeCandidate } from '../../../runtime/inquirium/selection.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { CLASSIFICATIONS } from '../../../runtime/inquirium/lattice.ts';
import { acceptance, candidate, element } from './helpers.ts';

const local = acceptance('community');
const strict = { onContextDenied: 'fail_closed' as const, allowDeclassification: false };

describe('per-element acceptance', () => {
  it('includes what the model accepts', () => expect(decideElement(element('a', 'public'), local, strict)).toMatchObject({ outcome: 'include', passedAs: 'public' }));
  it('declassifies when the element allows it and policy permits', () => {
    expect(decideElement(element('a', 'personal', { declassifiable: true }), local, { ...strict, allowDeclassification: true })).toMatchObject({ outcome: 'declassify', passedAs: 'community' });
    // policy does not permit: no declassification even for a declassifiable element
    expect(decideElement(element('a', 'personal', { declassifiable: true }), local, strict).outcome).toBe('fail');
  });
  it('drops with trace under lenient policy', () => expect(decideElement(element('a', 'personal'), local, { ...strict, onContextDenied: 'drop_with_trace' })).toMatchObject({ outcome: 'drop', reason: 'above-acceptance' }));
  it('fails closed otherwise', () => expect(decideElement(element('a', 'personal'), local, strict)).toMatchObject({ outcome: 'fail', reason: 'above-acceptance-fail-closed' }));
  it('unknown classification fails closed even for a model that accepts community', () => {
    expect(decideElement(element('a', 'mystery'), local, strict)).toMatchObject({ classification: 'personal', outcome: 'fail' });
    expect(decideElement(element('a', undefined), local, strict).outcome).toBe('fail');
    expect(decideElement(element('a', 'mystery'), acceptance('personal'), strict).outcome).toBe('include');
  });
  it('an explicit accepts list and requires_declassification_above narrow the ceiling', () => {
    expect(decideElement(element('a', 'public'), { ...local, accepts: ['community'] }, strict).outcome).toBe('fail');
    expect(decideElement(element('a', 'community'), { ...acceptance('personal'), requires_declassification_above: 'public' }, strict).outcome).toBe('fail');
  });
  it('the effective outcome across random layer stacks is the meet and a dropped element is never re-admitted (property)', () => {
    const outcome = fc.constantFrom<ElementOutcome>(...OUTCOMES);
    fc.assert(
      fc.property(fc.array(fc.array(outcome, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), (stack) => {
        const elements = stack[0]!.map((_, i) => element(`e${i}`, 'public'));
        const seen: { layer: number; element: string; prior: ElementOutcome }[] = [];
        const layers: AcceptanceLayer[] = stack.map((row, li) => ({
          name: `layer-${li}`,
          decide: (e, prior) => {
            seen.push({ layer: li, element: e['element/id'], prior });
            return { outcome: row[Number(e['element/id'].slice(1)) % row.length]!, reason: `r${li}` };
          },
        }));
        const decisions = applyLayers(elements, layers);
        decisions.forEach((d, ei) => {
          const proposals = stack.map((row) => row[ei % row.length]!);
          // oracle: the most restrictive proposal by rank
          const meet = proposals.reduce((a, b) => (OUTCOMES.indexOf(b) > OUTCOMES.indexOf(a) ? b : a), 'include' as ElementOutcome);
          expect(d.effective).toBe(meet);
          // once any layer dropped (or failed) the element, every later layer sees it dropped and it stays out
          const firstOut = proposals.findIndex((o) => o === 'drop' || o === 'fail');
          if (firstOut !== -1) {
            expect(['drop', 'fail']).toContain(d.effective);
            for (const s of seen.filter((x) => x.element === d.elementId && x.layer > firstOut)) expect(['drop', 'fail']).toContain(s.prior);
            for (const step of d.steps.slice(firstOut)) expect(['drop', 'fail']).toContain(step.effective);
          }
          // the effective outcome never loosens from one step to the next
          for (let i = 1; i < d.steps.length; i++) expect(OUTCOMES.indexOf(d.steps[i]!.effective)).toBeGreaterThanOrEqual(OUTCOMES.indexOf(d.steps[i - 1]!.effective));
        });
      }),
      { numRuns: 400 },
    );
  });
  it('a layer that proposes include after a drop is recorded but ignored, and the trace names the layer that decided', () => {
    const dropper: AcceptanceLayer = { name: 'middleware', decide: () => ({ outcome: 'drop', reason: 'redacted-by-middleware' }) };
    const includer: AcceptanceLayer = { name: 'late', decide: () => ({ outcome: 'include', reason: 'looks-fine' }) };
    const [d] = applyLayers([element('x', 'public')], [dropper, includer]);
    expect(d).toMatchObject({ effective: 'drop', decidedBy: 'middleware', reason: 'redacted-by-middleware' });
    expect(d!.steps.map((s) => [s.layer, s.proposed, s.effective])).toEqual([['middleware', 'drop', 'drop'], ['late', 'include', 'drop']]);
  });
  it('without an operator grant an element is unavailable (drop or fail per policy)', () => {
    expect(grantLayer('fail_closed').decide(element('x', 'public'), 'include')).toEqual({ outcome: 'fail', reason: 'no-operator-grant' });
    expect(grantLayer('drop_with_trace').decide(element('x', 'public'), 'include').outcome).toBe('drop');
    expect(grantLayer('fail_closed').decide(element('x', 'public', { 'grant/ref': 'grant:1' }), 'include').outcome).toBe('include');
  });
  it('a remote provider with a ceiling above public needs an operator acknowledgement covering it', () => {
    const remote = acceptance('community', 'http_remote');
    expect(validateModelAcceptance(remote).map((i) => i.code)).toEqual(['remote-high-ceiling-without-acknowledgement']);
    expect(validateModelAcceptance(acceptance('community', 'http_remote', 'public')).map((i) => i.code)).toEqual(['acknowledgement-below-ceiling']);
    expect(validateModelAcceptance(acceptance('community', 'http_remote', 'community'))).toEqual([]);
    expect(validateModelAcceptance(acceptance('public', 'http_remote'))).toEqual([]);
    expect(validateModelAcceptance(acceptance('personal', 'http_local'))).toEqual([]);
    // the schema gate agrees: an unacknowledged remote ceiling above public is not even a valid document
    expect(checkDto('inquirium.model-acceptance.v1', remote).map((f) => f.keyword)).toContain('required');
    expect(checkDto('inquirium.model-acceptance.v1', acceptance('community', 'http_remote', 'community'))).toEqual([]);
  });
  it('the acknowledgement rule holds for every tier combination (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CLASSIFICATIONS), fc.option(fc.constantFrom(...CLASSIFICATIONS), { nil: undefined }), fc.boolean(), (tier, ack, remote) => {
        const issues = validateModelAcceptance(acceptance(tier, remote ? 'http_remote' : 'http_local', ack));
        const ok = !remote || tier === 'public' || (ack !== undefined && CLASSIFICATIONS.indexOf(ack) >= CLASSIFICATIONS.indexOf(tier));
        expect(issues.length === 0).toBe(ok);
      }),
    );
  });
});

describe('runtime selection', () => {
  it('local-only keeps only local transports; an empty list is handler-unavailable, never a remote fallback', () => {
    const r = selectRuntime([candidate('cloud', 'http_remote', 'healthy', acceptance('public', 'http_remote'))], { locality: 'local_only', operation: 'generate' });
    expect(r).toMatchObject({ kind: 'handler-unavailable', reason: 'no-local-candidate' });
    expect(r.decisions).toEqual([{ runtimeRef: 'runtime/cloud', kept: false, reason: 'not-local' }]);
  });
  it('prefers a healthy local candidate; unhealthy and degraded ones are skipped', () => {
    const r = selectRuntime([candidate('cloud', 'http_remote'), candidate('sick', 'http_local', 'unhealthy'), candidate('slow', 'http_local', 'degraded'), candidate('ollama', 'http_local')], { locality: 'local_only', operation: 'generate' });
    expect(r.kind === 'use-runtime' && r.candidate['runtime/ref']).toBe('runtime/ollama');
  });
  it('local-only never returns a remote runtime under any candidate list (property)', () => {
    const c = fc.record({
      ref: fc.string({ minLength: 1, maxLength: 5 }),
      t: fc.constantFrom<RuntimeCandidate['transport_kind']>('http_local', 'command_stdio', 'http_remote'),
      h: fc.constantFrom<'healthy' | 'degraded' | 'unhealthy'>('healthy', 'degraded', 'unhealthy'),
      tier: fc.constantFrom(...CLASSIFICATIONS),
      ack: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(c, { maxLength: 8 }), fc.constantFrom<'deny' | 'allow_accepting_remote' | undefined>('deny', 'allow_accepting_remote', undefined), (cs, egress) => {
        const list = cs.map((x) => candidate(x.ref, x.t, x.h, acceptance(x.tier, x.t, x.ack ? 'personal' : undefined)));
        const r = selectRuntime(list, { locality: 'local_only', operation: 'generate', ...(egress ? { egress } : {}) });
        if (r.kind === 'use-runtime') expect(isLocal(r.candidate)).toBe(true);
        else expect(list.some((x) => isLocal(x) && x.health.status === 'healthy')).toBe(false);
        expect(filterCandidates(list, { locality: 'local_only', operation: 'generate' }).kept.every(isLocal)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
  it('remote_allowed admits a remote candidate only with valid acceptance covering every label, and never when egress is denied', () => {
    const noAck = candidate('cloud', 'http_remote', 'healthy', acceptance('community', 'http_remote'));
    expect(selectRuntime([noAck], { locality: 'remote_allowed', operation: 'generate' }).kind).toBe('handler-unavailable');
    const pub = candidate('cloud', 'http_remote', 'healthy', acceptance('public', 'http_remote'));
    expect(selectRuntime([pub], { locality: 'remote_allowed', operation: 'generate', contextLabels: ['public'] }).kind).toBe('use-runtime');
    expect(selectRuntime([pub], { locality: 'remote_allowed', operation: 'generate', contextLabels: ['personal'] })).toMatchObject({ kind: 'handler-unavailable', decisions: [{ reason: 'context-above-acceptance' }] });
    expect(selectRuntime([pub], { locality: 'remote_allowed', operation: 'generate', contextLabels: ['public'], egress: 'deny' })).toMatchObject({ kind: 'handler-unavailable', decisions: [{ reason: 'egress-denied' }] });
    expect(selectRuntime([candidate('bare', 'http_remote')], { locality: 'remote_allowed', operation: 'generate', contextLabels: ['public'] }).kind).toBe('handler-unavailable');
  });
});
