/**
 * A corrupt row never leaks into a typed value (issue 32): every stored document and DTO the Inquirium runtime reads
 * is decoded by a check — the DTO table's generated validators, the traces log's record schema, the transcript's
 * line shape, a framed JSONL log's record guard — and one that fails it is refused with its specific error.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validatorIndex } from '../../../generated/validators/validators.js';
import { assertDto, DTO_IDS, dtoSchemaId, dtoValidator, DtoValidationError } from '../../../runtime/inquirium/dto.ts';
import { FramedJsonlLog, FramedRecordRefusedError, frame, readQuarantine, recover } from '../../../runtime/inquirium/storage/framed-jsonl.ts';
import { isTranscriptLine, JsonlTranscriptStore, StoreTranscript, transcriptLineOf, type TranscriptFact } from '../../../runtime/inquirium/storage/transcript.ts';
import { isTraceRecordShape, JsonlTraceStream, StoreTraceStream, traceEnvelope, traceRecordOf, type TraceEnvelope } from '../../../runtime/inquirium/storage/trace-stream.ts';
import { openMemoryStore, StoreCorruptError, unitsOf, type JsonDoc } from '../../../runtime/storage/index.ts';
import { PARTICIPANT } from './helpers.ts';
import { isN } from './storage/guards.ts';
import { scratchDirs } from './storage/scratch.ts';

const dir = scratchDirs('decoders');
const quiet = { logger: () => {} };

const TRACE = {
  'trace/schema': 'inquirium.assistant-turn-trace.v1', 'trace/id': 'tr:1', 'turn/id': 'turn:1',
  'participant/ref': PARTICIPANT, 'operation/id': 'op:1', 'time/started-at': '2026-06-04T10:12:00Z', status: 'completed',
  policy: { locality: 'local_only', 'trust/mode': 'strict_local', 'egress/allowed': false }, decisions: [], effects: [],
};
const FACT: TranscriptFact = { kind: 'turn', id: 'turn:1', participant: 'p1', session: 's1', classification: 'personal', recordedAt: '2026-06-04T10:00:00Z', body: { id: 'turn:1' } };
const EXCISION = { kind: 'excision', id: 'turn:1', participant: 'p1', at: '2026-06-04T11:00:00Z' };

/** A JSON copy of `v` as a stored document (what the store hands a decoder). */
const stored = (v: object): JsonDoc => {
  const doc: unknown = JSON.parse(JSON.stringify(v));
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('not an object');
  return Object.fromEntries(Object.entries(doc));
};
/** `doc` with `key` (a top-level member, or `body.<key>`) replaced by `value`, or removed when `value` is undefined. */
const mutated = (doc: JsonDoc, path: readonly string[], value: unknown): JsonDoc => {
  const copy: Record<string, unknown> = structuredClone({ ...doc });
  let at: Record<string, unknown> = copy;
  for (const k of path.slice(0, -1)) {
    const next = at[k];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) throw new Error(`no object at ${k}`);
    at = Object.fromEntries(Object.entries(next));
    copy[k] = at;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return stored(copy);
};
/** The JSON kind of a value. */
const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
/** The member at `path` of `doc`. */
const at = (doc: unknown, path: readonly string[]): unknown => path.reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? Object.fromEntries(Object.entries(o))[k] : undefined), doc);
/** A JSON value of another kind than `original` (what a corrupt row might hold there), or undefined (the member gone). */
const corruptFor = (original: unknown) =>
  fc.option(fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string(), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 })).filter((v) => kindOf(v) !== kindOf(original)), { nil: undefined });
/** A path of `doc` and a corrupt value for it. */
const corruption = (doc: JsonDoc, paths: readonly (readonly string[])[]) => fc.constantFrom(...paths).chain((path) => corruptFor(at(doc, path)).map((value) => [path, value] as const));

