/**
 * Scheduled distillation ("dreams", RFC 0062 as the agent-memory spec restates it): a periodic background run that
 * distils a scope's recent transactional memory under a token budget. The host owns the schedule, so every run it
 * starts is an ordinary distillation with trigger `host-managed`; its nature shows in the `distillation` sub-object.
 * Schedules live in the store; every host ticks them, and whichever takes a slot first runs it.
 *
 * - Instants: a schedule fires at `firstAt + k·period` (k = 0, 1, …). Each instant runs at most once: taking it
 *   (moving the schedule's next instant on from the value read, and recording the slot in its ledger) is one
 *   conditional statement in the same transaction as the run's writes and outcome — a second taker, on this host or
 *   another, finds it taken and writes nothing; a crash before the commit leaves the slot untaken, to be run then.
 * - Catch-up: when the clock has passed several instants since the last tick (a stopped host, a long GC), one run
 *   covers the latest due instant and the earlier ones are reported as `missed` — distilling the same sources once
 *   per missed period would only redo the same work (distillation is byte-stable for the same sources and budget).
 * - Outcomes: `distilled`, `nothing-to-distil` (no transactional entries: no archive, no event),
 *   `budget-exceeded` (atomic refusal from the distiller: nothing written) and `failed` (any other refusal, e.g.
 *   redaction could not be certified; the distiller writes nothing before its checks pass). No outcome stops the
 *   schedule, and one schedule's failure never keeps another due schedule from running or being re-armed.
 * - Replay: a scheduler in replay mode never runs anything; replaying a log must not start background work.
 * - CTI-1: a schedule is bound to the tenant of its memoryRef; the run's write context carries that tenant and
 *   nothing else, so a schedule can never distil into or out of another tenant.
 * - Bounds: a tenant holds at most `maxPerTenant` schedules (default DEFAULT_MAX_SCHEDULES_PER_TENANT); one more
 *   is refused with QuotaExceededError (429 `quota_exceeded`) in the transaction that would store it, and cancelling
 *   one frees its place.
 * - States: a schedule moves only through SCHEDULE_LIFECYCLE (schedule-lifecycle.ts), the table the site draws.
 */
import type { HostSampleDistillScheduleRequest } from '../../generated/ts/index.ts';
import type { Clock } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { WopkitError } from '../shared/errors.ts';
import { CompactionError } from '../compaction/compactor.ts';
import { StoreCorruptError, StoreUnavailableError, type JsonDoc, type ScheduleRecord, type Tx, type Units } from '../storage/index.ts';
import { isMemoryCompactedPayload } from '../../generated/guards/index.ts';
import { DistillationError, TokenBudgetExceededError, type Distiller, type DistillResult } from './distiller.ts';
import { boundedDurationMs, isRepresentableInstant, LATEST_DATE_TIME_MS } from '../shared/duration.ts';
import { IllegalTransitionError, transition } from '../shared/state-machine.ts';
import { SCHEDULE_LIFECYCLE } from './schedule-lifecycle.ts';

/** Shortest period a schedule may use: background work more often than this is a misconfiguration. */
export const MIN_PERIOD_MS = 1000;
/** Longest period a schedule may use (366 days): a "dream" rarer than yearly is not a schedule, and the bound keeps every instant formattable. */
export const MAX_PERIOD_MS = 366 * 86_400_000;
/** How many schedules one tenant may hold unless configured otherwise. */
export const DEFAULT_MAX_SCHEDULES_PER_TENANT = 100;

/**
 * A schedule as the seam's request shapes it (`every`: an ISO-8601 duration of at least one second; `tokenBudget`
 * clamped by the distiller, absent ⇒ the maximum), except that `firstAt` is already an epoch-ms instant here
 * (default: now + period).
 */
export type DistillationScheduleRequest = Readonly<Omit<HostSampleDistillScheduleRequest, 'firstAt'> & { firstAt?: number }>;

export interface DistillationSchedule {
  readonly scheduleId: string;
  readonly memoryRef: string;
  readonly tenant: string;
  readonly periodMs: number;
  readonly every: string;
  readonly tokenBudget?: number;
  /** The next instant this schedule will run at (epoch ms). */
  readonly nextAt: number;
}

export type ScheduledRunOutcome =
  | { readonly kind: 'distilled'; readonly scheduleId: string; readonly instant: string; readonly missed: number; readonly result: DistillResult }
  | { readonly kind: 'nothing-to-distil'; readonly scheduleId: string; readonly instant: string; readonly missed: number }
  | { readonly kind: 'budget-exceeded'; readonly scheduleId: string; readonly instant: string; readonly missed: number; readonly tokensRequired: number }
  | { readonly kind: 'failed'; readonly scheduleId: string; readonly instant: string; readonly missed: number; readonly errorCode: string };

