/**
 * Restart keeps everything: a host on SQLite in a temporary data directory takes memory entries, runs and their
 * events, forks, armed commitments (some due while it is down), a distillation schedule and operator questions; it
 * stops; a new host on the same directory serves everything back byte-identical (it loads nothing: every answer is
 * read from the store); the commitments that came due while it was down fire exactly once after the start, and
 * never again on a second restart; a schedule resumes without running an instant twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HostRuntime } from '../../runtime/host/host-runtime.ts';
import { createHost } from '../../runtime/host/server.ts';
import { SecretKeyRing } from '../../runtime/redaction/sealing.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import { unitsOf, type StoragePort } from '../../runtime/storage/index.ts';
import { answer, question } from '../runtime/inquirium/questions.ts';

const TOKEN = 'restart-test-token-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const clock = { t: T0, now() { return this.t; } };
const secretKeys = SecretKeyRing.parse(`k1:${Buffer.alloc(32, 1).toString('base64')}`, 'test');

async function startHost() {
  const storage = await openStore({ kind: 'sqlite', dataDir });
  return createHost({ token: TOKEN, clock, storage, logger: false, secretKeys, cursorKey: Buffer.alloc(32, 9) });
}

const REF = 'mem://acme/restart';
const OTHER = 'mem://globex/restart';
const at = (ms: number) => `at:${new Date(ms).toISOString()}`;
const Q1 = question()['question/ref'];
const Q2 = 'question/inquirium/op-2/answered-before-stop';
const OPERATOR = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const snapshot = async (rt: HostRuntime, store: StoragePort, runIds: readonly string[]) => JSON.stringify(await unitsOf(store)(async (tx) => ({
  acme: await rt.memoryFor(tx, 'acme').list(REF),
  globex: await rt.memoryFor(tx, 'globex').list(OTHER),
  runs: await Promise.all(runIds.map(async (id) => [await rt.run(tx, id), await rt.events(tx, id)])),
  answered: await rt.questionState(tx, Q2, 'acme'),
})));
/** Every commitment id the acme and globex background logs record as fired. */
const firedIds = async (rt: HostRuntime, store: StoragePort) => {
  const out: string[] = [];
  for (const runId of ['bg-acme', 'bg-globex']) out.push(...((await unitsOf(store)((tx) => rt.events(tx, runId)))?.events ?? []).filter((e) => e.type === 'commitment.fired').map((e) => String(e.payload.commitmentId)));
  return out;
};

describe('restart on SQLite', () => {
  it('keeps every write, fires commitments due while down exactly once, and resumes schedules without double runs', async () => {
    // ── First life ──────────────────────────────────────────────────────────────────────────────────────────
    let { app, runtime, background, store } = await startHost();
    let unit = unitsOf(store);
    const write = async (...args: Parameters<HostRuntime['write']> extends [unknown, ...infer A] ? A : never) => (await unit((tx) => runtime.write(tx, ...args))).value;
    const runs = [await unit((tx) => runtime.startRun(tx, { workflowId: 'w', memoryRef: REF })), await unit((tx) => runtime.startRun(tx, { workflowId: 'w', memoryRef: OTHER }))];
    for (let i = 0; i < 5; i++) await write(REF, { content: `acme note ${i} — ünïcödé ✓`, tags: ['n', `i${i}`] }, { tenant: 'acme', runId: runs[0]!.runId });
    await write(OTHER, { content: 'globex note', tier: 'transactional' }, { tenant: 'globex' });
    await write(REF, { content: 'Ticket 1 resolved.', tier: 'transactional' }, { tenant: 'acme' });
    // Three time commitments: one due while the host is down, one due later, one fired before the stop.
    const dueWhileDown = await write(REF, { content: 'remind me', tags: ['intent:remind', at(T0 + 60_000)] }, { tenant: 'acme' });
    const dueLater = await write(OTHER, { content: 'remind me later', tags: ['intent:remind', at(T0 + 3_600_000)] }, { tenant: 'globex' });
    const firedBefore = await write(REF, { content: 'remind me now', tags: ['intent:remind', at(T0 - 1)] }, { tenant: 'acme' });
    const [cDown] = await unit((tx) => runtime.armCommitments(tx, REF, dueWhileDown));
    const [cLater] = await unit((tx) => runtime.armCommitments(tx, OTHER, dueLater));
    const [cBefore] = await unit((tx) => runtime.armCommitments(tx, REF, firedBefore));
    expect((await runtime.evaluateCommitments()).map((p) => p.commitmentId)).toEqual([cBefore]);
    // A schedule every 10 s from T0 + 5 s; its first instant is due while the host is down.
    const schedule = await unit((tx) => runtime.scheduleDistillation(tx, { memoryRef: REF, every: 'PT10S', firstAt: T0 + 5_000 }));
    // Two operator questions: one pending (5 min timeout), one answered.
    await unit((tx) => runtime.proposeQuestion(tx, question(), 'acme'));
    await unit((tx) => runtime.proposeQuestion(tx, question({ 'question/ref': Q2 }), 'acme'));
    await unit((tx) => runtime.answerQuestion(tx, { ...answer('yes'), 'question/ref': Q2 }, { tenant: 'acme', participant: OPERATOR }));
    const runIds = runs.map((r) => r.runId);
    const before = await snapshot(runtime, store, runIds);
    // What forks of the first run read at three points of its log (replay snapshots, MAE-3).
    const forks = await Promise.all([0, 2, await unit((tx) => runtime.lastSequence(tx, runIds[0]!))].map((seq) => unit((tx) => runtime.fork(tx, runIds[0]!, seq))));
    const forkReads = async (rt: HostRuntime, port: StoragePort) => JSON.stringify(await unitsOf(port)((tx) => Promise.all(forks.map(async (f) => (await rt.runMemory(tx, f.runId))!.memory.list(REF)))));
    const forksBefore = await forkReads(runtime, store);
    expect(JSON.parse(forksBefore).map((l: unknown[]) => l.length)).toEqual([0, 2, 5]);
    await app.close();

    // ── Down for six minutes: the first commitment, the question deadline and the schedule come due ─────
    clock.t = T0 + 360_000;

    // ── Second life: everything reads back byte-identical; the work due while down is done, once ───────
    ({ app, runtime, background, store } = await startHost());
    unit = unitsOf(store);
    expect(await snapshot(runtime, store, runIds)).toBe(before);
    expect(await forkReads(runtime, store)).toBe(forksBefore);
    await background.runOnce();
    await background.runOnce();
    expect((await firedIds(runtime, store)).sort()).toEqual([cBefore, cDown].sort());
    const lastRun = (await unit((tx) => runtime.schedule(tx, schedule.scheduleId)))!.last!;
    expect(lastRun).toMatchObject({ kind: 'distilled', missed: 35 });
    // The pending question timed out while the host was down: it reads so now (its deadline is in the store).
    expect(await unit((tx) => runtime.questionState(tx, Q1, 'acme'))).toMatchObject({ state: 'timed_out' });
    await app.close();

    // ── Third life, at the same instant: nothing fires or runs twice ─────────────────────────────────────
    ({ app, runtime, background, store } = await startHost());
    unit = unitsOf(store);
    await background.runOnce();
    expect((await firedIds(runtime, store)).sort()).toEqual([cBefore, cDown].sort());
    expect((await unit((tx) => runtime.schedule(tx, schedule.scheduleId)))!.last).toEqual(lastRun);
    clock.t = T0 + 3_600_000;
    await background.runOnce();
    expect((await firedIds(runtime, store)).sort()).toEqual([cBefore, cDown, cLater].sort());
    await app.close();
  });
});
