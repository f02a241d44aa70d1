import { describe, expect, it } from 'vitest';
import { ASSISTANT_OUTPUT_CAP_BYTES, AssistantTurns } from '../../../runtime/inquirium/assistant-turns.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { OUTPUT_TRUNCATED_CAVEAT } from '../../../runtime/inquirium/generate.ts';
import { Grants } from '../../../runtime/inquirium/grants.ts';
import { BundleError, exportBundle, importBundle } from '../../../runtime/inquirium/transcript-bundles.ts';
import { ManualClock, SequentialIds, toIso } from '../../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import { StoreTranscript } from '../../../runtime/inquirium/storage/transcript.ts';
import { inquirium, OTHER_PARTICIPANT, PARTICIPANT, recordingRuntime } from './helpers.ts';
import { commitDetached, detachedTx } from '../../../runtime/storage/unit-of-work.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';

const turnRequest = (text: string, extra: Record<string, unknown> = {}) => ({
  schema: 'inquirium.assistant.turn.request.v1', 'session/ref': 'session:local', turn: { role: 'user', content: [{ type: 'text', text }] }, ...extra,
});
async function setup(answer: (text: string) => string = () => 'an answer') {
  const port = await openMemoryStore();
  const clock = new ManualClock(0);
  const echo = recordingRuntime('echo', 'http_local', (r) => answer(JSON.stringify(r)));
  const rt = await inquirium({ port, clock, runtimes: [echo] });
  const turns = new AssistantTurns({ pipeline: rt, clock, ids: new SequentialIds(), grants: new Grants(clock), resolver: { resolve: async (_s, g) => [{ schema: 'inquirium.context-element.v1', 'element/id': 'n1', 'source/kind': 'memarium', 'source/ref': g['source/ref'], classification: 'public', content: [{ type: 'text', text: 'GRANTED-NOTE' }], 'grant/ref': g['grant/ref'] }] } });
  // As the host serves a turn: one unit of work per request (re-run from its reads when its commit finds them stale).
  const run = (req: unknown, who = PARTICIPANT) => unitsOf(port)((tx) => turns.turn(tx, req, { participant: who }));
  return { port, clock, rt, echo, turns, run };
}

describe('assistant turns', () => {
  it('bind the participant from the authenticated principal, never the body, and keep a valid caller turn id', async () => {
    const { rt, run } = await setup();
    const res = await run(turnRequest('hello', { 'participant/ref': OTHER_PARTICIPANT, 'turn/id': 'turn:caller-1' }));
    expect(checkDto('inquirium.assistant.turn.response.v1', res)).toEqual([]);
    expect(res).toMatchObject({ 'turn/id': 'turn:caller-1', outcome: 'completed', 'idempotency/replayed': false, 'output/truncated': false });
    expect((await rt.transcript.query({ participant: PARTICIPANT })).map((f) => [f.kind, f.kind === 'turn' ? f.id : f.body['turn/id']])).toEqual([['turn', 'turn:caller-1'], ['result', 'turn:caller-1']]);
    expect(await rt.transcript.query({ participant: OTHER_PARTICIPANT })).toEqual([]);
    const assigned = await run(turnRequest('again'));
    expect(assigned['turn/id']).toMatch(/^turn:/);
    expect(assigned['turn/id']).not.toBe('turn:caller-1');
  });

  it('replay the first response for a repeated idempotency key and append no transcript fact', async () => {
    const { rt, echo, run } = await setup();
    const first = await run(turnRequest('hello', { 'idempotency/key': 'ui:1' }));
    const second = await run(turnRequest('hello', { 'idempotency/key': 'ui:1' }));
    expect(second).toEqual({ ...first, 'idempotency/replayed': true });
    expect(echo.calls).toHaveLength(1);
    expect(await rt.transcript.query({ participant: PARTICIPANT })).toHaveLength(2);
    // The key is scoped by principal: another participant's same key runs its own turn.
    await run(turnRequest('hello', { 'idempotency/key': 'ui:1' }), OTHER_PARTICIPANT);
    expect(echo.calls).toHaveLength(2);
  });

  it('two turns with one key at once record one set of transcript facts; the other answers with what was recorded', async () => {
    const { rt, echo, run } = await setup();
    const [x, y] = await Promise.all([run(turnRequest('hello', { 'idempotency/key': 'ui:race' })), run(turnRequest('hello', { 'idempotency/key': 'ui:race' }))]);
    expect(echo.calls).toHaveLength(2); // both ran before either committed: the second's commit found its reads stale
    expect(await rt.transcript.query({ participant: PARTICIPANT })).toHaveLength(2);
    expect(await rt.traces.recent()).toHaveLength(1); // the loser's trace went with the rest of its first run
    expect([x['idempotency/replayed'], y['idempotency/replayed']].sort()).toEqual([false, true]);
    expect({ ...x, 'idempotency/replayed': true }).toEqual({ ...y, 'idempotency/replayed': true });
  });

  it('cap the completed output at 16 KiB before the transcript is written, and say so', async () => {
    const { rt, run } = await setup(() => 'é'.repeat(ASSISTANT_OUTPUT_CAP_BYTES));
    const res = await run(turnRequest('long', { parameters: { max_tokens: 100000 } }));
    expect(res['output/truncated']).toBe(true);
    expect(res.epistemic?.caveats).toContain(OUTPUT_TRUNCATED_CAVEAT);
    const text = (res.output![0] as { text: string }).text;
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(ASSISTANT_OUTPUT_CAP_BYTES);
    const result = (await rt.transcript.query({ participant: PARTICIPANT, kind: 'result' }))[0]!;
    expect(Buffer.byteLength(JSON.stringify(result.body.output), 'utf8')).toBeLessThan(ASSISTANT_OUTPUT_CAP_BYTES + 100);
  });

  it('assemble granted context only under a live grant for this participant and session', async () => {
    const { port, clock, echo, run } = await setup();
    const grants = new Grants(clock);
    const plan = detachedTx(port);
    await grants.planIssue(plan, 'context', { schema: 'inquirium.context-grant.issue.request.v1', 'grant/ref': 'grant/n', 'participant/ref': PARTICIPANT, 'session/ref': 'session:local', 'source/kind': 'memarium', 'source/ref': 'memarium:notes', 'classification/ceiling': 'public', 'expires/at': toIso(60_000) });
    await commitDetached(plan, port);
    const granted = { policy: { scope: 'granted-context', trust_mode: 'classification_gated' }, context_assembly: { schema: 'inquirium.context-assembly.request.v1', sources: [{ 'source/kind': 'memarium', 'grant/ref': 'grant/n' }] } };
    await run(turnRequest('with notes', granted));
    expect(JSON.stringify(echo.calls.at(-1))).toContain('GRANTED-NOTE');
    await expect(run(turnRequest('as another', granted), OTHER_PARTICIPANT)).rejects.toMatchObject({ code: 'context-denied' });
    clock.advance(60_000);
    await expect(run(turnRequest('expired', granted))).rejects.toMatchObject({ code: 'context-denied' });
  });
});

