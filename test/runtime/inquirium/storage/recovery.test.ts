import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FramedJsonlLog, frame, readQuarantine, recover, type RecordGuard } from '../../../../runtime/inquirium/storage/framed-jsonl.ts';
import { anyRecord, isA, isIV, isN } from './guards.ts';
import { checksum } from '../../../../runtime/inquirium/storage/jsonl-frame.ts';
import { encodeQuarantine, type QuarantineEntry } from '../../../../runtime/inquirium/storage/quarantine.ts';
import { JsonlTranscriptStore, type TranscriptFact } from '../../../../runtime/inquirium/storage/transcript.ts';
import { scratchLogs } from './scratch.ts';

const logIn = scratchLogs('recovery');
const NOW = Date.parse('2026-06-04T10:00:00Z');
const AT = new Date(NOW).toISOString();
const open = <T>(p: string, isRecord: RecordGuard<T>, extra: { durable?: boolean } = {}) => {
  const lines: string[] = [];
  const log = new FramedJsonlLog(p, isRecord, { logger: (m) => void lines.push(m), now: () => NOW, ...extra });
  return { log, lines };
};
const CANARY = 'RECORD-CONTENT-CANARY';
const bytesOf = (...parts: (string | Buffer)[]) => Buffer.concat(parts.map((x) => (typeof x === 'string' ? Buffer.from(x) : x)));

describe('recovery report and quarantine', () => {
  it('a torn tail is copied to the quarantine byte for byte, then cut; the report and the one log line say so without content', () => {
    const p = logIn();
    const { log } = open(p, isN);
    log.append({ n: 1 });
    log.append({ n: 2 });
    log.close();
    const valid = readFileSync(p);
    const torn = bytesOf(frame({ n: 3, text: CANARY }).slice(0, 30), Buffer.from([0xff, 0xfe, 0x00]), CANARY);
    appendFileSync(p, torn);

    const { log: reopened, lines } = open(p, isN);
    expect(reopened.recovery).toEqual({ records: 2, validBytes: valid.length, tornTailBytes: torn.length, skipped: [], quarantinePath: `${p}.quarantine`, abandonedRewriteBytes: 0 });
    expect(reopened.all()).toEqual([{ n: 1 }, { n: 2 }]);
    expect(readFileSync(p)).toEqual(valid);
    const entry: QuarantineEntry = { source: 'log.jsonl', kind: 'torn-tail', line: 3, byteOffset: valid.length, bytes: torn.length, reason: 'torn-tail', at: AT, data: torn };
    expect(readFileSync(`${p}.quarantine`)).toEqual(encodeQuarantine([entry]));
    expect(readQuarantine(`${p}.quarantine`)).toEqual({ entries: [entry], unparsedBytes: 0 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`torn tail of ${torn.length} bytes at byte ${valid.length}`);
    expect(lines[0]).toContain(`${p}.quarantine`);
    expect(lines[0]).not.toContain(CANARY);
    reopened.append({ n: 4 });
    reopened.close();
    const { log: again, lines: quiet } = open(p, isN);
    expect(again.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }]);
    expect(quiet).toEqual([]); // a clean open says nothing
    again.close();
  });

  it('damaged complete lines are reported (line, offset, length, reason), left in place on open, and moved to the quarantine byte for byte by the next rewrite', () => {
    const p = logIn();
    const lines = [
      frame({ a: 1 }),
      frame({ a: 2, text: CANARY }).replace('"a":2', '"a":3'), // checksum mismatch
      `garbage ${CANARY}\n`, // not a frame
      `${checksum('{"a":')} {"a":\n`, // checksum of broken JSON
      frame({ a: 4 }),
    ];
    const broken = bytesOf(Buffer.from([0xc3, 0x28]), ` ${CANARY}\n`); // not UTF-8
    const file = bytesOf(...lines.slice(0, 4), broken, lines[4]!);
    writeFileSync(p, file);
    const offsets = [0, 1, 2, 3].map((i) => Buffer.byteLength(lines.slice(0, i).join('')));
    const skipped = [
      { line: 2, byteOffset: offsets[1]!, bytes: Buffer.byteLength(lines[1]!), reason: 'checksum-mismatch' },
      { line: 3, byteOffset: offsets[2]!, bytes: Buffer.byteLength(lines[2]!), reason: 'malformed-frame' },
      { line: 4, byteOffset: offsets[3]!, bytes: Buffer.byteLength(lines[3]!), reason: 'invalid-json' },
      { line: 5, byteOffset: Buffer.byteLength(lines.slice(0, 4).join('')), bytes: broken.length, reason: 'malformed-frame' },
    ] as const;

    const { log, lines: logged } = open(p, isA);
    expect(log.all()).toEqual([{ a: 1 }, { a: 4 }]);
    expect(log.recovery).toMatchObject({ records: 2, tornTailBytes: 0, skipped });
    expect(readFileSync(p)).toEqual(file); // nothing deleted on open
    expect(existsSync(`${p}.quarantine`)).toBe(false);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('skipped 4 damaged line(s)');
    expect(logged[0]).toContain(`line 2 at byte ${offsets[1]}: checksum-mismatch`);
    expect(logged[0]).not.toContain(CANARY);

    log.append({ a: 5 });
    expect(log.rewrite((r) => r.a !== 4)).toEqual({ kept: 2, dropped: 1, quarantined: 4, quarantinePath: `${p}.quarantine` });
    expect(readFileSync(p, 'utf8')).toBe(frame({ a: 1 }) + frame({ a: 5 }));
    const data = [lines[1]!, lines[2]!, lines[3]!, broken].map((x) => (typeof x === 'string' ? Buffer.from(x) : x));
    const entries = skipped.map((s, i): QuarantineEntry => ({ source: 'log.jsonl', kind: 'skipped-line', ...s, at: AT, data: data[i]! }));
    expect(readFileSync(`${p}.quarantine`)).toEqual(encodeQuarantine(entries));
    expect(readQuarantine(`${p}.quarantine`).entries.map((e) => e.data)).toEqual(data);
    expect(logged).toHaveLength(2);
    expect(logged[1]).toContain(`moved 4 damaged line(s)`);
    expect(logged[1]).not.toContain(CANARY);
    log.rewrite(() => true); // nothing left to move: the quarantine is not appended twice
    expect(readQuarantine(`${p}.quarantine`).entries).toHaveLength(4);
    log.close();
  });

  it('a rewrite never drops a skipped line (property: random records, damaged lines and keep sets)', () => {
    const junk = fc.uint8Array({ minLength: 0, maxLength: 40 }).map((b) => Buffer.from(b.filter((x) => x !== 0x0a)));
    const item = fc.oneof(fc.record({ keep: fc.boolean(), v: fc.jsonValue() }), junk);
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (items) => {
        const p = logIn();
        const records: { keep: boolean; v: unknown; i: number }[] = [];
        const bad: Buffer[] = [];
        const parts: Buffer[] = [];
        for (const x of items) {
          if (Buffer.isBuffer(x)) {
            bad.push(bytesOf(x, '\n'));
            parts.push(bad.at(-1)!);
          } else {
            records.push({ ...x, i: records.length });
            parts.push(Buffer.from(frame({ i: records.length - 1, v: x.v })));
          }
        }
        fc.pre(bad.every((b) => recover(b, anyRecord).records.length === 0));
        writeFileSync(p, Buffer.concat(parts));
        const { log } = open(p, isIV, { durable: false });
        const report = log.rewrite((r) => records[r.i]!.keep);
        log.close();
        const kept = records.filter((r) => r.keep);
        expect(report).toMatchObject({ kept: kept.length, quarantined: bad.length });
        expect(readFileSync(p)).toEqual(bytesOf(...kept.map((r) => frame({ i: r.i, v: r.v }))));
        expect(existsSync(`${p}.quarantine`) ? readQuarantine(`${p}.quarantine`).entries.map((e) => e.data) : []).toEqual(bad);
      }),
      { numRuns: 150 },
    );
  });

  it('a rewrite interrupted before its rename leaves the old log whole; the stray temp file is removed and reported', () => {
    const p = logIn();
    const { log } = open(p, isN);
    for (let n = 0; n < 3; n++) log.append({ n });
    log.close();
    writeFileSync(`${p}.rewrite`, frame({ n: 1 }).slice(0, 9));
    const { log: reopened, lines } = open(p, isN);
    expect(reopened.all()).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    expect(reopened.recovery.abandonedRewriteBytes).toBe(9);
    expect(existsSync(`${p}.rewrite`)).toBe(false);
    expect(lines[0]).toContain('removed 9 bytes of an interrupted rewrite');
    reopened.close();
    const gone = join(p, '..', 'other.jsonl');
    writeFileSync(`${gone}.rewrite`, 'x');
    expect(() => open(gone, anyRecord)).toThrow(/interrupted rewrite/);
    expect(existsSync(`${gone}.lock`)).toBe(false); // a failed open releases its lock
  });
});

