import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, writeFileSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FramedJsonlLog, frame, recover } from '../../../runtime/inquirium/storage/framed-jsonl.ts';
import { InMemoryTranscriptStore, JsonlTranscriptStore, type TranscriptFact } from '../../../runtime/inquirium/storage/transcript.ts';
import { InMemoryTraceStream } from '../../../runtime/inquirium/storage/trace-stream.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'wopkit-store-'));
const fact = (id: string, participant = 'p1', kind: TranscriptFact['kind'] = 'turn', classification: TranscriptFact['classification'] = 'personal'): TranscriptFact =>
  ({ kind, id, participant, session: 's1', classification, recordedAt: '2026-06-04T10:00:00Z', body: { id } });

describe('framed JSONL log', () => {
  it('recovers every complete record after truncation at any byte (property)', () => {
    const records = Array.from({ length: 6 }, (_, i) => ({ i, text: `record ${i} ünïcode ✓` }));
    const bytes = Buffer.from(records.map(frame).join(''));
    const ends: number[] = [];
    let acc = 0;
    for (const r of records) { acc += Buffer.byteLength(frame(r)); ends.push(acc); }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bytes.length }), (cut) => {
        const r = recover<{ i: number }>(bytes.subarray(0, cut));
        const complete = ends.filter((e) => e <= cut).length;
        expect(r.records.map((x) => x.i)).toEqual(records.slice(0, complete).map((x) => x.i));
      }),
      { numRuns: bytes.length + 1 },
    );
  });
  it('a torn tail is cut on open, so later appends are readable', () => {
    const p = join(dir(), 'log.jsonl');
    const log = new FramedJsonlLog<{ n: number }>(p);
    log.append({ n: 1 });
    log.append({ n: 2 });
    truncateSync(p, statSync(p).size - 3); // crash mid-write of record 2
    const reopened = new FramedJsonlLog<{ n: number }>(p);
    expect(reopened.all()).toEqual([{ n: 1 }]);
    reopened.append({ n: 3 });
    expect(new FramedJsonlLog<{ n: number }>(p).all()).toEqual([{ n: 1 }, { n: 3 }]);
  });
  it('a corrupted record stops recovery there (checksum)', () => {
    const p = join(dir(), 'log.jsonl');
    writeFileSync(p, frame({ a: 1 }) + frame({ a: 2 }).replace('"a":2', '"a":3') + frame({ a: 4 }));
    expect(new FramedJsonlLog(p).all()).toEqual([{ a: 1 }]);
  });
});

describe('InquiryTranscriptStore', () => {
  for (const [name, make] of [['in-memory', () => new InMemoryTranscriptStore()], ['jsonl', () => new JsonlTranscriptStore(join(dir(), 't.jsonl'))]] as const) {
    it(`${name}: scoped per participant, append-only, excise and retention`, () => {
      const s = make();
      s.append(fact('turn:1'));
      s.append(fact('turn:2', 'p2'));
      s.append(fact('result:1', 'p1', 'result', 'public'));
      expect(s.query({ participant: 'p1' }).map((f) => f.id)).toEqual(['turn:1', 'result:1']);
      expect(s.query({ participant: 'p1', maxClassification: 'public' }).map((f) => f.id)).toEqual(['result:1']);
      expect(() => s.append(fact('turn:1'))).toThrow(/append-only/);
      expect(s.excise('p2', 'turn:1', 'now')).toBe(false); // another participant's id space
      expect(s.excise('p1', 'turn:1', 'now')).toBe(true);
      expect(s.query({ participant: 'p1' }).map((f) => f.id)).toEqual(['result:1']);
      expect(s.applyRetention((f) => f.classification === 'public', 'now')).toBe(1);
      expect(s.query({ participant: 'p1' })).toEqual([]);
      expect(s.query({ participant: 'p2' }).map((f) => f.id)).toEqual(['turn:2']);
    });
  }
  it('feedback facts are appended, never overwritten', () => {
    const s = new InMemoryTranscriptStore();
    s.append(fact('feedback:1', 'p1', 'feedback'));
    s.append(fact('feedback:2', 'p1', 'feedback'));
    expect(s.query({ participant: 'p1', kind: 'feedback' })).toHaveLength(2);
  });
  it('the JSONL store survives reopening and compacts excised facts away', () => {
    const p = join(dir(), 't.jsonl');
    const s = new JsonlTranscriptStore(p);
    s.append(fact('turn:1'));
    s.append(fact('turn:2'));
    s.excise('p1', 'turn:1', 'now');
    s.compact();
    expect(readFileSync(p, 'utf8')).not.toContain('turn:1');
    expect(new JsonlTranscriptStore(p).query({ participant: 'p1' }).map((f) => f.id)).toEqual(['turn:2']);
  });
});

describe('trace stream', () => {
  it('refuses a record carrying prompt content or a transcript ref', () => {
    const t = new InMemoryTraceStream();
    const base = {
      'trace/schema': 'inquirium.assistant-turn-trace.v1', 'trace/id': 'tr:1', 'turn/id': 'turn:1',
      'participant/ref': 'participant:did:key:z6Mk', 'operation/id': 'op:1', 'time/started-at': '2026-06-04T10:12:00Z', status: 'completed',
      policy: { locality: 'local_only', 'trust/mode': 'strict_local', 'egress/allowed': false }, decisions: [], effects: [],
    };
    expect(() => t.append(base)).not.toThrow();
    expect(() => t.append({ ...base, prompt: 'secret question' })).toThrow();
    expect(() => t.append({ ...base, 'transcript/ref': 'result:1' })).toThrow();
    expect(t.all()).toHaveLength(1);
    expect(t.all()[0]!.record_type).toBe('daemon/inquirium-assistant-turn-trace.v1');
  });
});
