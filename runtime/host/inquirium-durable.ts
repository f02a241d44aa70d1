/**
 * The Inquirium runtime's state on the storage port: operator questions (every transition, with its appended
 * state history) and the assistant-turn trace stream. Loaded at start without write-back, then written through
 * the same ordered queue as the OpenWOP runtime's state (runtime/openwop/durable.ts), so the host's one durability
 * barrier covers both. The JSONL trace and transcript files (runtime/inquirium/storage/) stay the local-file option.
 */
import { InMemoryTraceStream, type TraceEnvelope } from '../inquirium/storage/trace-stream.ts';
import type { OperatorQuestions } from '../inquirium/operator-questions.ts';
import type { JsonDoc, StoragePort } from '../storage/port.ts';
import type { WriteQueue } from '../storage/write-queue.ts';

/** A trace stream kept in memory for reads and appended to the store on every record. */
export class DurableTraceStream extends InMemoryTraceStream {
  readonly #port: StoragePort;
  readonly #queue: WriteQueue;
  #loading = false;
  private constructor(port: StoragePort, queue: WriteQueue) {
    super();
    this.#port = port;
    this.#queue = queue;
  }
  /** The stream with every record the store holds, in append order. */
  static async open(port: StoragePort, queue: WriteQueue): Promise<DurableTraceStream> {
    const stream = new DurableTraceStream(port, queue);
    const records = await port.traces.all();
    stream.#loading = true;
    try {
      for (const r of records) stream.store(r as unknown as TraceEnvelope);
    } finally {
      stream.#loading = false;
    }
    return stream;
  }
  protected override store(e: TraceEnvelope): void {
    super.store(e);
    if (!this.#loading) this.#queue.enqueue(() => this.#port.traces.append(e as unknown as JsonDoc));
  }
}

/** Load the stored operator questions into `questions` and write every later transition through. How many were loaded. */
export async function attachQuestions(questions: OperatorQuestions, port: StoragePort, queue: WriteQueue): Promise<number> {
  const stored = await port.questions.all();
  questions.restore(stored);
  questions.persistTo({
    transitioned: (tenant, ref, record, stateDto) => queue.enqueue(() => port.questions.transition(tenant, ref, record as JsonDoc, stateDto as JsonDoc)),
    forgotten: (tenant, ref) => queue.enqueue(() => port.questions.remove(tenant, ref)),
  });
  return stored.length;
}