describe('JSONL transcript store on recovery', () => {
  const fact = (id: string, text: string): TranscriptFact => ({ kind: 'turn', id, participant: 'p1', session: 's1', classification: 'personal', recordedAt: AT, body: { text } });
  it('an excision whose compaction a crash interrupted is completed on open: the content leaves the disk', async () => {
    const p = logIn();
    writeFileSync(p, frame(fact('turn:1', CANARY)) + frame(fact('turn:2', 'kept')) + frame({ kind: 'excision', id: 'turn:1', participant: 'p1', at: AT }));
    const s = new JsonlTranscriptStore(p);
    expect((await s.query({ participant: 'p1' })).map((f) => f.id)).toEqual(['turn:2']);
    expect(readFileSync(p, 'utf8')).not.toContain(CANARY);
    expect(readFileSync(p, 'utf8')).toBe(frame(fact('turn:2', 'kept')));
    s.close();
  });
  it('an excision keeps the damaged lines of the transcript: they move to the quarantine', async () => {
    const p = logIn();
    const damaged = `${'0'.repeat(16)} {"kind":"turn"}\n`;
    writeFileSync(p, frame(fact('turn:1', 'a')) + damaged + frame(fact('turn:2', 'b')));
    const s = new JsonlTranscriptStore(p, { logger: () => {} });
    expect(s.recovery.skipped).toHaveLength(1);
    expect(await s.excise('p1', 'turn:1', AT)).toBe(true);
    expect(readFileSync(p, 'utf8')).toBe(frame(fact('turn:2', 'b')));
    expect(readQuarantine(`${p}.quarantine`).entries.map((e) => e.data.toString())).toEqual([damaged]);
    s.close();
  });
});
