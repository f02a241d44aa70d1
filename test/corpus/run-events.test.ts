/**
 * validateRunEvent (the first major's module, generated/run-events/): envelope first, O(1) dispatch on type, unknown
 * types tolerated with the envelope checked. The v2 module: test/corpus/v2-generated.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { validateRunEvent, KNOWN_RUN_EVENT_TYPES, isKnownRunEvent, type RunEventPayloadMap } from '../../generated/run-events/index.ts';
import { loadCorpus } from '../../generator/load.ts';
import { REPO } from '../generator/helpers.ts';

const loaded = loadCorpus(REPO);
const corpus = { schemas: loaded.schemas.filter((s) => s.major === 'v1'), examples: loaded.examples.filter((e) => e.major === 'v1') };
const base = { eventId: 'e-1', runId: 'run-1', timestamp: '2026-01-01T00:00:00Z', sequence: 3 };

describe('validateRunEvent', () => {
  it('knows exactly the x-type-index types', () => {
    const payloads = corpus.schemas.find((s) => s.stem === 'run-event-payloads')!;
    expect([...KNOWN_RUN_EVENT_TYPES]).toEqual(Object.keys(payloads.schema['x-type-index'] as object).sort());
  });

  it('the envelope\'s RunEventType enum lists exactly the x-type-index types', () => {
    const envelope = corpus.schemas.find((s) => s.stem === 'run-event' && s.family === 'openwop')!;
    const defs = envelope.schema['$defs'] as Record<string, { enum?: string[] }> | undefined;
    const listed = defs?.['RunEventType']?.enum;
    if (listed === undefined) return; // the envelope keeps no list of its own
    expect([...listed].sort()).toEqual([...KNOWN_RUN_EVENT_TYPES]);
  });

  it('accepts the valid run-event examples and rejects the invalid ones at the declared pointer', () => {
    for (const ex of corpus.examples.filter((e) => e.target === 'run-event')) {
      const res = validateRunEvent(ex.instance);
      if (ex.kind === 'valid') expect(res, ex.path).toMatchObject({ valid: true, failures: [] });
      else {
        expect(res.valid, ex.path).toBe(false);
        expect(res.failures).toContainEqual(expect.objectContaining({ instancePath: ex.expect!.instancePath, keyword: ex.expect!.keyword }));
      }
    }
  });

  it('dispatches every payload example through its type', () => {
    const payloads = corpus.schemas.find((s) => s.stem === 'run-event-payloads')!;
    const index = payloads.schema['x-type-index'] as Record<string, string>;
    let n = 0;
    for (const [type, ref] of Object.entries(index)) {
      const def = ref.split('/').pop()!;
      for (const ex of corpus.examples.filter((e) => e.target === `run-event-payloads--${def}`)) {
        n++;
        const res = validateRunEvent({ ...base, type, payload: ex.instance });
        if (ex.kind === 'valid') expect(res, ex.path).toEqual({ valid: true, known: true, type, failures: [] });
        else if (ex.instance !== null && typeof ex.instance === 'object' && !Array.isArray(ex.instance)) {
          expect(res.valid, ex.path).toBe(false);
          expect(res.known).toBe(true);
          expect(res.failures).toContainEqual(expect.objectContaining({ instancePath: `/payload${ex.expect!.instancePath}`, keyword: ex.expect!.keyword }));
        }
      }
    }
    expect(n).toBeGreaterThan(15);
  });

  it('tolerates an unknown well-formed type: envelope checked, payload not, known: false', () => {
    expect(validateRunEvent({ ...base, type: 'future.thing-happened', payload: { anything: [1, 2] } })).toEqual({
      valid: true,
      known: false,
      type: 'future.thing-happened',
      failures: [],
    });
    const badEnvelope = validateRunEvent({ ...base, type: 'future.thing', payload: {}, sequence: -1 });
    expect(badEnvelope).toMatchObject({ valid: false, known: false });
    expect(badEnvelope.failures).toContainEqual(expect.objectContaining({ instancePath: '/sequence', keyword: 'minimum' }));
    expect(validateRunEvent({ ...base, type: 'not a type!', payload: {} }).valid).toBe(false);
  });

  it('a known type with a wrong payload fails with /payload pointers; the envelope is checked first', () => {
    const type = KNOWN_RUN_EVENT_TYPES[0]!;
    const res = validateRunEvent({ ...base, type, payload: { memoryRef: 42 } });
    expect(res.valid).toBe(false);
    expect(res.known).toBe(true);
    expect(res.failures.every((f) => f.instancePath.startsWith('/payload'))).toBe(true);
    const env = validateRunEvent({ type, payload: {} });
    expect(env.valid).toBe(false);
    expect(env.failures.some((f) => f.keyword === 'required' && f.instancePath === '')).toBe(true);
    expect(validateRunEvent(null)).toMatchObject({ valid: false, known: false, type: undefined });
  });

  it('isKnownRunEvent narrows the payload by type', () => {
    const ev: unknown = { ...base, type: 'memory.compacted', payload: {} };
    if (isKnownRunEvent(ev) && ev.type === 'memory.compacted') {
      const p: RunEventPayloadMap['memory.compacted'] = ev.payload;
      expect(p).toBeDefined();
    }
  });
});
