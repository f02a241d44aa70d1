import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, writeFileSync, truncateSync, statSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { FramedJsonlLog, frame, recover } from '../../../runtime/inquirium/storage/framed-jsonl.ts';
import { anyRecord, isN, isV } from './storage/guards.ts';
import { FeedbackError, JsonlTranscriptStore, recordFeedback, StoreTranscript, type InquiryTranscriptStore, type TranscriptFact } from '../../../runtime/inquirium/storage/transcript.ts';
import { JsonlTraceStream, StoreTraceStream, TRACE_RECORD_TYPE, TRACE_STREAM } from '../../../runtime/inquirium/storage/trace-stream.ts';
import { commitDetached, detachedTx } from '../../../runtime/storage/unit-of-work.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { inquirium, OTHER_PARTICIPANT, PARTICIPANT, request } from './helpers.ts';
import { storeText } from '../support.ts';
import { scratchDirs } from './storage/scratch.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';

const dir = scratchDirs('inq');
const quiet = { logger: () => {} };
/** For many-run properties about the format: no syncs (the durable path has its own tests). */
const fast = { ...quiet, durable: false };
const fact = (id: string, participant = 'p1', kind: TranscriptFact['kind'] = 'turn', classification: TranscriptFact['classification'] = 'personal'): TranscriptFact =>
  ({ kind, id, participant, session: 's1', classification, recordedAt: '2026-06-04T10:00:00Z', body: { id } });
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string({ unit: 'binary' }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string(), tie('value'), { maxKeys: 3 })),
})).value;

describe('framed JSONL log', () => {
  it('recovers every complete record after truncation at any byte (property, on disk, then appends again)', () => {
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 8 }), fc.nat(), (values, cutSeed) => {
        const p = join(dir(), 'log.jsonl');
        const log = new FramedJsonlLog(p, isV, fast);
        for (const v of values) log.append({ v });
        log.close();
        const size = statSync(p).size;
        const cut = cutSeed % (size + 1);
        truncateSync(p, cut);
        // oracle: a record survives iff its whole framed line (newline included) lies before the cut
        let end = 0;
        const complete = values.filter((v) => (end += Buffer.byteLength(frame({ v }))) <= cut).length;
        const reopened = new FramedJsonlLog(p, isV, fast);
        expect(reopened.all()).toEqual(values.slice(0, complete).map((v) => JSON.parse(JSON.stringify({ v }))));
        expect(reopened.recovery.skipped.length).toBe(0);
        reopened.append({ v: 'after-crash' });
        reopened.close();
        const again = new FramedJsonlLog(p, isV, fast);
        expect(again.all().map((r) => r.v).at(-1)).toBe('after-crash');
        expect(again.all()).toHaveLength(complete + 1);
        again.close();
      }),
      { numRuns: 300 },
    );
  });
  it('a torn tail is cut on open, so later appends are readable', () => {
    const p = join(dir(), 'log.jsonl');
    const log = new FramedJsonlLog(p, isN, quiet);
    log.append({ n: 1 });
    log.append({ n: 2 });
    log.close();
    truncateSync(p, statSync(p).size - 3); // crash mid-write of record 2
    const reopened = new FramedJsonlLog(p, isN, quiet);
    expect(reopened.all()).toEqual([{ n: 1 }]);
    expect(reopened.recovery.tornTailBytes).toBeGreaterThan(0);
    reopened.append({ n: 3 });
    reopened.close();
    expect(new FramedJsonlLog(p, isN, quiet).all()).toEqual([{ n: 1 }, { n: 3 }]);
  });
  it('a complete but corrupted line is skipped; the records after it are kept', () => {
    const p = join(dir(), 'log.jsonl');
    writeFileSync(p, frame({ a: 1 }) + frame({ a: 2 }).replace('"a":2', '"a":3') + 'garbage line\n' + frame({ a: 4 }));
    const log = new FramedJsonlLog(p, anyRecord, quiet);
    expect(log.all()).toEqual([{ a: 1 }, { a: 4 }]);
    expect(log.recovery).toMatchObject({ skipped: { length: 2 }, tornTailBytes: 0 });
    expect(recover(Buffer.from(''), anyRecord).records).toEqual([]);
  });
  it('a record whose newline is missing does not count even when its JSON is complete', () => {
    const line = frame({ a: 1 });
    expect(recover(Buffer.from(line.slice(0, -1)), anyRecord).records).toEqual([]);
    expect(recover(Buffer.from(line), anyRecord).records).toEqual([{ a: 1 }]);
  });
});

