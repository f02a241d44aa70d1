/**
 * Append-only per-run event log. Sequences start at 0 and grow by one; every event is validated before it is
 * appended, and an invalid event is refused (thrown) and never stored — an emitter producing an invalid event is
 * a bug tests must see. Reads return copies.
 */
import type { RunEvent } from '../../generated/ts/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { validateRunEvent, type EventValidationFailure } from './validate.ts';

/** What a caller appends: the event's type, payload and optional causal fields; the log assigns the rest. */
export type AppendInput = Readonly<Pick<RunEvent, 'type' | 'payload' | 'nodeId' | 'causationId'>>;

export class InvalidRunEventError extends Error {
  constructor(readonly type: string, readonly failures: readonly EventValidationFailure[]) {
    super(`refusing to append invalid ${type} event: ${failures.map((f) => `${f.instancePath || '/'} ${f.message}`).join('; ')}`);
    this.name = 'InvalidRunEventError';
  }
}

export type RunEventListener = (event: Readonly<RunEvent>) => void;

export class RunEventLog {
  readonly #runs = new Map<string, Readonly<RunEvent>[]>();
  readonly #listeners = new Set<RunEventListener>();
  constructor(private readonly clock: Clock, private readonly ids: IdSource) {}

  append(runId: string, input: AppendInput): Readonly<RunEvent> {
    const events = this.#runs.get(runId) ?? [];
    const event: RunEvent = {
      eventId: this.ids.next('evt'),
      runId,
      type: input.type,
      payload: structuredClone(input.payload),
      timestamp: toIso(this.clock.now()),
      sequence: events.length,
      ...(input.nodeId !== undefined ? { nodeId: input.nodeId } : {}),
      ...(input.causationId !== undefined ? { causationId: input.causationId } : {}),
    };
    const result = validateRunEvent(event);
    if (!result.ok) throw new InvalidRunEventError(input.type, result.failures);
    events.push(Object.freeze(event));
    this.#runs.set(runId, events);
    for (const l of this.#listeners) l(event);
    return event;
  }

  /** Events of a run from `fromSeq` (inclusive), in order. Unknown run: []. */
  read(runId: string, fromSeq = 0): readonly Readonly<RunEvent>[] {
    return (this.#runs.get(runId) ?? []).slice(Math.max(0, fromSeq));
  }
  /** Highest sequence appended, or -1. */
  lastSequence(runId: string): number {
    return (this.#runs.get(runId)?.length ?? 0) - 1;
  }
  has(runId: string): boolean {
    return this.#runs.has(runId);
  }
  runIds(): readonly string[] {
    return [...this.#runs.keys()];
  }
  /** Drop a run's log (retention); forks from it then report event_log_unavailable. */
  drop(runId: string): void {
    this.#runs.delete(runId);
  }
  subscribe(listener: RunEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
