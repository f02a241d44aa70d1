import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { backgroundRunId, InvalidRunEventError, MAX_EVENT_PAGE } from '../../../runtime/events/log.ts';
import { validateRunEvent } from '../../../runtime/events/validate.ts';
import { QuotaExceededError } from '../../../runtime/shared/quota.ts';
import { commitDetached, detachedTx } from '../../../runtime/storage/unit-of-work.ts';
import { eventsOf, openRuntime, request, thrown, withRuntime } from '../support.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';

const REF = 'mem://tenant-a/log';

describe('run event log', () => {
  it('appends with sequence 0, 1, 2 … per run, and reads from a sequence on', async () => {
    const { rt, port } = await openRuntime();
    const r1 = await request(port, (plan) => rt.startRun(plan, { runId: 'r1', workflowId: 'wf', memoryRef: REF }));
    await request(port, (plan) => rt.startRun(plan, { runId: 'r2', workflowId: 'wf', memoryRef: REF }));
    await request(port, (plan) => rt.log.append(plan, r1.runId, { type: 'run.completed', payload: { status: 'completed' } }));
    expect((await eventsOf(rt, 'r1')).map((e) => [e.sequence, e.type])).toEqual([[0, 'run.started'], [1, 'run.completed']]);
    expect((await eventsOf(rt, 'r2')).map((e) => e.sequence)).toEqual([0]);
    expect((await unitOfWork(rt.port, (tx) => rt.log.read(tx, 'r1', 1))).events.map((e) => e.type)).toEqual(['run.completed']);
    expect((await unitOfWork(rt.port, (tx) => rt.log.read(tx, 'r1', 5))).events).toEqual([]);
  });

  it('refuses an invalid event and does not append it', async () => {
    const { rt, port } = await openRuntime();
    await request(port, (plan) => rt.startRun(plan, { runId: 'r1', workflowId: 'wf', memoryRef: REF }));
    const plan = detachedTx(port);
    // @ts-expect-error a known type's payload is checked at compile time too (memoryRef is missing)
    expect(() => rt.log.append(plan, 'r1', { type: 'commitment.fired', payload: { commitmentId: 'c', condition: 'time' } })).toThrow(InvalidRunEventError);
    expect(plan.size).toBe(0);
    await request(port, (p) => rt.log.append(p, 'r1', { type: 'run.completed', payload: { status: 'completed' } }));
    expect((await eventsOf(rt, 'r1')).map((e) => e.sequence)).toEqual([0, 1]);
  });

  it('accepts unknown event types on the envelope alone', async () => {
    const { rt, port } = await openRuntime();
    await request(port, (plan) => rt.startRun(plan, { runId: 'r1', workflowId: 'wf', memoryRef: REF }));
    const e = await request(port, (plan) => rt.log.append(plan, 'r1', { type: 'vendor.acme.custom', payload: { anything: 1 } }));
    expect(e.value.sequence).toBe(1);
    expect(validateRunEvent(e.value)).toEqual({ ok: true, known: false, failures: [] });
  });

  it('every log belongs to a run row: an event for a run that does not exist is refused with its request', async () => {
    const { rt, port } = await openRuntime();
    expect(await thrown(() => request(port, (plan) => rt.log.append(plan, 'nobody', { type: 'run.completed', payload: { status: 'completed' } })))).toMatchObject({ code: 'run_unknown' });
    expect(await unitOfWork(rt.port, (tx) => rt.log.has(tx, 'nobody'))).toBe(false);
  });

  it('pages: at most `limit` events, nextSeq while the log continues, the limit clamped to 1…MAX_EVENT_PAGE', async () => {
    const { rt, port } = await openRuntime();
    await request(port, (plan) => {
      rt.startRun(plan, { runId: 'r1', workflowId: 'wf', memoryRef: REF });
      for (let i = 0; i < 9; i++) rt.log.append(plan, 'r1', { type: 'vendor.tick', payload: { i } });
    });
    const first = await unitOfWork(rt.port, (tx) => rt.log.read(tx, 'r1', 0, 4));
    expect(first.events.map((e) => e.sequence)).toEqual([0, 1, 2, 3]);
    expect(first.nextSeq).toBe(4);
    const last = await unitOfWork(rt.port, (tx) => rt.log.read(tx, 'r1', 8, 4));
    expect(last.events.map((e) => e.sequence)).toEqual([8, 9]);
    expect(last.nextSeq).toBeUndefined();
    expect((await unitOfWork(rt.port, (tx) => rt.log.read(tx, 'r1', 0, 0))).events).toHaveLength(1);
    expect((await unitOfWork(rt.port, (tx) => rt.log.read(tx, 'r1', -5, 2))).events.map((e) => e.sequence)).toEqual([0, 1]);
    expect((await unitOfWork(rt.port, (tx) => rt.log.read(tx, 'r1', 0, MAX_EVENT_PAGE * 10))).events).toHaveLength(10);
  });

  it('a run holds at most eventsPerRun events (429 events-per-run, nothing of the request kept); a tenant background log keeps its newest', async () => {
    const { rt, port } = await openRuntime({ eventLimits: { eventsPerRun: 3, backgroundEventsKept: 2 } });
    await request(port, (plan) => rt.startRun(plan, { runId: 'r1', workflowId: 'wf', memoryRef: REF }));
    await request(port, (plan) => rt.log.append(plan, 'r1', { type: 'vendor.tick', payload: { i: 1 } }));
    const err = await thrown(() => request(port, (plan) => {
      rt.log.append(plan, 'r1', { type: 'vendor.tick', payload: { i: 2 } });
      rt.log.append(plan, 'r1', { type: 'vendor.tick', payload: { i: 3 } });
    }));
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect(err).toMatchObject({ resource: 'events-per-run', limit: 3 });
    expect((await eventsOf(rt, 'r1')).map((e) => e.sequence)).toEqual([0, 1]);
    for (let i = 0; i < 5; i++) await request(port, (plan) => rt.log.appendBackground(plan, 'tenant-a', { type: 'vendor.tick', payload: { i } }));
    expect((await eventsOf(rt, backgroundRunId('tenant-a'))).map((e) => [e.sequence, e.payload.i])).toEqual([[3, 3], [4, 4]]);
  });

  it('sequences stay gap-free and increasing under random appends, including refused ones and rolled-back requests (property)', async () => {
    const op = fc.record({ run: fc.constantFrom('a', 'b'), valid: fc.boolean(), rollback: fc.boolean(), n: fc.integer({ min: 1, max: 3 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        await withRuntime({}, async ({ rt, port }) => {
          await request(port, (plan) => ['a', 'b'].forEach((runId) => rt.startRun(plan, { runId, workflowId: 'w', memoryRef: REF })));
          const kept = { a: 1, b: 1 };
          for (const { run, valid, rollback, n } of ops) {
            const plan = detachedTx(port);
            try {
              for (let i = 0; i < n; i++) {
                // @ts-expect-error the refused branch (run.failed without errorCode) does not compile either
                rt.log.append(plan, run, valid ? { type: 'run.started', payload: { workflowId: 'w' } } : { type: 'run.failed', payload: { status: 'failed' } });
              }
              // a request refused at commit (its run id is taken) gives its sequence numbers back
              if (rollback) rt.startRun(plan, { runId: run === 'a' ? 'b' : 'a', workflowId: 'w', memoryRef: REF });
              await commitDetached(plan, port);
              kept[run] += n;
            } catch (e) {
              if (!valid) expect(e).toBeInstanceOf(InvalidRunEventError);
              else expect(e).toMatchObject({ code: 'run_conflict' });
            }
          }
          for (const run of ['a', 'b'] as const) {
            const seqs = (await eventsOf(rt, run)).map((e) => e.sequence);
            expect(seqs).toEqual(seqs.map((_, i) => i));
            expect(seqs).toHaveLength(kept[run]);
          }
        });
      }),
      { numRuns: 100 },
    );
  });

  it('validateRunEvent never throws on arbitrary JSON (property)', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => { validateRunEvent(v); }), { numRuns: 1000 });
  });
});