/** A refused schedule; the schedule seam turns it into validation_failed on the field it is about. */
export class ScheduleError extends WopkitError<'invalid_period' | 'invalid_ref' | 'invalid_start' | 'unknown_schedule'> {
  constructor(code: ScheduleError['code'], message: string) {
    super(code, message);
  }
}

export interface DistillationSchedulerOptions {
  /** Opens the unit of work each due slot runs in (the scheduler's background work). */
  readonly units: Units;
  readonly clock: Clock;
  readonly distiller: Distiller;
  readonly tenantOf: (memoryRef: string) => string | undefined;
  readonly newId: () => string;
  /** Replay mode: never runs (default false). */
  readonly replay?: boolean;
  /** Schedules one tenant may hold (default DEFAULT_MAX_SCHEDULES_PER_TENANT). */
  readonly maxPerTenant?: number;
}

/** Due schedules one tick looks at (the rest wait for the next tick). */
export const SCHEDULES_PER_TICK = 64;
/** How many times a slot's run is redone when its reads went stale before its commit. */
const STALE_RETRIES = 8;


export class DistillationScheduler {
  readonly #o: DistillationSchedulerOptions;
  readonly maxPerTenant: number;

  constructor(o: DistillationSchedulerOptions) {
    this.#o = o;
    this.maxPerTenant = o.maxPerTenant ?? DEFAULT_MAX_SCHEDULES_PER_TENANT;
  }

  /**
   * Register a schedule within `tx`. Everything is checked before anything is planned — the period (an ISO-8601
   * duration between MIN_PERIOD_MS and MAX_PERIOD_MS), the tenant, the first instant (from 1970 to the last instant a
   * date-time can write, whose next instant is still a formattable Date) and the budget; the tenant's bound is checked
   * when the tx commits — so a refused schedule leaves no trace.
   */
  schedule(tx: Tx, req: DistillationScheduleRequest): DistillationSchedule {
    const period = boundedDurationMs(req.every, { minMs: MIN_PERIOD_MS, maxMs: MAX_PERIOD_MS });
    if ('refused' in period) throw new ScheduleError('invalid_period', `every must be an ISO-8601 duration between ${MIN_PERIOD_MS / 1000} s and ${MAX_PERIOD_MS / 86_400_000} days (${period.refused})`);
    const periodMs = period.ms;
    const tenant = this.#o.tenantOf(req.memoryRef);
    if (tenant === undefined) throw new ScheduleError('invalid_ref', 'memoryRef does not resolve to a tenant');
    const now = this.#o.clock.now();
    const firstAt = req.firstAt ?? now + periodMs;
    // firstAt is answered as a date-time, so it must be one RFC 3339 can write (an offset can carry a written
    // 9999-12-31 past that in UTC); the instant after it must be one a Date can compute.
    if (!(firstAt >= 0) || firstAt > LATEST_DATE_TIME_MS || !isRepresentableInstant(firstAt + periodMs)) {
      throw new ScheduleError('invalid_start', 'firstAt must be an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (in UTC) whose next instant is a representable date');
    }
    if (req.tokenBudget !== undefined) this.#o.distiller.budgetFor(req.tokenBudget);
    const schedule: DistillationSchedule = {
      scheduleId: this.#o.newId(),
      memoryRef: req.memoryRef,
      tenant,
      periodMs,
      every: req.every,
      ...(req.tokenBudget !== undefined ? { tokenBudget: req.tokenBudget } : {}),
      nextAt: firstAt,
    };
    tx.add('schedule.put', { scheduleId: schedule.scheduleId, tenant, memoryRef: req.memoryRef, nextAt: firstAt, createdMs: now, doc: schedule, limit: this.maxPerTenant });
    return schedule;
  }

  /** Cancel `tenant`'s schedule within `tx` (its place in the bound frees); whether it existed. */
  async cancel(tx: Tx, tenant: string, scheduleId: string): Promise<boolean> {
    const s = await this.get(tx, scheduleId);
    if (s === undefined || s.tenant !== tenant) return false;
    transition(SCHEDULE_LIFECYCLE, 'scheduled', 'cancelled');
    tx.add('schedule.remove', { tenant, scheduleId });
    return true;
  }

