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
import { StoreUnavailableError, type JsonDoc, type StoragePort } from '../storage/port.ts';
import { isStale } from '../storage/refusal.ts';
import { Plan } from '../storage/plan.ts';
import { dueSchedules, scheduleGet, type ScheduleRecord } from '../storage/reads/work.ts';
import { DistillationError, TokenBudgetExceededError, type Distiller, type DistillResult } from './distiller.ts';
import { boundedDurationMs, isRepresentableInstant, LATEST_DATE_TIME_MS } from '../shared/duration.ts';
import { transition } from '../shared/state-machine.ts';
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
  readonly port: StoragePort;
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

const asDoc = (x: object): JsonDoc => x as JsonDoc;

export class DistillationScheduler {
  readonly #o: DistillationSchedulerOptions;
  readonly maxPerTenant: number;

  constructor(o: DistillationSchedulerOptions) {
    this.#o = o;
    this.maxPerTenant = o.maxPerTenant ?? DEFAULT_MAX_SCHEDULES_PER_TENANT;
  }

  /**
   * Register a schedule within `plan`. Everything is checked before anything is planned — the period (an ISO-8601
   * duration between MIN_PERIOD_MS and MAX_PERIOD_MS), the tenant, the first instant (from 1970 to the last instant a
   * date-time can write, whose next instant is still a formattable Date) and the budget; the tenant's bound is checked
   * when the plan commits — so a refused schedule leaves no trace.
   */
  schedule(plan: Plan, req: DistillationScheduleRequest): DistillationSchedule {
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
    plan.add('schedule.put', { scheduleId: schedule.scheduleId, tenant, memoryRef: req.memoryRef, nextAt: firstAt, createdMs: now, doc: asDoc(schedule), limit: this.maxPerTenant });
    return schedule;
  }

  /** Cancel `tenant`'s schedule within `plan` (its place in the bound frees); whether it existed. */
  async cancel(plan: Plan, tenant: string, scheduleId: string): Promise<boolean> {
    const s = await this.get(scheduleId);
    if (s === undefined || s.tenant !== tenant) return false;
    transition(SCHEDULE_LIFECYCLE, 'scheduled', 'cancelled');
    plan.add('schedule.remove', { tenant, scheduleId });
    return true;
  }

