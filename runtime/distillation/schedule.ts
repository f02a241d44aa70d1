/**
 * Scheduled distillation ("dreams", RFC 0062 as the agent-memory spec restates it): a periodic background run that
 * distils a scope's recent transactional memory under a token budget. The host owns the schedule, so every run it
 * starts is an ordinary distillation with trigger `host-managed`; its nature shows in the `distillation` sub-object.
 *
 * - Instants: a schedule fires at `firstAt + k·period` (k = 0, 1, …). Each instant runs at most once: the ledger
 *   (the latest instant taken, per schedule) is written before the run starts, so a crash loses a run rather than
 *   doubling it, and a second `tick` at the same time finds the instant taken.
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
 *   is refused with QuotaExceededError (429 `quota_exceeded`) before anything is stored, and cancelling one frees
 *   its place.
 * - States: a schedule moves only through SCHEDULE_LIFECYCLE (schedule-lifecycle.ts), the table the site draws.
 */
import type { HostSampleDistillScheduleRequest } from '../../generated/ts/index.ts';
import type { Clock } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { WopkitError } from '../shared/errors.ts';
import { TimerHeap } from '../shared/timer-heap.ts';
import { TenantBound } from '../shared/quota.ts';
import { CompactionError } from '../compaction/compactor.ts';
import { DistillationError, TokenBudgetExceededError, type Distiller, type DistillResult } from './distiller.ts';
import { boundedDurationMs, isRepresentableInstant } from '../shared/duration.ts';
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

/**
 * What the scheduler tells a durable store (absent: in memory only). Calls are made in the order things happen:
 * a schedule saved (registered, or moved to its next instant), an instant claimed BEFORE its run starts, the run's
 * outcome, a schedule removed. `claim` is awaited: the run starts only once the store committed the claim and
 * answered true, so an instant runs at most once across restarts and across processes sharing the store (a crash
 * between the claim and the run skips that instant; the next one distils the same sources). `restore` puts a
 * stored schedule back at start.
 */
export interface SchedulePersistence {
  saved(schedule: DistillationSchedule): void;
  removed(scheduleId: string): void;
  /** Claim `instant` of the schedule in the store: true for exactly one caller per (scheduleId, instant). */
  claim(scheduleId: string, instant: number): Promise<boolean>;
  ran(outcome: ScheduledRunOutcome, instant: number): void;
}

export interface DistillationSchedulerOptions {
  readonly clock: Clock;
  readonly distiller: Distiller;
  readonly tenantOf: (memoryRef: string) => string | undefined;
  readonly newId: () => string;
  /** Replay mode: never runs (default false). */
  readonly replay?: boolean;
  /** Schedules one tenant may hold (default DEFAULT_MAX_SCHEDULES_PER_TENANT). */
  readonly maxPerTenant?: number;
  /** A durable store's view of the schedules and their run ledger (absent: in memory only). */
  readonly persistence?: SchedulePersistence;
}

interface Entry {
  schedule: DistillationSchedule;
  handle: number;
}

export class DistillationScheduler {
  readonly #heap = new TimerHeap<string>();
  readonly #entries = new Map<string, Entry>();
  /** The latest instant each schedule has taken (written before the run; instants only grow, so this bounds the ledger). */
  readonly #lastInstant = new Map<string, number>();
  readonly #lastOutcome = new Map<string, ScheduledRunOutcome>();
  readonly #bound: TenantBound<string>;

  constructor(private readonly o: DistillationSchedulerOptions) {
    this.#bound = new TenantBound('distillation-schedules', o.maxPerTenant ?? DEFAULT_MAX_SCHEDULES_PER_TENANT, 'refuse');
  }

  /**
   * Register a schedule. Everything is checked before anything is stored — the period (an ISO-8601 duration
   * between MIN_PERIOD_MS and MAX_PERIOD_MS), the tenant, the first instant (an epoch time from 1970 on whose next
   * instant is still a formattable Date), the budget and the tenant's bound — so a refused schedule leaves no
   * trace, and every schedule registered formats now and at its next instant.
   */
  schedule(req: DistillationScheduleRequest): DistillationSchedule {
    const period = boundedDurationMs(req.every, { minMs: MIN_PERIOD_MS, maxMs: MAX_PERIOD_MS });
    if ('refused' in period) throw new ScheduleError('invalid_period', `every must be an ISO-8601 duration between ${MIN_PERIOD_MS / 1000} s and ${MAX_PERIOD_MS / 86_400_000} days (${period.refused})`);
    const periodMs = period.ms;
    const tenant = this.o.tenantOf(req.memoryRef);
    if (tenant === undefined) throw new ScheduleError('invalid_ref', 'memoryRef does not resolve to a tenant');
    const now = this.o.clock.now();
    const firstAt = req.firstAt ?? now + periodMs;
    if (!(firstAt >= 0) || !isRepresentableInstant(firstAt + periodMs)) throw new ScheduleError('invalid_start', 'firstAt must be an epoch time from 1970 on whose next instant is a representable date');
    // Validate the budget now rather than at the first instant, days later.
    if (req.tokenBudget !== undefined) this.o.distiller.budgetFor(req.tokenBudget);
    this.#bound.check(tenant);
    const schedule: DistillationSchedule = {
      scheduleId: this.o.newId(),
      memoryRef: req.memoryRef,
      tenant,
      periodMs,
      every: req.every,
      ...(req.tokenBudget !== undefined ? { tokenBudget: req.tokenBudget } : {}),
      nextAt: firstAt,
    };
    this.#bound.add(tenant, schedule.scheduleId);
    this.#entries.set(schedule.scheduleId, { schedule, handle: this.#heap.schedule(firstAt, schedule.scheduleId) });
    this.o.persistence?.saved(schedule);
    return schedule;
  }

