/**
 * The assistant-turn trace stream (P066 Decision 10): stream `trace/inquirium-assistant-turns`, record type
 * `daemon/inquirium-assistant-turn-trace.v1`, payload `inquirium.assistant-turn-trace.v1`. Records hold shape,
 * decisions and effects — never prompt or response content (the schema is closed and has no place for it; the
 * stream also refuses any record that fails the schema). References are one-way: a trace names its turn and
 * participant, never a transcript record.
 */
import type { HostSampleTraceRecord, InquiriumAssistantTurnTrace } from '../../../generated/ts/index.ts';
import { assertDto } from '../dto.ts';
import { FramedJsonlLog, type FramedJsonlOptions, type RecoveryReport } from './framed-jsonl.ts';

export const TRACE_STREAM = 'trace/inquirium-assistant-turns';
export const TRACE_RECORD_TYPE = 'daemon/inquirium-assistant-turn-trace.v1';

/** One record of the stream: `{stream, record_type, body}`, the generated trace-record shape, read-only. */
export type TraceEnvelope = Readonly<HostSampleTraceRecord>;

export interface TraceStream {
  append(trace: Record<string, unknown>): TraceEnvelope;
  all(): readonly TraceEnvelope[];
  byTurn(turnId: string): TraceEnvelope[];
}

abstract class BaseTraceStream implements TraceStream {
  protected abstract store(e: TraceEnvelope): void;
  abstract all(): readonly TraceEnvelope[];
  append(trace: Record<string, unknown>): TraceEnvelope {
    const body = assertDto<InquiriumAssistantTurnTrace>('inquirium.assistant-turn-trace.v1', trace);
    const e: TraceEnvelope = { stream: TRACE_STREAM, record_type: TRACE_RECORD_TYPE, body: structuredClone(body) };
    this.store(e);
    return e;
  }
  byTurn(turnId: string): TraceEnvelope[] {
    return this.all().filter((e) => e.body['turn/id'] === turnId);
  }
}

export class InMemoryTraceStream extends BaseTraceStream {
  readonly #records: TraceEnvelope[] = [];
  protected store(e: TraceEnvelope): void {
    this.#records.push(e);
  }
  all(): readonly TraceEnvelope[] {
    return this.#records;
  }
}

/** The trace stream in a local framed JSONL file (one writer; durable appends unless `durable: false`). */
export class JsonlTraceStream extends BaseTraceStream {
  readonly #log: FramedJsonlLog<TraceEnvelope>;
  constructor(path: string, options: FramedJsonlOptions = {}) {
    super();
    this.#log = new FramedJsonlLog<TraceEnvelope>(path, options);
  }
  /** What recovery found when the file was opened. */
  get recovery(): RecoveryReport {
    return this.#log.recovery;
  }
  /** Close the file and release its writer lock. */
  close(): void {
    this.#log.close();
  }
  protected store(e: TraceEnvelope): void {
    this.#log.append(e);
  }
  all(): readonly TraceEnvelope[] {
    return this.#log.all();
  }
}
