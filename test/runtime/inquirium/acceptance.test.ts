import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyLayers, decideElement, narrow, OUTCOMES, validateModelAcceptance, type AcceptanceLayer, type ElementOutcome, type ModelAcceptance } from '../../../runtime/inquirium/acceptance.ts';
import { filterCandidates, isLocal, selectRuntime, type RuntimeCandidate } from '../../../runtime/inquirium/selection.ts';

const local: ModelAcceptance = { 'model.binding/ref': 'model.binding/local', accepts_max_tier: 'community', transport_kind: 'http_local', remote_provider: false };
const el = (id: string, classification?: unknown, declassifiable = false) => ({ 'element/id': id, 'source/kind': 'memarium', classification, declassifiable });

describe('per-element acceptance', () => {
  const strict = { onContextDenied: 'fail_closed' as const, allowDeclassification: false };
  it('includes what the model accepts', () => expect(decideElement(el('a', 'public'), local, strict).outcome).toBe('include'));
  it('declassifies when the element allows it and policy permits', () => {
    expect(decideElement(el('a', 'personal', true), local, { ...strict, allowDeclassification: true })).toMatchObject({ outcome: 'declassify', passedAs: 'community' });
  });
  it('drops with trace under lenient policy', () => expect(decideElement(el('a', 'personal'), local, { ...strict, onContextDenied: 'drop_with_trace' }).outcome).toBe('drop'));
  it('fails closed otherwise', () => expect(decideElement(el('a', 'personal'), local, strict).outcome).toBe('fail'));
  it('unknown classification fails closed even for a model that accepts community', () => {
    expect(decideElement(el('a', 'mystery'), local, strict)).toMatchObject({ classification: 'personal', outcome: 'fail' });
    expect(decideElement(el('a', undefined), local, strict).outcome).toBe('fail');
  });
  it('across random layer stacks the effective outcome is the meet and a drop is never re-admitted (property)', () => {
    const outcome = fc.constantFrom<ElementOutcome>(...OUTCOMES);
    fc.assert(
      fc.property(fc.array(fc.array(outcome, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }), (stack) => {
        const elements = stack[0]!.map((_, i) => el(`e${i}`, 'public'));
        const layers: AcceptanceLayer[] = stack.map((row) => (e) => row[Number(e['element/id'].slice(1)) % row.length]!);
        for (const d of applyLayers(elements, layers)) {
          expect(d.effective).toBe(d.perLayer.reduce(narrow, 'include' as ElementOutcome));
          const firstDrop = d.perLayer.findIndex((o) => o === 'drop' || o === 'fail');
          if (firstDrop !== -1) expect(['drop', 'fail']).toContain(d.effective);
        }
      }),
    );
  });
  it('a remote provider with a ceiling above public needs an operator acknowledgement covering it', () => {
    const remote: ModelAcceptance = { 'model.binding/ref': 'model.binding/r', accepts_max_tier: 'community', transport_kind: 'http_remote', remote_provider: true };
    expect(validateModelAcceptance(remote).map((i) => i.code)).toEqual(['remote-high-ceiling-without-acknowledgement']);
    expect(validateModelAcceptance({ ...remote, operator_acknowledgement: { acknowledged_max_tier: 'public' } }).map((i) => i.code)).toEqual(['acknowledgement-below-ceiling']);
    expect(validateModelAcceptance({ ...remote, operator_acknowledgement: { acknowledged_max_tier: 'community' } })).toEqual([]);
    expect(validateModelAcceptance({ ...remote, accepts_max_tier: 'public' })).toEqual([]);
  });
});

const candidate = (ref: string, transport: RuntimeCandidate['transport_kind'], status: 'healthy' | 'unhealthy' = 'healthy', acceptance?: ModelAcceptance): RuntimeCandidate => ({
  'runtime/ref': `runtime/${ref}`, 'model.binding/ref': `model.binding/${ref}`, transport_kind: transport, operations: ['generate'], health: { status }, ...(acceptance ? { acceptance } : {}),
});

describe('runtime selection', () => {
  it('local-only keeps only local transports; an empty list is handler-unavailable, never a remote fallback', () => {
    const r = selectRuntime([candidate('cloud', 'http_remote')], { locality: 'local_only', operation: 'generate' });
    expect(r).toMatchObject({ kind: 'handler-unavailable', reason: 'no-local-candidate' });
  });
  it('prefers a healthy local candidate', () => {
    const r = selectRuntime([candidate('cloud', 'http_remote'), candidate('sick', 'http_local', 'unhealthy'), candidate('ollama', 'http_local')], { locality: 'local_only', operation: 'generate' });
    expect(r.kind === 'use-runtime' && r.candidate['runtime/ref']).toBe('runtime/ollama');
  });
  it('local-only never returns a remote runtime under any candidate list (property)', () => {
    const c = fc.record({ ref: fc.string({ minLength: 1, maxLength: 5 }), t: fc.constantFrom<RuntimeCandidate['transport_kind']>('http_local', 'command_stdio', 'http_remote'), h: fc.constantFrom<'healthy' | 'unhealthy'>('healthy', 'unhealthy') });
    fc.assert(
      fc.property(fc.array(c, { maxLength: 8 }), (cs) => {
        const list = cs.map((x) => candidate(x.ref, x.t, x.h, { 'model.binding/ref': 'model.binding/x', accepts_max_tier: 'public', transport_kind: x.t, remote_provider: x.t === 'http_remote' }));
        const r = selectRuntime(list, { locality: 'local_only', operation: 'generate' });
        if (r.kind === 'use-runtime') expect(isLocal(r.candidate)).toBe(true);
        else expect(list.some((x) => isLocal(x) && x.health.status === 'healthy')).toBe(false);
        expect(filterCandidates(list, { locality: 'local_only', operation: 'generate' }).kept.every(isLocal)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
  it('remote_allowed admits a remote candidate only when its acceptance is valid and covers the context', () => {
    const noAck = candidate('cloud', 'http_remote', 'healthy', { 'model.binding/ref': 'model.binding/c', accepts_max_tier: 'community', transport_kind: 'http_remote', remote_provider: true });
    expect(selectRuntime([noAck], { locality: 'remote_allowed', operation: 'generate' }).kind).toBe('handler-unavailable');
    const pub = candidate('cloud', 'http_remote', 'healthy', { 'model.binding/ref': 'model.binding/c', accepts_max_tier: 'public', transport_kind: 'http_remote', remote_provider: true });
    expect(selectRuntime([pub], { locality: 'remote_allowed', operation: 'generate', contextLabels: ['public'] }).kind).toBe('use-runtime');
    expect(selectRuntime([pub], { locality: 'remote_allowed', operation: 'generate', contextLabels: ['personal'] }).kind).toBe('handler-unavailable');
  });
});