  /**
   * Put back a schedule loaded from a durable store at start (no write-back), with the latest instant its ledger
   * shows taken: that instant and earlier ones never run again.
   */
  restore(schedule: DistillationSchedule, lastInstant?: number): void {
    this.#bound.add(schedule.tenant, schedule.scheduleId);
    this.#entries.set(schedule.scheduleId, { schedule, handle: this.#heap.schedule(schedule.nextAt, schedule.scheduleId) });
    if (lastInstant !== undefined) this.#lastInstant.set(schedule.scheduleId, lastInstant);
  }

  cancel(scheduleId: string): boolean {
    const e = this.#entries.get(scheduleId);
    if (e === undefined) return false;
    transition(SCHEDULE_LIFECYCLE, 'scheduled', 'cancelled');
    this.#heap.cancel(e.handle);
    this.#entries.delete(scheduleId);
    this.#bound.delete(e.schedule.tenant, scheduleId);
    this.#lastInstant.delete(scheduleId);
    this.#lastOutcome.delete(scheduleId);
    this.o.persistence?.removed(scheduleId);
    return true;
  }

  get(scheduleId: string): DistillationSchedule | undefined {
    return this.#entries.get(scheduleId)?.schedule;
  }

  /** The tenant's schedules, oldest first (O(its own schedules), not O(every schedule)). */
  list(tenant: string): DistillationSchedule[] {
    return this.#bound.keys(tenant).map((id) => this.#entries.get(id)!.schedule);
  }

  /** What the schedule's latest run did, if it has run. */
  lastOutcome(scheduleId: string): ScheduledRunOutcome | undefined {
    return this.#lastOutcome.get(scheduleId);
  }

  /**
   * Run every schedule whose instant is due, once each, and re-arm it at its next future instant. With a durable
   * store, each instant is claimed there first and runs only when the claim was won.
   */
  async tick(): Promise<ScheduledRunOutcome[]> {
    if (this.o.replay === true) return [];
    const now = this.o.clock.now();
    const outcomes: ScheduledRunOutcome[] = [];
    // Re-arm every due schedule first, so nothing that happens in a run can leave a popped schedule un-armed.
    const due: { s: DistillationSchedule; instant: number; missed: number }[] = [];
    for (const scheduleId of this.#heap.popDue(now)) {
      const entry = this.#entries.get(scheduleId);
      if (entry === undefined) continue;
      const s = entry.schedule;
      // The latest due instant; the ones between the last run and it are missed (coalesced into this run).
      const missed = Math.floor((now - s.nextAt) / s.periodMs);
      const instant = s.nextAt + missed * s.periodMs;
      entry.schedule = { ...s, nextAt: instant + s.periodMs };
      entry.handle = this.#heap.schedule(instant + s.periodMs, scheduleId);
      this.o.persistence?.saved(entry.schedule);
      if ((this.#lastInstant.get(scheduleId) ?? -Infinity) >= instant) continue;
      this.#lastInstant.set(scheduleId, instant);
      due.push({ s, instant, missed });
    }
    const persistence = this.o.persistence;
    const won = persistence === undefined ? due : await claimed(due, (d) => persistence.claim(d.s.scheduleId, d.instant));
    for (const { s, instant, missed } of won) {
      if (!this.#entries.has(s.scheduleId)) continue; // cancelled while its claim was being committed
      transition(SCHEDULE_LIFECYCLE, 'scheduled', 'running');
      const outcome = this.#run(s, instant, missed);
      transition(SCHEDULE_LIFECYCLE, transition(SCHEDULE_LIFECYCLE, 'running', outcome.kind), 'scheduled');
      this.#lastOutcome.set(s.scheduleId, outcome);
      this.o.persistence?.ran(outcome, instant);
      outcomes.push(outcome);
    }
    return outcomes;
  }

  #run(s: DistillationSchedule, instantMs: number, missed: number): ScheduledRunOutcome {
    const base = { scheduleId: s.scheduleId, instant: toIso(instantMs), missed };
    try {
      const result = this.o.distiller.distill(s.memoryRef, { ...(s.tokenBudget !== undefined ? { tokenBudget: s.tokenBudget } : {}), context: { tenant: s.tenant } });
      return { kind: 'distilled', ...base, result };
    } catch (err) {
      if (err instanceof TokenBudgetExceededError) return { kind: 'budget-exceeded', ...base, tokensRequired: err.details.tokensRequired };
      // No transactional sources (the compactor's selection or the distiller's own check): nothing to do this time.
      if ((err instanceof DistillationError || err instanceof CompactionError) && err.code === 'no_sources') return { kind: 'nothing-to-distil', ...base };
      // Anything else is this run's failure, reported by code only (an error message could quote content).
      const e = err as { code?: unknown; name?: unknown } | null | undefined;
      const errorCode = typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' ? e.name : 'error';
      return { kind: 'failed', ...base, errorCode };
    }
  }
}

/** The items whose claim the store answered true to, in their order (claims made concurrently). */
async function claimed<T>(items: readonly T[], claim: (item: T) => Promise<boolean>): Promise<T[]> {
  const answers = await Promise.all(items.map(claim));
  return items.filter((_, i) => answers[i] === true);
}