describe('the DTO table', () => {
  it('names, for every DTO id, the generated validator the index files under that schema id', () => {
    const byId = new Map(Object.values(validatorIndex).map((v) => [v.id, v.validator]));
    expect(DTO_IDS.length).toBeGreaterThan(20);
    for (const id of DTO_IDS) expect(dtoValidator(id), id).toBe(byId.get(dtoSchemaId(id)));
  });

  it('assertDto answers the value it checked, and refuses anything else with DtoValidationError naming the DTO', () => {
    const body = traceEnvelope(TRACE).body;
    expect(assertDto('inquirium.assistant-turn-trace.v1', body)).toBe(body);
    const refused = (() => {
      try {
        assertDto('inquirium.assistant-turn-trace.v1', { ...TRACE, prompt: 'content' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(DtoValidationError);
    expect(refused).toMatchObject({ code: 'dto-invalid', dto: 'inquirium.assistant-turn-trace.v1', status: 400 });
  });
});

describe("the traces log's decoder", () => {
  const record = stored(traceEnvelope(TRACE));

  it('gives back a record the runtime wrote, and refuses a document missing any member of the record or of its body (property)', () => {
    expect(traceRecordOf(record)).toEqual(record);
    const requiredPaths = [['stream'], ['record_type'], ['body'], ...['trace/id', 'turn/id', 'participant/ref', 'status', 'policy', 'decisions', 'effects'].map((k) => ['body', k])];
    fc.assert(
      fc.property(corruption(record, requiredPaths), ([path, value]) => {
        expect(() => traceRecordOf(mutated(record, path, value))).toThrow(StoreCorruptError);
      }),
      { numRuns: 200 },
    );
    expect(() => traceRecordOf(mutated(record, ['body', 'prompt'], 'content'))).toThrow(/not one this runtime wrote/);
  });

  it('a corrupt row in the store fails the read with StoreCorruptError (byTrace and recent)', async () => {
    const port = await openMemoryStore();
    const t = new StoreTraceStream(() => 0);
    const unit = unitsOf(port);
    await unit((tx) => t.append(TRACE, tx));
    await unit((tx) => void tx.add('doc.append', { log: StoreTraceStream.LOG, key: 'tr:1', atMs: 0, doc: { stream: 'trace/inquirium-assistant-turns', body: { 'trace/id': 'tr:1' } } }));
    await expect(unit((tx) => t.byTrace('tr:1', tx))).rejects.toThrow(StoreCorruptError);
    await expect(unit((tx) => t.recent(tx))).rejects.toThrow(StoreCorruptError);
  });

  it('a JSONL trace file: a checksummed line that is not a record is skipped as not-a-record, never read as one', async () => {
    const p = join(dir(), 'traces.jsonl');
    const good = traceEnvelope(TRACE);
    const { 'turn/id': _turn, ...withoutTurn } = good.body;
    writeFileSync(p, frame({ ...good, body: withoutTurn }) + frame(good) + frame({ ...good, record_type: 'daemon/other.v1' }));
    const traces = new JsonlTraceStream(p, quiet);
    expect(traces.recovery.skipped.map((s) => [s.line, s.reason])).toEqual([[1, 'not-a-record'], [3, 'not-a-record']]);
    const read: TraceEnvelope[] = await traces.recent();
    expect(read).toEqual([stored(good)]);
    traces.close();
  });

  it('the JSONL guard accepts a record the runtime wrote, and refuses one missing any required member or holding it as another kind (property)', () => {
    expect(isTraceRecordShape(record)).toBe(true);
    const requiredPaths = [['stream'], ['record_type'], ['body'], ...['trace/schema', 'trace/id', 'turn/id', 'participant/ref', 'operation/id', 'time/started-at', 'status', 'policy', 'decisions', 'effects'].map((k) => ['body', k])];
    fc.assert(
      fc.property(corruption(record, requiredPaths), ([path, value]) => {
        expect(isTraceRecordShape(mutated(record, path, value))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the transcript's decoder", () => {
  const fact = stored(FACT);

  it('gives back a fact or an excision the runtime wrote, and refuses a wrongly typed or missing member (property)', () => {
    expect(transcriptLineOf(fact)).toEqual(fact);
    expect(transcriptLineOf(stored(EXCISION))).toEqual(EXCISION);
    const factKeys = ['kind', 'id', 'participant', 'session', 'classification', 'recordedAt', 'body'];
    fc.assert(
      fc.property(corruption(fact, factKeys.map((k) => [k])), ([path, value]) => {
        expect(() => transcriptLineOf(mutated(fact, path, value))).toThrow(StoreCorruptError);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(corruption(stored(EXCISION), [['id'], ['participant'], ['at']]), ([path, value]) => {
        expect(() => transcriptLineOf(mutated(stored(EXCISION), path, value))).toThrow(StoreCorruptError);
      }),
      { numRuns: 60 },
    );
    for (const [key, value] of [['kind', 'memo'], ['classification', 'secret'], ['body', 'text'], ['body', ['a']]] as const) {
      expect(() => transcriptLineOf(mutated(fact, [key], value)), `${key}: ${JSON.stringify(value)}`).toThrow(/not one this runtime wrote/);
    }
  });

  it('a corrupt row in the store fails query, excise and retention with StoreCorruptError', async () => {
    const port = await openMemoryStore();
    const s = new StoreTranscript(unitsOf(port), () => 0);
    await s.append(FACT);
    await unitsOf(port)((tx) => void tx.add('doc.append', { log: StoreTranscript.LOG, key: 'p1', item: 'turn:2', atMs: 0, doc: { ...FACT, id: 'turn:2', classification: 'secret' } }));
    await expect(s.query({ participant: 'p1' })).rejects.toThrow(StoreCorruptError);
    await expect(s.excise('p1', 'turn:2', 'now')).rejects.toThrow(StoreCorruptError);
    await expect(s.applyRetention(() => true, 'now')).rejects.toThrow(StoreCorruptError);
  });

  it('a JSONL transcript: a foreign line is skipped (not-a-record), never queried, and moved to the quarantine by the next compaction', async () => {
    const p = join(dir(), 't.jsonl');
    const foreign = frame({ kind: 'turn', id: 'turn:9', participant: 'p1' });
    writeFileSync(p, frame(FACT) + foreign);
    const s = new JsonlTranscriptStore(p, quiet);
    expect(s.recovery.skipped).toEqual([{ line: 2, byteOffset: Buffer.byteLength(frame(FACT)), bytes: Buffer.byteLength(foreign), reason: 'not-a-record' }]);
    expect((await s.query({ participant: 'p1' })).map((f) => f.id)).toEqual(['turn:1']);
    expect(s.compact()).toMatchObject({ kept: 1, quarantined: 1 });
    expect(readQuarantine(`${p}.quarantine`).entries.map((e) => [e.reason, e.data.toString()])).toEqual([['not-a-record', foreign]]);
    s.close();
    expect(readFileSync(p, 'utf8')).toBe(frame(FACT));
  });

  it('isTranscriptLine is the guard the JSONL store reads with: recover() keeps exactly the lines it accepts', () => {
    const lines = [FACT, EXCISION, { ...FACT, body: null }, { ...EXCISION, at: 5 }, { kind: 'feedback' }, 'text', 7];
    const bytes = Buffer.from(lines.map((l) => frame(l)).join(''));
    const r = recover(bytes, isTranscriptLine);
    expect(r.records).toEqual([FACT, EXCISION]);
    expect(r.skipped.map((x) => x.reason)).toEqual(['not-a-record', 'not-a-record', 'not-a-record', 'not-a-record', 'not-a-record']);
  });
});

describe('a framed JSONL log and its record guard', () => {
  it('refuses, before writing anything, a record whose JSON would not read back as a record', () => {
    const p = join(dir(), 'n.jsonl');
    const log = new FramedJsonlLog(p, isN, quiet);
    log.append({ n: 1 });
    const before = readFileSync(p);
    expect(() => log.append({ n: Number.NaN })).toThrow(FramedRecordRefusedError); // JSON writes NaN as null
    expect(readFileSync(p)).toEqual(before);
    expect(log.all()).toEqual([{ n: 1 }]);
    expect(log.append({ n: 2 })).toEqual({ n: 2 });
    log.close();
    appendFileSync(p, frame({ n: 'three' }));
    const reopened = new FramedJsonlLog(p, isN, quiet);
    expect(reopened.all()).toEqual([{ n: 1 }, { n: 2 }]);
    expect(reopened.recovery.skipped.map((s) => s.reason)).toEqual(['not-a-record']);
    reopened.close();
  });
});

describe("the quarantine's header decoder", () => {
  it('reads back every whole entry, and stops at a header that is not one it wrote (the rest counted as unparsed)', () => {
    const p = join(dir(), 'q.jsonl.quarantine');
    const entry = { source: 'q.jsonl', kind: 'skipped-line', line: 2, byteOffset: 40, bytes: 4, reason: 'not-a-record', at: '2026-06-04T10:00:00.000Z' } as const;
    const good = `#quarantine ${JSON.stringify(entry)}\nabc\n\n`;
    for (const bad of [{ ...entry, bytes: '4' }, { ...entry, reason: 'gremlins' }, { ...entry, kind: 'other' }, { ...entry, line: -1 }, [entry]]) {
      const tail = `#quarantine ${JSON.stringify(bad)}\nabc\n\n`;
      writeFileSync(p, good + tail);
      const read = readQuarantine(p);
      expect(read.entries.map((e) => [e.reason, e.data.toString()]), JSON.stringify(bad)).toEqual([['not-a-record', 'abc\n']]);
      expect(read.unparsedBytes).toBe(Buffer.byteLength(tail));
    }
  });
});