  /** A schedule as stored (with its next instant). */
  async get(tx: Tx, scheduleId: string): Promise<DistillationSchedule | undefined> {
    const row = await tx.read.scheduleGet(scheduleId);
    return row === undefined ? undefined : scheduleOf(row.doc);
  }

  /** What the schedule's latest run did, if it has run. */
  async lastOutcome(tx: Tx, scheduleId: string): Promise<RecordedOutcome | undefined> {
    const last = (await tx.read.scheduleGet(scheduleId))?.lastOutcome;
    return last === undefined ? undefined : recordedOutcomeOf(last);
  }

  /**
   * Run every schedule whose instant is due (of `tenant`, or of every tenant), once each: each in its own
   * transaction that takes its slot, writes the distillation and records the outcome — or, when another process
   * took the slot first, writes nothing. The outcomes this call ran.
   */
  async tick(o: { readonly tenant?: string } = {}): Promise<ScheduledRunOutcome[]> {
    if (this.#o.replay === true) return [];
    const now = this.#o.clock.now();
    const due = await this.#o.units((tx) => tx.read.dueSchedules({ nowMs: now, limit: SCHEDULES_PER_TICK, ...(o.tenant !== undefined ? { tenant: o.tenant } : {}) }));
    const outcomes: ScheduledRunOutcome[] = [];
    for (const record of due) {
      const outcome = await this.#runSlot(record, now);
      if (outcome !== undefined) outcomes.push(outcome);
    }
    return outcomes;
  }

  async #runSlot(record: ScheduleRecord, now: number): Promise<ScheduledRunOutcome | undefined> {
    const s = scheduleOf(record.doc);
    // The latest due instant; the ones between the last run and it are missed (coalesced into this run).
    const missed = Math.floor((now - record.nextAt) / s.periodMs);
    const instant = record.nextAt + missed * s.periodMs;
    const next: DistillationSchedule = { ...s, nextAt: instant + s.periodMs };
    transition(SCHEDULE_LIFECYCLE, 'scheduled', 'running');
    const base = { scheduleId: s.scheduleId, instant: toIso(instant), missed };
    // The slot is taken first, in the same transaction as the run's writes and its outcome: a second process running
    // the same slot waits on the schedule's row and is then refused, before any of its writes.
    const take = (tx: Tx) => void tx.add('schedule.take', { scheduleId: s.scheduleId, nextAtRead: record.nextAt, slot: instant, nextAt: next.nextAt, doc: next });
    const settle = (tx: Tx, outcome: ScheduledRunOutcome): ScheduledRunOutcome => {
      transition(SCHEDULE_LIFECYCLE, transition(SCHEDULE_LIFECYCLE, 'running', outcome.kind), 'scheduled');
      tx.add('schedule.outcome', { scheduleId: s.scheduleId, slot: instant, outcome: outcomeRecord(outcome) });
      return outcome;
    };
    let refused: ScheduledRunOutcome;
    try {
      // One unit: the take, the distillation's writes, the outcome (run again from its reads when they went stale).
      return await this.#o.units(async (tx) => {
        take(tx);
        const result = await this.#o.distiller.distill(tx, s.memoryRef, { ...(s.tokenBudget !== undefined ? { tokenBudget: s.tokenBudget } : {}), context: { tenant: s.tenant } });
        return settle(tx, { kind: 'distilled', ...base, result });
      });
    } catch (err) {
      if (isTaken(err)) return undefined; // another process ran this slot
      // A store that cannot write, or a move the lifecycle table does not allow (a bug, not this run's outcome).
      if (err instanceof StoreUnavailableError || err instanceof IllegalTransitionError) throw err;
      refused = refusedOutcome(err, base);
    }
    // The distillation refused, or the store refused its writes (a bound reached, reads that kept going stale): nothing
    // of them stays, and the slot is taken with that outcome — so the schedule moves on and later schedules still run.
    try {
      return await this.#o.units((tx) => {
        take(tx);
        return settle(tx, refused);
      });
    } catch (err) {
      if (isTaken(err)) return undefined;
      throw err;
    }
  }
}

const isTaken = (err: unknown): boolean => err instanceof WopkitError && err.code === 'claim_taken';

/** What a run that did not distil reports: by code only (an error message could quote content). */
function refusedOutcome(err: unknown, base: { readonly scheduleId: string; readonly instant: string; readonly missed: number }): ScheduledRunOutcome {
  if (err instanceof TokenBudgetExceededError) return { kind: 'budget-exceeded', ...base, tokensRequired: err.details.tokensRequired };
  // No transactional sources (the compactor's selection or the distiller's own check): nothing to do this time.
  if ((err instanceof DistillationError || err instanceof CompactionError) && err.code === 'no_sources') return { kind: 'nothing-to-distil', ...base };
  const errorCode = err instanceof Error ? ('code' in err && typeof err.code === 'string' ? err.code : err.name) : 'error';
  return { kind: 'failed', ...base, errorCode };
}

