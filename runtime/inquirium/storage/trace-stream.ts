/**
 * The assistant-turn trace stream (P066 Decision 10): stream `trace/inquirium-assistant-turns`, record type
 * `daemon/inquirium-assistant-turn-trace.v1`, payload `inquirium.assistant-turn-trace.v1`. Records hold shape,
 * decisions and effects — never prompt or response content (the schema is closed and has no place for it; the
 * stream also refuses any record that fails the schema). References are one-way: a trace names its turn and
 * participant, never a transcript record.
 *
 * Two homes: the store (StoreTraceStream, a document log read by trace id — a generate's trace commits with the
 * rest of its request), or a local framed JSONL file (JsonlTraceStream, the node's append-only baseline).
 */
import type { HostSampleTraceRecord } from '../../../generated/ts/index.ts';
import { validateHostSampleTraceRecord } from '../../../generated/validators/validators.js';
import { toFailures } from '../../../generated/guards/index.ts';
import { assertDto } from '../dto.ts';
import { FramedJsonlLog, type FramedJsonlOptions, type RecoveryReport } from './framed-jsonl.ts';
import { StoreCorruptError, type JsonDoc, type Tx } from '../../storage/index.ts';


export const TRACE_STREAM = 'trace/inquirium-assistant-turns';
export const TRACE_RECORD_TYPE = 'daemon/inquirium-assistant-turn-trace.v1';

/** One record of the stream: `{stream, record_type, body}`, the generated trace-record shape, read-only. */
export type TraceEnvelope = Readonly<HostSampleTraceRecord>;

/** The most records one read returns. */
export const MAX_TRACE_PAGE = 1000;

/**
 * The stream as a request uses it: every call runs in the request's unit of work `tx` (an append is planned into it
 * and commits with the rest of the request). A home outside the store (the JSONL file) takes no part in the unit and
 * may ignore `tx`.
 */
export interface TraceStream {
  /** Append a trace body (validated first: anything else is refused) as part of the request's writes. */
  append(trace: unknown, tx: Tx): Promise<TraceEnvelope>;
  /** The records of one trace (`trace/id`), in append order. */
  byTrace(traceRef: string, tx: Tx): Promise<TraceEnvelope[]>;
  /** The newest records (at most MAX_TRACE_PAGE), in append order. */
  recent(tx: Tx): Promise<TraceEnvelope[]>;
}

/** The stream for a caller outside any request (a library caller, a test): each call is its own unit of work. */
export interface StandaloneTraceStream {
  append(trace: unknown): Promise<TraceEnvelope>;
  byTrace(traceRef: string): Promise<TraceEnvelope[]>;
  recent(): Promise<TraceEnvelope[]>;
}

/** Validate and wrap a trace body into its envelope; throws, changing nothing, when the body is invalid. */
export function traceEnvelope(trace: unknown): TraceEnvelope {
  const body = assertDto('inquirium.assistant-turn-trace.v1', trace);
  return { stream: TRACE_STREAM, record_type: TRACE_RECORD_TYPE, body: structuredClone(body) };
}

/** Whether a value is a trace record (the generated check of the envelope and its body, in full). */
export const isTraceEnvelope = (value: unknown): value is TraceEnvelope => validateHostSampleTraceRecord(value);

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TRACE_STRINGS = ['trace/id', 'turn/id', 'participant/ref', 'operation/id', 'time/started-at', 'status'] as const;

/**
 * The JSONL trace file's record guard: the record's shape — its stream and record type, and a body of this trace
 * schema with every required member of its kind — without the full schema. Each record was validated in full before
 * it was appended and its line is checksummed, so a replay checks only that a line is one of this log's records
 * (a foreign or older writer's line is skipped as not-a-record): the full check cost a third more on opening a
 * 10,000-record file.
 */
export function isTraceRecordShape(value: unknown): value is TraceEnvelope {
  if (!isObject(value) || value.stream !== TRACE_STREAM || value.record_type !== TRACE_RECORD_TYPE) return false;
  const body = value.body;
  return isObject(body) && body['trace/schema'] === 'inquirium.assistant-turn-trace.v1' && TRACE_STRINGS.every((k) => typeof body[k] === 'string')
    && isObject(body.policy) && Array.isArray(body.decisions) && Array.isArray(body.effects);
}

/**
 * The traces log's decoder: a stored document back into its record, checked against the generated record schema; a
 * document that fails it is refused (StoreCorruptError), never handed on as a record.
 */
export function traceRecordOf(doc: JsonDoc): TraceEnvelope {
  if (isTraceEnvelope(doc)) return doc;
  const why = toFailures(validateHostSampleTraceRecord.errors).slice(0, 3).map((f) => `${f.instancePath || '/'} ${f.message}`).join('; ');
  throw new StoreCorruptError(StoreTraceStream.LOG, `a stored trace record is not one this runtime wrote (${why})`);
}

/** The trace stream in the store: one document log, each record filed under its trace id. */
export class StoreTraceStream implements TraceStream {
  static readonly LOG = 'traces';
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  async append(trace: unknown, tx: Tx): Promise<TraceEnvelope> {
    const e = traceEnvelope(trace);
    tx.add('doc.append', { log: StoreTraceStream.LOG, key: e.body['trace/id'], atMs: this.#now(), doc: e });
    return e;
  }

  async byTrace(traceRef: string, tx: Tx): Promise<TraceEnvelope[]> {
    return (await tx.read.docsPage({ log: StoreTraceStream.LOG, key: traceRef, fromPos: 0, limit: MAX_TRACE_PAGE })).map((d) => traceRecordOf(d.doc));
  }

  async recent(tx: Tx): Promise<TraceEnvelope[]> {
    return (await tx.read.docsPage({ log: StoreTraceStream.LOG, fromPos: 0, limit: MAX_TRACE_PAGE, newestFirst: true })).reverse().map((d) => traceRecordOf(d.doc));
  }
}

/**
 * The trace stream in a local framed JSONL file (one writer; durable appends unless `durable: false`). It is outside
 * the store, so it serves a request and a stand-alone caller alike and takes no part in a unit of work.
 */
export class JsonlTraceStream implements TraceStream, StandaloneTraceStream {
  readonly #log: FramedJsonlLog<TraceEnvelope>;
  constructor(path: string, options: FramedJsonlOptions = {}) {
    this.#log = new FramedJsonlLog(path, isTraceRecordShape, options);
  }
  /** What recovery found when the file was opened. */
  get recovery(): RecoveryReport {
    return this.#log.recovery;
  }
  /** Close the file and release its writer lock. */
  close(): void {
    this.#log.close();
  }
  async append(trace: unknown): Promise<TraceEnvelope> {
    const e = traceEnvelope(trace);
    this.#log.append(e);
    return e;
  }
  async byTrace(traceRef: string): Promise<TraceEnvelope[]> {
    return this.#log.all().filter((e) => e.body['trace/id'] === traceRef);
  }
  async recent(): Promise<TraceEnvelope[]> {
    return this.#log.all().slice(-MAX_TRACE_PAGE);
  }
}