/** Each transcript store on `port` (a store transcript must live on the store its runtime commits to). */
const stores: [string, (port: StoragePort) => InquiryTranscriptStore][] = [
  ['store', (port) => new StoreTranscript(unitsOf(port), () => 0)],
  ['jsonl', () => new JsonlTranscriptStore(join(dir(), 't.jsonl'))],
];

describe('InquiryTranscriptStore', () => {
  for (const [name, make] of stores) {
    it(`${name}: scoped per participant, append-only, excise and retention`, async () => {
      const s = make(await openMemoryStore());
      await s.append(fact('turn:1'));
      await s.append(fact('turn:2', 'p2'));
      await s.append(fact('result:1', 'p1', 'result', 'public'));
      expect((await s.query({ participant: 'p1' })).map((f) => f.id)).toEqual(['turn:1', 'result:1']);
      expect((await s.query({ participant: 'p1', maxClassification: 'public' })).map((f) => f.id)).toEqual(['result:1']);
      await expect(s.append(fact('turn:1'))).rejects.toThrow(/append-only/);
      expect(await s.excise('p2', 'turn:1', 'now')).toBe(false); // another participant's id space
      expect(await s.excise('p1', 'turn:1', 'now')).toBe(true);
      expect(await s.excise('p1', 'turn:1', 'now')).toBe(false);
      expect((await s.query({ participant: 'p1' })).map((f) => f.id)).toEqual(['result:1']);
      expect(await s.applyRetention((f) => f.classification === 'public', 'now')).toBe(1);
      expect(await s.query({ participant: 'p1' })).toEqual([]);
      expect((await s.query({ participant: 'p2' })).map((f) => f.id)).toEqual(['turn:2']);
    });
    it(`${name}: a session's facts of one kind are counted without reading the history; excised ones no more`, async () => {
      const s = make(await openMemoryStore());
      for (const [id, session] of [['turn:1', 'a'], ['turn:2', 'a'], ['turn:3', 'b']] as const) await s.append({ ...fact(id), session });
      await s.append({ ...fact('result:1', 'p1', 'result'), session: 'a' });
      await s.append({ ...fact('turn:9', 'p2'), session: 'a' });
      expect(await s.countInSession('p1', 'a', 'turn')).toBe(2);
      expect(await s.countInSession('p1', 'b', 'turn')).toBe(1);
      expect(await s.countInSession('p1', 'a', 'result')).toBe(1);
      expect(await s.countInSession('p2', 'a', 'turn')).toBe(1);
      await s.excise('p1', 'turn:1', 'now');
      expect(await s.countInSession('p1', 'a', 'turn')).toBe(1);
      await expect(s.append({ ...fact('turn:1'), session: 'a' }), 'an excised id stays taken').rejects.toThrow(/append-only/);
      expect((await s.query({ participant: 'p1' }, 1)).map((f) => f.id)).toEqual(['turn:2']);
    });
    it(`${name}: feedback is appended as new facts, never overwriting the result or earlier feedback`, async () => {
      const port = await openMemoryStore();
      const transcript = make(port);
      const rt = await inquirium({ port, transcript });
      await rt.generate(request('q'), { participant: PARTICIPANT, session: 'session:1' });
      const result = (await transcript.query({ participant: PARTICIPANT, kind: 'result' }))[0]!;
      const before = structuredClone(result);
      const fb = (id: string, verdict: string, extra: Record<string, unknown> = {}) => ({ schema: 'inquirium.inquiry-feedback.v1', 'feedback/id': id, 'result/ref': result.id, 'session/ref': 'session:1', 'participant/ref': PARTICIPANT, verdict, 'recorded/at': '2026-01-01T00:00:01Z', ...extra });
      await rt.feedback(fb('feedback:1', 'verified'));
      await rt.feedback(fb('feedback:2', 'amended', { note: 'the second point is outdated', 'supersedes/ref': 'feedback:1' }));
      expect((await transcript.query({ participant: PARTICIPANT, kind: 'feedback' })).map((f) => [f.id, f.body.verdict, f.classification])).toEqual([['feedback:1', 'verified', 'personal'], ['feedback:2', 'amended', 'personal']]);
      expect((await transcript.query({ participant: PARTICIPANT, kind: 'result' }))[0]).toEqual(before);
      await expect(rt.feedback(fb('feedback:1', 'refuted'))).rejects.toThrow(/append-only/);
      await expect(rt.feedback({ ...fb('feedback:3', 'refuted'), 'participant/ref': OTHER_PARTICIPANT })).rejects.toThrow(FeedbackError);
      await expect(rt.feedback(fb('feedback:4', 'refuted', { 'supersedes/ref': 'feedback:nope' }))).rejects.toThrow(FeedbackError);
      await expect(recordFeedback(transcript, { ...fb('feedback:5', 'maybe') })).rejects.toThrow(/invalid/);
    });
  }
  it('the store transcript: two appends of one id racing past the look are one fact (the second\'s look went stale)', async () => {
    const port = await openMemoryStore();
    const [a, b] = [new StoreTranscript(unitsOf(port), () => 0), new StoreTranscript(unitsOf(port), () => 0)];
    const [pa, pb] = [detachedTx(port), detachedTx(port)];
    await a.append(fact('turn:1'), pa);
    await b.append(fact('turn:1'), pb); // both looked before either committed
    await commitDetached(pa, port);
    await expect(commitDetached(pb, port)).rejects.toMatchObject({ code: 'stale_read' });
    expect((await a.query({ participant: 'p1' })).map((f) => f.id)).toEqual(['turn:1']);
    // In a unit of work the stale look is taken again: the re-run finds the fact and refuses as append-only.
    let runs = 0;
    const late = detachedTx(port);
    await b.append(fact('turn:2'), late);
    await a.append(fact('turn:2'));
    await expect(commitDetached(late, port)).rejects.toMatchObject({ code: 'stale_read' });
    await expect(unitsOf(port)(async (tx) => { runs++; await b.append(fact('turn:2'), tx); })).rejects.toThrow(/append-only/);
    expect(runs).toBe(1);
  });
  it('a document append refuses a second item as duplicate_item, or as stale_read when the caller read it absent', async () => {
    const port = await openMemoryStore();
    const append = (readAbsent: boolean) => unitsOf(port)((tx) => void tx.add('doc.append', { log: 'probe', key: 'k', item: 'i', atMs: 0, doc: { n: 1 }, ...(readAbsent ? { readAbsent: true as const } : {}) }));
    await append(false);
    await expect(append(false)).rejects.toMatchObject({ code: 'duplicate_item' });
    await expect(append(true)).rejects.toMatchObject({ code: 'stale_read' });
  });
  it('the store transcript: excision and retention remove the content from the store, not merely hide it', async () => {
    const port = await openMemoryStore();
    const s = new StoreTranscript(unitsOf(port), () => 0);
    await s.append({ ...fact('turn:1'), body: { text: 'EXCISE-ME-CANARY' } });
    await s.append({ ...fact('turn:2', 'p1', 'turn', 'public'), body: { text: 'RETAIN-ME-CANARY' } });
    expect(await storeText(port)).toContain('EXCISE-ME-CANARY');
    await s.excise('p1', 'turn:1', 'now');
    expect(await s.applyRetention((f) => f.classification === 'public', 'now')).toBe(1);
    expect(await storeText(port)).not.toMatch(/EXCISE-ME-CANARY|RETAIN-ME-CANARY/);
    // another runtime on the same store sees the same history
    expect(await new StoreTranscript(unitsOf(port), () => 0).query({ participant: 'p1' })).toEqual([]);
  });
  it('the JSONL store survives reopening, and excision removes the content from disk', async () => {
    const p = join(dir(), 't.jsonl');
    const s = new JsonlTranscriptStore(p);
    await s.append({ ...fact('turn:1'), body: { text: 'EXCISE-ME-CANARY' } });
    await s.append(fact('turn:2'));
    expect(readFileSync(p, 'utf8')).toContain('EXCISE-ME-CANARY');
    await s.excise('p1', 'turn:1', 'now');
    expect(readFileSync(p, 'utf8')).not.toContain('EXCISE-ME-CANARY');
    s.close();
    expect((await new JsonlTranscriptStore(p).query({ participant: 'p1' })).map((f) => f.id)).toEqual(['turn:2']);
  });
  it('the JSONL store recovers from a torn write and keeps every complete fact', async () => {
    const p = join(dir(), 't.jsonl');
    const s = new JsonlTranscriptStore(p);
    await s.append(fact('turn:1'));
    s.close();
    appendFileSync(p, frame(fact('turn:2')).slice(0, 20)); // crash mid-record
    const reopened = new JsonlTranscriptStore(p, quiet);
    expect((await reopened.query({ participant: 'p1' })).map((f) => f.id)).toEqual(['turn:1']);
    await reopened.append(fact('turn:3'));
    reopened.close();
    expect((await new JsonlTranscriptStore(p).query({ participant: 'p1' })).map((f) => f.id)).toEqual(['turn:1', 'turn:3']);
  });
});