const corruptSchedule = (what: string): StoreCorruptError => new StoreCorruptError('schedules', `a stored ${what} is not one this runtime wrote`);

/** The schedules table's decoder: a stored schedule document back into a schedule. */
export function scheduleOf(doc: JsonDoc): DistillationSchedule {
  const { scheduleId, memoryRef, tenant, periodMs, every, tokenBudget, nextAt } = doc;
  if (typeof scheduleId !== 'string' || typeof memoryRef !== 'string' || typeof tenant !== 'string' || typeof periodMs !== 'number' || typeof every !== 'string' || typeof nextAt !== 'number' || (tokenBudget !== undefined && typeof tokenBudget !== 'number')) {
    throw corruptSchedule('distillation schedule');
  }
  return { scheduleId, memoryRef, tenant, periodMs, every, nextAt, ...(typeof tokenBudget === 'number' ? { tokenBudget } : {}) };
}

/** The schedules table's decoder for a slot's recorded outcome (what `outcomeRecord` wrote). */
export function recordedOutcomeOf(doc: JsonDoc): RecordedOutcome {
  const { kind, scheduleId, instant, missed } = doc;
  if (typeof instant !== 'string' || typeof missed !== 'number') throw corruptSchedule('schedule outcome');
  if (scheduleId === undefined) return legacyOutcomeOf(doc, { instant, missed });
  if (typeof scheduleId !== 'string') throw corruptSchedule('schedule outcome');
  const base = { scheduleId, instant, missed };
  if (kind === 'nothing-to-distil') return { kind, ...base };
  if (kind === 'budget-exceeded' && typeof doc['tokensRequired'] === 'number') return { kind, ...base, tokensRequired: doc['tokensRequired'] };
  if (kind === 'failed' && typeof doc['errorCode'] === 'string') return { kind, ...base, errorCode: doc['errorCode'] };
  const { archiveId, event } = doc;
  if (kind === 'distilled' && typeof archiveId === 'string' && isMemoryCompactedPayload(event)) return { kind, ...base, archiveId, event };
  throw corruptSchedule('schedule outcome');
}

/** A 0.2 store's recorded outcome (no schedule id; a distilled run without archive id and event). */
function legacyOutcomeOf(doc: JsonDoc, base: { readonly instant: string; readonly missed: number }): LegacyRecordedOutcome {
  const { kind } = doc;
  if (kind === 'distilled' || kind === 'nothing-to-distil') return { kind, ...base };
  if (kind === 'budget-exceeded' && typeof doc['tokensRequired'] === 'number') return { kind, ...base, tokensRequired: doc['tokensRequired'] };
  if (kind === 'failed' && typeof doc['errorCode'] === 'string') return { kind, ...base, errorCode: doc['errorCode'] };
  throw corruptSchedule('schedule outcome');
}

/** A run's outcome as the ledger keeps it: a distilled run with its archive id and content-free event, not its archive. */
export type RecordedOutcome = Exclude<ScheduledRunOutcome, { kind: 'distilled' }> | (Omit<Extract<ScheduledRunOutcome, { kind: 'distilled' }>, 'result'> & { readonly archiveId: string; readonly event: DistillResult['event'] }) | LegacyRecordedOutcome;

/**
 * An outcome as a wopkit 0.2 store recorded it (read back as it was, issue 22's upgrade): its kind, instant and missed
 * count, without the schedule id — and, for a distilled run, without its archive id and event.
 */
export type LegacyRecordedOutcome =
  | { readonly kind: 'distilled' | 'nothing-to-distil'; readonly instant: string; readonly missed: number; readonly scheduleId?: undefined }
  | { readonly kind: 'budget-exceeded'; readonly instant: string; readonly missed: number; readonly tokensRequired: number; readonly scheduleId?: undefined }
  | { readonly kind: 'failed'; readonly instant: string; readonly missed: number; readonly errorCode: string; readonly scheduleId?: undefined };

export function outcomeRecord(outcome: ScheduledRunOutcome): RecordedOutcome {
  if (outcome.kind !== 'distilled') return outcome;
  const { result, ...rest } = outcome;
  return { ...rest, archiveId: result.archiveId, event: result.event };
}