describe('transcript facts and bundles', () => {
  const withTurns = async () => {
    const s = await setup();
    await s.run(turnRequest('one'));
    await s.run(turnRequest('two'));
    return s;
  };
  it('export a participant\'s facts as a valid bundle; import them elsewhere once (again adds nothing, excised stays excised)', async () => {
    const { rt, clock } = await withTurns();
    const bundle = await exportBundle(rt.transcript, { participant: PARTICIPANT, nowMs: clock.now() });
    expect(checkDto('inquirium.assistant.transcript.bundle.v1', bundle)).toEqual([]);
    expect(bundle.facts.map((f) => f['fact/kind'])).toEqual(['turn', 'result', 'turn', 'result']);
    for (const f of bundle.facts) expect(checkDto('inquirium.assistant.transcript.fact.v1', f)).toEqual([]);
    const port = await openMemoryStore();
    const target = new StoreTranscript(unitsOf(port), () => 0);
    const into = async (b: unknown, who = PARTICIPANT) => { const plan = detachedTx(port); const out = await importBundle(plan, target, b, who); await commitDetached(plan, port); return out; };
    expect(await into(bundle)).toEqual({ imported: 4, skipped: 0 });
    expect((await target.query({ participant: PARTICIPANT })).map((f) => f.id)).toEqual(bundle.facts.map((f) => f['fact/id']));
    expect(await into(bundle)).toEqual({ imported: 0, skipped: 4 });
    await target.excise(PARTICIPANT, bundle.facts[0]!['fact/id'], toIso(1));
    expect(await into(bundle)).toEqual({ imported: 0, skipped: 4 });
    expect(await target.query({ participant: PARTICIPANT })).toHaveLength(3);
  });

  it('refuse a bundle holding another participant\'s fact, planning nothing', async () => {
    const { rt, clock } = await withTurns();
    const bundle = await exportBundle(rt.transcript, { participant: PARTICIPANT, nowMs: clock.now() });
    const scratch = await openMemoryStore();
    const plan = detachedTx(scratch);
    await expect(importBundle(plan, new StoreTranscript(unitsOf(scratch), () => 0), bundle, OTHER_PARTICIPANT)).rejects.toBeInstanceOf(BundleError);
    const mixed = { ...bundle, facts: [bundle.facts[0]!, { ...bundle.facts[1]!, 'participant/ref': OTHER_PARTICIPANT }] };
    await expect(importBundle(plan, new StoreTranscript(unitsOf(scratch), () => 0), mixed, PARTICIPANT)).rejects.toMatchObject({ code: 'bundle-foreign-fact', status: 400 });
    expect(plan.size).toBe(0);
  });
});

describe('capUtf8', () => {
  it('never exceeds the cap, never splits a character, and keeps a prefix of the text (property)', async () => {
    const { capUtf8 } = await import('../../../runtime/inquirium/generate.ts');
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 0, max: 400 }), (text, max) => {
        const out = capUtf8(text, max);
        expect(new TextEncoder().encode(out.text).length).toBeLessThanOrEqual(max);
        expect(text.startsWith(out.text)).toBe(true);
        expect(out.cut).toBe(new TextEncoder().encode(text).length > max);
        expect(out.text).not.toContain('\uFFFD');
      }),
    );
  });
});
