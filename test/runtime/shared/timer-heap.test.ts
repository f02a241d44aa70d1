import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TimerHeap } from '../../../runtime/shared/timer-heap.ts';

describe('TimerHeap (binary heap, lazy cancel)', () => {
  it('pops due timers in (due, schedule order) order and leaves future ones', () => {
    const h = new TimerHeap<string>();
    h.schedule(30, 'c');
    h.schedule(10, 'a1');
    h.schedule(20, 'b');
    h.schedule(10, 'a2');
    expect(h.popDue(20)).toEqual(['a1', 'a2', 'b']);
    expect(h.size).toBe(1);
    expect(h.peekDue()).toBe(30);
  });

  it('cancel is lazy and a cancelled timer never pops', () => {
    const h = new TimerHeap<string>();
    const a = h.schedule(5, 'a');
    h.schedule(6, 'b');
    expect(h.cancel(a)).toBe(true);
    expect(h.cancel(a)).toBe(false);
    expect(h.size).toBe(1);
    expect(h.popDue(100)).toEqual(['b']);
  });

  it('compacts when cancelled slots dominate and still drains in order', () => {
    const h = new TimerHeap<number>();
    const handles = Array.from({ length: 5000 }, (_, i) => h.schedule((i * 7919) % 5000, i));
    for (let i = 0; i < 5000; i++) if (i % 5 !== 0) h.cancel(handles[i]!);
    expect(h.size).toBe(1000);
    for (let i = 0; i < 100; i++) h.schedule(-1, -1 - i);
    const out = h.popDue(10_000);
    expect(out.slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => -1 - i));
    const rest = out.slice(100);
    expect(rest).toHaveLength(1000);
    const dues = rest.map((i) => (i * 7919) % 5000);
    expect(dues).toEqual([...dues].sort((a, b) => a - b));
  });

  it('property: matches a sorted-list model under random schedule/cancel/pop sequences (with compaction)', () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('s' as const), due: fc.integer({ min: 0, max: 500 }) }),
      fc.record({ k: fc.constant('c' as const), pick: fc.nat() }),
      fc.record({ k: fc.constant('p' as const), now: fc.integer({ min: 0, max: 500 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
        const h = new TimerHeap<number>();
        const model: { due: number; seq: number; handle: number }[] = [];
        let seq = 0;
        for (const o of ops) {
          if (o.k === 's') {
            const s = seq++;
            model.push({ due: o.due, seq: s, handle: h.schedule(o.due, s) });
          } else if (o.k === 'c') {
            if (model.length === 0) continue;
            const [m] = model.splice(o.pick % model.length, 1);
            expect(h.cancel(m!.handle)).toBe(true);
          } else {
            const due = model.filter((m) => m.due <= o.now).sort((a, b) => a.due - b.due || a.seq - b.seq);
            expect(h.popDue(o.now)).toEqual(due.map((m) => m.seq));
            for (const d of due) model.splice(model.indexOf(d), 1);
          }
          expect(h.size).toBe(model.length);
        }
      }),
      { numRuns: 100 },
    );
  });
});
