/**
 * The append-only run event log, in the store. Every event is built here (id, timestamp), validated before it is
 * planned — an invalid event is refused (thrown) and never stored: an emitter producing one is a bug tests must
 * see — and appended in the request's transaction, where the store gives it its run's next gap-free sequence and
 * the replay journal's head (the memory a fork at this event reads). Reads are pages from a sequence on.
 *
 * Typing of `append`: the payload of a known event type is the generated `RunEventPayloadMap` entry for it, so a
 * wrong payload for `memory.compacted` is a compile error. The spec also requires consumers to tolerate event
 * types they do not know, so a producer may emit one (a vendor or newer type): any other type literal takes an
 * open payload, and so does a type only known at run time (`string`). Whatever the static type, every event is
 * validated at run time before it is planned (the envelope, and the payload of a known type).
 *
 * Every log belongs to a run row of one tenant. Work that belongs to no run a client started (a compaction, a
 * consolidation pass, a proposal's events, a write no run made) is logged in a run of its own (`appendTask`: one run
 * per piece of work, ended at once and retired by retention) or in the tenant's background log (`appendBackground`:
 * one run per tenant that keeps its newest events only).
 */
import { copyJson } from '../shared/json-copy.ts';
import type { KnownRunEventType, RunEventPayloadMap } from '../../generated/run-events/index.ts';
import type { RunEvent } from '../../generated/ts/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { WopkitError } from '../shared/errors.ts';
import { DEFAULT_ENDED_RUNS_KEPT, type EventPage, type Pending, type RunKind, type Tx } from '../storage/index.ts';
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

/** Plan an event of a known type into `runId`'s log within `tx`, its payload typed by the generated payload map. */
export type EmitFn = <T extends KnownRunEventType>(tx: Tx, runId: string, type: T, payload: RunEventPayloadMap[T]) => void;

/** The tenant's background log: where events of work no run made are kept. */
export const backgroundRunId = (tenant: string): string => `bg-${tenant}`;

export interface RunEventLogLimits {
  /** Events one run may hold; one more is refused (429 `quota_exceeded`, resource `events-per-run`). */
  readonly eventsPerRun: number;
  /** Events a tenant's background log keeps (the newest; older ones are dropped as new ones come). */
  readonly backgroundEventsKept: number;
  /** Ended runs a tenant keeps (a task run ends at once and counts among them; past it the oldest are retired). */
  readonly endedRunsKept: number;
}

export const DEFAULT_EVENT_LOG_LIMITS: RunEventLogLimits = { eventsPerRun: 100_000, backgroundEventsKept: 10_000, endedRunsKept: DEFAULT_ENDED_RUNS_KEPT };

/** The largest page of events a read returns, and the page size when none is asked for. */
export const MAX_EVENT_PAGE = 1000;

export class RunEventLog {
  readonly #clock: Clock;
  readonly #ids: IdSource;
  readonly limits: RunEventLogLimits;

  constructor(o: { readonly clock: Clock; readonly ids: IdSource; readonly limits?: Partial<RunEventLogLimits> }) {
    this.#clock = o.clock;
    this.#ids = o.ids;
    this.limits = { ...DEFAULT_EVENT_LOG_LIMITS, ...o.limits };
  }

  /** `append` as the emitting modules take it (compaction, distillation): a known type and its payload. */
  readonly emit: EmitFn = (tx, runId, type, payload) => void this.append<KnownRunEventType>(tx, runId, { type, payload });

  /** Build and validate an event of `runId` (its sequence is the store's to give). */
  #build<T extends string>(runId: string, input: AppendInput<T>): RunEvent {
    const event: RunEvent = {
      eventId: this.#ids.next('evt'),
      runId,
      type: input.type,
      // A closed payload interface (no index signature) is still a JSON object: the envelope's open payload.
      payload: copyJson(input.payload) as RunEvent['payload'],
      timestamp: toIso(this.#clock.now()),
      sequence: 0,
      ...(input.nodeId !== undefined ? { nodeId: input.nodeId } : {}),
      ...(input.causationId !== undefined ? { causationId: input.causationId } : {}),
    };
    const result = validateRunEvent(event);
    if (!result.ok) throw new InvalidRunEventError(input.type, result.failures);
    return event;
  }

  /** Plan an event into the log of an existing run; the stored event (with its sequence) once the tx committed. */
  append<T extends string>(tx: Tx, runId: string, input: AppendInput<T>, o: { readonly keepLast?: number } = {}): Pending<RunEvent> & { readonly eventId: string } {
    const event = this.#build(runId, input);
    const stored = tx.add('event.append', { runId, event, atMs: this.#clock.now(), maxEvents: this.limits.eventsPerRun, ...(o.keepLast !== undefined ? { keepLast: o.keepLast } : {}) });
    return Object.assign(stored, { eventId: event.eventId });
  }

  /**
   * Plan an event into the log of a piece of work that has no run yet (a compaction, a consolidation pass): its run
   * row is created, ended at once (retention retires it), in `tenant`.
   */
  appendTask<T extends string>(tx: Tx, task: { readonly runId: string; readonly tenant: string; readonly kind?: RunKind }, input: AppendInput<T>): Pending<RunEvent> & { readonly eventId: string } {
    const now = this.#clock.now();
    tx.add('run.create', { runId: task.runId, tenant: task.tenant, kind: task.kind ?? 'task', status: 'completed', createdMs: now, doc: { runId: task.runId, tenant: task.tenant }, ifExists: 'keep' });
    tx.add('run.update', { runId: task.runId, tenant: task.tenant, endedMs: now, endedKept: this.limits.endedRunsKept });
    return this.append(tx, task.runId, input);
  }

  /** Plan an event into the tenant's background log (created on first use; keeps its newest events only). */
  appendBackground<T extends string>(tx: Tx, tenant: string, input: AppendInput<T>): Pending<RunEvent> & { readonly eventId: string } {
    const runId = backgroundRunId(tenant);
    tx.add('run.create', { runId, tenant, kind: 'background', status: 'running', createdMs: this.#clock.now(), doc: { runId, tenant }, ifExists: 'keep' });
    return this.append(tx, runId, input, { keepLast: this.limits.backgroundEventsKept });
  }

  /** A page of the run's events from `fromSeq` (inclusive), in order; at most `limit` (default and most MAX_EVENT_PAGE). */
  read(tx: Tx, runId: string, fromSeq = 0, limit = MAX_EVENT_PAGE): Promise<EventPage> {
    return tx.read.eventPage({ runId, fromSeq: Math.max(0, fromSeq), limit: Math.max(1, Math.min(MAX_EVENT_PAGE, limit)) });
  }

  /** Whether the run's log holds any event (it was not dropped). */
  has(tx: Tx, runId: string): Promise<boolean> {
    return tx.read.hasEvents(runId);
  }
}