describe('trace stream', () => {
  const base = {
    'trace/schema': 'inquirium.assistant-turn-trace.v1', 'trace/id': 'tr:1', 'turn/id': 'turn:1',
    'participant/ref': PARTICIPANT, 'operation/id': 'op:1', 'time/started-at': '2026-06-04T10:12:00Z', status: 'completed',
    policy: { locality: 'local_only', 'trust/mode': 'strict_local', 'egress/allowed': false }, decisions: [], effects: [],
  };
  it('refuses a record carrying prompt content or a transcript ref', async () => {
    const store = new StoreTraceStream(() => 0);
    const unit = unitsOf(await openMemoryStore());
    const t = { append: (x: unknown) => unit((tx) => store.append(x, tx)), recent: () => unit((tx) => store.recent(tx)), byTrace: (ref: string) => unit((tx) => store.byTrace(ref, tx)) };
    await t.append(base);
    await expect(t.append({ ...base, prompt: 'secret question' })).rejects.toThrow();
    await expect(t.append({ ...base, 'transcript/ref': 'result:1' })).rejects.toThrow();
    await expect(t.append({ ...base, 'output/shape': { text: 'the answer' } })).rejects.toThrow();
    expect(await t.recent()).toHaveLength(1);
    expect((await t.byTrace('tr:1'))[0]).toMatchObject({ stream: TRACE_STREAM, record_type: TRACE_RECORD_TYPE });
    expect(await t.byTrace('tr:2')).toEqual([]);
  });
  it('the JSONL trace stream is replayable after reopening and associates to results by turn/id', async () => {
    const p = join(dir(), 'traces.jsonl');
    const traces = new JsonlTraceStream(p);
    const rt = await inquirium({ traces });
    await rt.generate(request('one'), { participant: PARTICIPANT, session: 'session:s' });
    await rt.generate(request('two'), { participant: PARTICIPANT, session: 'session:s' });
    traces.close();
    const replay = new JsonlTraceStream(p);
    const all = await replay.recent();
    expect(all).toHaveLength(2);
    for (const r of await rt.transcript.query({ participant: PARTICIPANT, kind: 'result' })) {
      expect(all.filter((e) => e.body['turn/id'] === r.body['turn/id']).map((e) => e.body['trace/id'])).toEqual([r.body['trace/ref']]);
      expect((await replay.byTrace(String(r.body['trace/ref']))).map((e) => e.body['turn/id'])).toEqual([r.body['turn/id']]);
    }
    expect(readFileSync(p, 'utf8')).not.toMatch(/one|two/);
  });
});
