/**
 * Append-only per-run event log. Sequences start at 0 and grow by one; every event is validated before it is
 * appended, and an invalid event is refused (thrown) and never stored — an emitter producing an invalid event is
 * a bug tests must see. Reads return copies.
 *
 * Typing of `append`: the payload of a known event type is the generated `RunEventPayloadMap` entry for it, so a
 * wrong payload for `memory.compacted` is a compile error. The spec also requires consumers to tolerate event
 * types they do not know, so a producer may emit one (a vendor or newer type): any other type literal takes an
 * open payload, and so does a type only known at run time (`string`). Whatever the static type, every event is
 * validated at run time before it is stored (the envelope, and the payload of a known type).
 */
import type { KnownRunEventType, RunEventPayloadMap } from '../../generated/run-events/index.ts';
import type { RunEvent } from '../../generated/ts/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { WopkitError } from '../shared/errors.ts';
import { validateRunEvent, type EventValidationFailure } from './validate.ts';

/** The payload an event of type `T` carries: the generated payload of a known type, an open object otherwise. */
export type PayloadOf<T extends string> = T extends KnownRunEventType ? RunEventPayloadMap[T] : RunEvent['payload'];

/** What a caller appends: the event's type, its payload and the optional causal fields; the log assigns the rest. */
export type AppendInput<T extends string = string> = Readonly<Pick<RunEvent, 'nodeId' | 'causationId'> & { type: T; payload: Readonly<PayloadOf<T>> }>;

/** An emitter produced an event the schema refuses: a runtime bug (a server fault on the wire). */
export class InvalidRunEventError extends WopkitError<'invalid_run_event'> {
  constructor(readonly type: string, readonly failures: readonly EventValidationFailure[]) {
    super('invalid_run_event', `refusing to append invalid ${type} event: ${failures.map((f) => `${f.instancePath || '/'} ${f.message}`).join('; ')}`);
  }
}

export type RunEventListener = (event: Readonly<RunEvent>) => void;
/** Told when a run's log is dropped (retention). */
export type RunLogDropListener = (runId: string) => void;

/** Append an event of a known type to `runId`'s log, its payload typed by the generated payload map. */
export type EmitFn = <T extends KnownRunEventType>(runId: string, type: T, payload: RunEventPayloadMap[T]) => void;

export class RunEventLog {
  readonly #runs = new Map<string, Readonly<RunEvent>[]>();
  readonly #listeners = new Set<RunEventListener>();
  readonly #dropListeners = new Set<RunLogDropListener>();
  constructor(private readonly clock: Clock, private readonly ids: IdSource) {}

  /** `append` as the emitting modules take it (compaction, distillation): a known type and its payload. */
  readonly emit: EmitFn = (runId, type, payload) => void this.append<KnownRunEventType>(runId, { type, payload });

  append<T extends string>(runId: string, input: AppendInput<T>): Readonly<RunEvent> {
    const events = this.#runs.get(runId) ?? [];
    const event: RunEvent = {
      eventId: this.ids.next('evt'),
      runId,
      type: input.type,
      // A closed payload interface (no index signature) is still a JSON object: the envelope's open payload.
      payload: structuredClone(input.payload) as RunEvent['payload'],
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
    if (this.#runs.delete(runId)) for (const l of this.#dropListeners) l(runId);
  }
  subscribe(listener: RunEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  /** Observe dropped logs (a durable store forgets them too). */
  onDrop(listener: RunLogDropListener): () => void {
    this.#dropListeners.add(listener);
    return () => this.#dropListeners.delete(listener);
  }
  /**
   * Put back an event loaded from a durable store at start, telling no listener. Events must come in sequence
   * order per run, each the next sequence of its run (anything else is a corrupt store: thrown).
   */
  restore(event: Readonly<RunEvent>): void {
    const events = this.#runs.get(event.runId) ?? [];
    if (event.sequence !== events.length) throw new RangeError(`restoring run ${event.runId}: expected sequence ${events.length}, got ${event.sequence}`);
    events.push(Object.freeze(structuredClone(event)));
    this.#runs.set(event.runId, events);
  }
}
