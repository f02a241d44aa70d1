/**
 * Restart keeps everything (issue 13 acceptance): a host on SQLite in a temporary data directory takes memory
 * entries, runs and their events, armed commitments (some due while it is down), distillation schedules and
 * operator questions; it stops; a new host on the same directory reads everything back byte-identical; the
 * commitments that came due while it was down fire exactly once after the start, and never again on a second
 * restart; a schedule resumes from its ledger without running an instant twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../generated/ts/index.ts';
import type { HostRuntime } from '../../runtime/host/host-runtime.ts';
import { createHost } from '../../runtime/host/server.ts';
import { BACKGROUND_RUN_ID } from '../../runtime/openwop/index.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import { answer, question } from '../runtime/inquirium/questions.ts';
import { dumpPort } from './port-contract.ts';

const TOKEN = 'restart-test-token-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const clock = { t: T0, now() { return this.t; } };

async function startHost() {
  const storage = await openStore({ kind: 'sqlite', dataDir });
  return createHost({ token: TOKEN, clock, storage, logger: false });
}

const REF = 'mem://acme/restart';
const OTHER = 'mem://globex/restart';
const at = (ms: number) => `at:${new Date(ms).toISOString()}`;
const firedIds = (rt: HostRuntime) => rt.events(BACKGROUND_RUN_ID).filter((e) => e.type === 'commitment.fired').map((e) => String((e.payload as { commitmentId: string }).commitmentId));
const Q1 = question()['question/ref'];
const Q2 = 'question/inquirium/op-2/answered-before-stop';
const snapshot = async (rt: HostRuntime, runIds: readonly string[]) => JSON.stringify({
  acme: await rt.memoryFor('acme').list(REF),
  globex: await rt.memoryFor('globex').list(OTHER),
  runs: runIds.map((id) => [rt.run(id), rt.events(id)]),
  questions: [rt.questionState(Q1, 'acme'), rt.questionState(Q2, 'acme')],
});

describe('restart on SQLite', () => {
  it('keeps every write, fires commitments due while down exactly once, and resumes schedules without double runs', async () => {
    // ── First life ──────────────────────────────────────────────────────────────────────────────────────────
    let { app, runtime } = await startHost();
    const runs = [runtime.startRun({ workflowId: 'w', memoryRef: REF }), runtime.startRun({ workflowId: 'w', memoryRef: OTHER })];
    for (let i = 0; i < 5; i++) runtime.write(REF, { content: `acme note ${i} — ünïcödé ✓`, tags: ['n', `i${i}`] }, { tenant: 'acme', runId: runs[0]!.runId });
    runtime.write(OTHER, { content: 'globex note', tier: 'transactional' }, { tenant: 'globex' });
    runtime.write(REF, { content: 'Ticket 1 resolved.', tier: 'transactional' }, { tenant: 'acme' });
    // Three time commitments: one due while the host is down, one due later, one already fired before the stop.
    const dueWhileDown = runtime.write(REF, { content: 'remind me', tags: ['intent:remind', at(T0 + 60_000)] }, { tenant: 'acme' });
    const dueLater = runtime.write(OTHER, { content: 'remind me later', tags: ['intent:remind', at(T0 + 3_600_000)] }, { tenant: 'globex' });
    const firedBefore = runtime.write(REF, { content: 'remind me now', tags: ['intent:remind', at(T0 - 1)] }, { tenant: 'acme' });
    const [cDown] = runtime.armCommitments(REF, dueWhileDown);
    const [cLater] = runtime.armCommitments(OTHER, dueLater);
    const [cBefore] = runtime.armCommitments(REF, firedBefore);
    expect((await runtime.evaluateCommitments()).map((p) => p.commitmentId)).toEqual([cBefore]);
    // A schedule every 10 s from T0 + 5 s; its first instant is due while the host is down.
    const schedule = runtime.distillationScheduler()!.schedule({ memoryRef: REF, every: 'PT10S', firstAt: T0 + 5_000 });
    // Two operator questions: one pending (5 min timeout), one answered.
    runtime.proposeQuestion(question(), 'acme');
    runtime.proposeQuestion(question({ 'question/ref': Q2 }), 'acme');
    runtime.answerQuestion({ ...answer('yes'), 'question/ref': Q2 }, { tenant: 'acme', participant: 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' });
    const pass = await runtime.consolidate(OTHER, 'globex');
    await runtime.flush();
    const runIds = runs.map((r) => r.runId);
    const before = await snapshot(runtime, runIds);
    // What forks of the first run read at three points of its log (replay snapshots, MAE-3).
    const forkPoints = [0, 2, runtime.lastSequence(runIds[0]!)];
    const forkReads = async (rt: HostRuntime) => JSON.stringify(await Promise.all(forkPoints.map((seq) => rt.runMemory(rt.fork(runIds[0]!, seq)).list(REF))));
    const forksBefore = await forkReads(runtime);
    expect(JSON.parse(forksBefore).map((l: unknown[]) => l.length)).toEqual([0, 2, 5]);
    await runtime.flush();
    await app.close();

    const closed = await openStore({ kind: 'sqlite', dataDir });
    const stored = JSON.stringify(await dumpPort(closed));
    expect(await closed.consolidation.lastPass('globex', OTHER)).toMatchObject({ eventId: pass.eventId, runId: pass.runId });
    await closed.close();

    // ── Down for two minutes; second life ───────────────────────────────────────────────────────────────────
    clock.t = T0 + 120_000;
    ({ app, runtime } = await startHost());
    expect(await snapshot(runtime, runIds)).toBe(before);
    expect(runtime.questionState(Q1, 'acme')).toMatchObject({ state: 'pending' });
    expect(await forkReads(runtime)).toBe(forksBefore);
    // Fired at start: exactly the one that came due while down (the one fired before the stop does not refire).
    expect(firedIds(runtime)).toEqual([cBefore, cDown]);
    expect(await runtime.evaluateCommitments()).toEqual([]);
    // The schedule runs its latest due instant once (the earlier ones are reported missed), then not again.
    const ticked = await runtime.distillationScheduler()!.tick();
    expect(ticked.map((o) => [o.scheduleId, o.instant, o.missed])).toEqual([[schedule.scheduleId, new Date(T0 + 115_000).toISOString(), 11]]);
    expect(await runtime.distillationScheduler()!.tick()).toEqual([]);
    await runtime.flush();
    await app.close();

    // ── Third life, same clock: nothing fires or runs again; the first life's records are still there ────────
    ({ app, runtime } = await startHost());
    expect(firedIds(runtime)).toEqual([cBefore, cDown]);
    expect(await runtime.evaluateCommitments()).toEqual([]);
    expect(await runtime.distillationScheduler()!.tick()).toEqual([]);
    expect(runtime.distillationScheduler()!.get(schedule.scheduleId)?.nextAt).toBe(T0 + 125_000);
    // The pending question kept its deadline: an hour later it has timed out, failing closed to its default.
    clock.t = T0 + 3_600_000;
    expect(() => runtime.cancelQuestion(Q1, 'acme')).toThrow(/already timed_out/);
    expect(runtime.questionState(Q1, 'acme')).toMatchObject({ state: 'timed_out', 'default/applied': { answer: 'no' } });
    // The commitment due later is still armed and fires once when its time comes.
    expect((await runtime.evaluateCommitments()).map((p) => p.commitmentId)).toEqual([cLater]);
    const acmeAfter = JSON.parse(await snapshot(runtime, runIds)) as { runs: [unknown, RunEvent[]][] };
    const acmeBefore = JSON.parse(before) as { runs: [unknown, RunEvent[]][] };
    // Every event written in the first life is still there, byte-identical, as the prefix of its run's log.
    for (const [i, [, events]] of acmeBefore.runs.entries()) expect(acmeAfter.runs[i]![1].slice(0, events.length)).toEqual(events);
    await app.close();

    // Every long-term memory row the first life stored is still stored, byte-identical (the scheduled distillation
    // consumed the transactional ones and added its archive).
    const reopened = await openStore({ kind: 'sqlite', dataDir });
    const rows = new Set((await reopened.memory.all()).map((r) => JSON.stringify(r)));
    await reopened.close();
    const firstLife = (JSON.parse(stored) as { memory: { entry: { tags: string[] } }[] }).memory.filter((r) => !r.entry.tags.includes('tier:transactional'));
    expect(firstLife.length).toBe(8);
    for (const row of firstLife) expect(rows.has(JSON.stringify(row))).toBe(true);
  });
});
