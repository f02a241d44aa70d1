import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InvalidRunEventError, RunEventLog } from '../../../runtime/events/log.ts';
import { validateRunEvent } from '../../../runtime/events/validate.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';

describe('run event log', () => {
  it('appends with sequence 0, 1, 2 … per run', () => {
    const log = new RunEventLog(new ManualClock(), new SequentialIds());
    log.append('r1', { type: 'run.started', payload: { workflowId: 'wf' } });
    log.append('r2', { type: 'run.started', payload: { workflowId: 'wf' } });
    log.append('r1', { type: 'run.completed', payload: { status: 'completed' } });
    expect(log.read('r1').map((e) => e.sequence)).toEqual([0, 1]);
    expect(log.read('r2').map((e) => e.sequence)).toEqual([0]);
    expect(log.read('r1', 1).map((e) => e.type)).toEqual(['run.completed']);
  });
  it('refuses an invalid event and does not append it', () => {
    const log = new RunEventLog(new ManualClock(), new SequentialIds());
    // @ts-expect-error a known type's payload is checked at compile time too (memoryRef is missing)
    expect(() => log.append('r1', { type: 'commitment.fired', payload: { commitmentId: 'c', condition: 'time' } })).toThrow(InvalidRunEventError);
    expect(log.read('r1')).toEqual([]);
    expect(log.lastSequence('r1')).toBe(-1);
  });
  it('accepts unknown event types on the envelope alone', () => {
    const log = new RunEventLog(new ManualClock(), new SequentialIds());
    const e = log.append('r1', { type: 'vendor.acme.custom', payload: { anything: 1 } });
    expect(validateRunEvent(e)).toEqual({ ok: true, known: false, failures: [] });
  });
  it('sequences stay gap-free and increasing under random appends, including refused ones (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.boolean()), { maxLength: 50 }), (ops) => {
        const log = new RunEventLog(new ManualClock(), new SequentialIds());
        for (const [run, valid] of ops) {
          try {
            // @ts-expect-error the refused branch (run.failed without errorCode) does not compile either
            log.append(run, valid ? { type: 'run.started', payload: { workflowId: 'w' } } : { type: 'run.failed', payload: { status: 'failed' } });
          } catch (e) { expect(e).toBeInstanceOf(InvalidRunEventError); }
        }
        for (const run of ['a', 'b']) expect(log.read(run).map((e) => e.sequence)).toEqual(log.read(run).map((_, i) => i));
      }),
    );
  });
  it('validateRunEvent never throws on arbitrary JSON (property)', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => { validateRunEvent(v); }), { numRuns: 1000 });
  });
});