  /** A schedule as stored (with its next instant). */
  async get(scheduleId: string): Promise<DistillationSchedule | undefined> {
    return (await scheduleGet(this.#o.port.reads, scheduleId))?.doc as unknown as DistillationSchedule | undefined;
  }

  /** What the schedule's latest run did, if it has run. */
  async lastOutcome(scheduleId: string): Promise<RecordedOutcome | undefined> {
    return (await scheduleGet(this.#o.port.reads, scheduleId))?.lastOutcome as unknown as RecordedOutcome | undefined;
  }

  /**
   * Run every schedule whose instant is due (of `tenant`, or of every tenant), once each: each in its own
   * transaction that takes its slot, writes the distillation and records the outcome — or, when another process
   * took the slot first, writes nothing. The outcomes this call ran.
   */
  async tick(o: { readonly tenant?: string } = {}): Promise<ScheduledRunOutcome[]> {
    if (this.#o.replay === true) return [];
    const now = this.#o.clock.now();
    const due = await dueSchedules(this.#o.port.reads, { nowMs: now, limit: SCHEDULES_PER_TICK, ...(o.tenant !== undefined ? { tenant: o.tenant } : {}) });
    const outcomes: ScheduledRunOutcome[] = [];
    for (const record of due) {
      const outcome = await this.#runSlot(record, now);
      if (outcome !== undefined) outcomes.push(outcome);
    }
    return outcomes;
  }

  async #runSlot(record: ScheduleRecord, now: number): Promise<ScheduledRunOutcome | undefined> {
    const s = record.doc as unknown as DistillationSchedule;
    // The latest due instant; the ones between the last run and it are missed (coalesced into this run).
    const missed = Math.floor((now - record.nextAt) / s.periodMs);
    const instant = record.nextAt + missed * s.periodMs;
    const next: DistillationSchedule = { ...s, nextAt: instant + s.periodMs };
    transition(SCHEDULE_LIFECYCLE, 'scheduled', 'running');
    // The slot is taken first, in the same transaction as the run's writes and its outcome: a second process running
    // the same slot waits on the schedule's row and is then refused, before any of its writes.
    const begin = (): Plan => {
      const plan = new Plan();
      plan.add('schedule.take', { scheduleId: s.scheduleId, nextAtRead: record.nextAt, slot: instant, nextAt: next.nextAt, doc: asDoc(next) });
      return plan;
    };
    // A run decided on reads that went stale before its commit (the tenant's secrets changed) is run again.
    for (let attempt = 1; ; attempt++) {
      const { outcome, plan } = await this.#run(s, instant, missed, begin);
      transition(SCHEDULE_LIFECYCLE, transition(SCHEDULE_LIFECYCLE, 'running', outcome.kind), 'scheduled');
      const took = await this.#commit(s.scheduleId, instant, outcome, plan);
      if (took === 'taken') return undefined; // another process ran this slot
      if (took === 'done') return outcome;
      if (isStale(took) && attempt < STALE_RETRIES) continue;
      return this.#failed(begin, s.scheduleId, instant, missed, took);
    }
  }

  /**
   * The store refused the run's writes (a bound reached, reads that kept going stale): nothing of them stays, and the
   * slot is taken as failed — so the schedule moves on and the schedules due after it still run.
   */
  async #failed(begin: () => Plan, scheduleId: string, instant: number, missed: number, took: WopkitError): Promise<ScheduledRunOutcome | undefined> {
    const failed: ScheduledRunOutcome = { kind: 'failed', scheduleId, instant: toIso(instant), missed, errorCode: took.code };
    transition(SCHEDULE_LIFECYCLE, transition(SCHEDULE_LIFECYCLE, 'running', failed.kind), 'scheduled');
    const again = await this.#commit(scheduleId, instant, failed, begin());
    if (again instanceof WopkitError) throw again;
    return again === 'done' ? failed : undefined;
  }

  /**
   * Commit a begun plan (the slot's take, the run's writes) with the run's outcome: `done`, `taken` (another process
   * ran the slot first), or the refusal the store answered (a store that cannot write at all is thrown).
   */
  async #commit(scheduleId: string, instant: number, outcome: ScheduledRunOutcome, plan: Plan): Promise<'done' | 'taken' | WopkitError> {
    plan.add('schedule.outcome', { scheduleId, slot: instant, outcome: asDoc(outcomeRecord(outcome)) });
    try {
      await plan.commit(this.#o.port);
      return 'done';
    } catch (err) {
      if ((err as { code?: unknown }).code === 'claim_taken') return 'taken';
      if (err instanceof WopkitError && !(err instanceof StoreUnavailableError)) return err;
      throw err;
    }
  }

  /**
   * Distil the schedule's scope: the outcome, and the plan holding its writes — begun by `begin` (the slot's take);
   * a fresh begun one, without the distillation's writes, when it refused.
   */
  async #run(s: DistillationSchedule, instantMs: number, missed: number, begin: () => Plan): Promise<{ outcome: ScheduledRunOutcome; plan: Plan }> {
    const base = { scheduleId: s.scheduleId, instant: toIso(instantMs), missed };
    const plan = begin();
    try {
      const result = await this.#o.distiller.distill(plan, s.memoryRef, { ...(s.tokenBudget !== undefined ? { tokenBudget: s.tokenBudget } : {}), context: { tenant: s.tenant } });
      return { outcome: { kind: 'distilled', ...base, result }, plan };
    } catch (err) {
      const refused = (outcome: ScheduledRunOutcome) => ({ outcome, plan: begin() });
      if (err instanceof TokenBudgetExceededError) return refused({ kind: 'budget-exceeded', ...base, tokensRequired: err.details.tokensRequired });
      // No transactional sources (the compactor's selection or the distiller's own check): nothing to do this time.
      if ((err instanceof DistillationError || err instanceof CompactionError) && err.code === 'no_sources') return refused({ kind: 'nothing-to-distil', ...base });
      // Anything else is this run's failure, reported by code only (an error message could quote content).
      const e = err as { code?: unknown; name?: unknown } | null | undefined;
      const errorCode = typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' ? e.name : 'error';
      return refused({ kind: 'failed', ...base, errorCode });
    }
  }
}

/** A run's outcome as the ledger keeps it: a distilled run with its archive id and content-free event, not its archive. */
export type RecordedOutcome = Exclude<ScheduledRunOutcome, { kind: 'distilled' }> | (Omit<Extract<ScheduledRunOutcome, { kind: 'distilled' }>, 'result'> & { readonly archiveId: string; readonly event: DistillResult['event'] });

export function outcomeRecord(outcome: ScheduledRunOutcome): RecordedOutcome {
  if (outcome.kind !== 'distilled') return outcome;
  const { result, ...rest } = outcome;
  return { ...rest, archiveId: result.archiveId, event: result.event };
}
