/**
 * The host's background work: what comes due without a request — time commitments, predicates that changed,
 * distillation slots, question deadlines — and what retention retires: expired entries, journal records past the
 * snapshot window, idle secret registries, ended runs, forks and follow-up runs left waiting, old claims.
 *
 * Every host runs it, and every piece of work is claimed in the store by whoever gets there first (a conditional
 * statement in the work's own transaction), so several hosts on one database do each thing once. An idle host asks
 * its database one question per wake-up — the agenda: when each kind of work is next due, one indexed statement —
 * and sleeps until the earliest of those instants, or `idleMs` at most (a notification from another host can wake
 * it earlier: `wake()`).
 */
import type { InquiriumRuntime } from '../inquirium/index.ts';
import type { OpenwopRuntime } from '../openwop/index.ts';
import { unitOfWork, type Agenda, type OpArgs } from '../storage/index.ts';

import type { Clock } from '../shared/clock.ts';

/** How long each kind of finished thing is kept. */
export interface Retention {
  /** Journal records (what a fork reads memory as of). */
  readonly snapshotMs: number;
  /** Ended runs, with their logs. */
  readonly endedRunMs: number;
  /** A fork or a follow-up run nobody took up ends after this long. */
  readonly liveRunMs: number;
  /** Inquirium transcript facts and turn traces (P066). */
  readonly inquiryMs: number;
}

/** The document logs the inquiry retention applies to (the Inquirium transcript and trace stream). */
const INQUIRY_LOGS = ['transcript', 'traces'] as const;

export interface BackgroundOptions {
  readonly openwop: OpenwopRuntime;
  readonly inquirium: InquiriumRuntime;
  readonly clock: Clock;
  readonly retention: Retention;
  /** The longest an idle host sleeps between two looks at the agenda (default 1000 ms). */
  readonly idleMs?: number;
  /**
   * A fleet host (PostgreSQL): its credentials' fingerprint, and what to do once a rotation finished without it
   * (read with the agenda, so it costs no query of its own).
   */
  readonly fleet?: { readonly fingerprint: string; readonly onRetired: () => void };
  /** Told of each pass that did something, and of failures (the host logs them). */
  readonly onReport?: (report: BackgroundReport) => void;
  readonly onError?: (err: unknown) => void;
}

/** What one pass did, by kind (only the kinds that did something). */
export type BackgroundReport = Readonly<Record<string, number>>;

/** Rows one job handles in one transaction; a job with more goes round again. */
const BATCH = 500;

export class BackgroundWork {
  readonly #o: BackgroundOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  #retired = false;
  #unsubscribe: (() => void) | undefined;
  #again = false;

  constructor(o: BackgroundOptions) {
    this.#o = o;
  }

  /** Look at the agenda now and do what is due, once (tests drive it; the running loop calls it). */
  async runOnce(): Promise<{ readonly report: BackgroundReport; readonly nextAt: number }> {
    const { openwop: rt, inquirium, clock, retention } = this.#o;
    const report: Record<string, number> = {};
    const count = (kind: string, n: number) => {
      if (n > 0) report[kind] = (report[kind] ?? 0) + n;
    };
    const a = await unitOfWork(rt.port, (tx) => tx.read.agenda());
    if (this.#o.fleet !== undefined && !this.#retired && !acceptedBy(a.fleet, this.#o.fleet.fingerprint)) {
      this.#retired = true;
      this.#o.fleet.onRetired();
    }
    const now = clock.now();
    const due = (at: number | null) => at !== null && at <= now;

    if (due(a.commitment) || a.predicates > 0) count('commitments-fired', (await rt.commitments.tick()).length);
    if (due(a.schedule) && rt.distillationScheduler !== undefined) count('schedules-run', (await rt.distillationScheduler.tick()).length);
    if (due(a.question)) count('questions-timed-out', (await inquirium.questions.tick()).length);
    if (due(a.expiry)) count('entries-purged', await this.#batch('memory.purgeExpired', { atMs: now, limit: BATCH }));
    if (due(a.journal === null ? null : a.journal + retention.snapshotMs)) count('journal-pruned', await this.#batch('journal.prune', { beforeMs: now - retention.snapshotMs, limit: BATCH }));
    if (due(a.registry === null ? null : a.registry + rt.registries.limits.idleTtlMs)) count('registries-dropped', await this.#batch('secrets.dropIdle', { cutoffMs: now - rt.registries.limits.idleTtlMs, limit: BATCH }));
    if (due(a.ended === null ? null : a.ended + retention.endedRunMs)) {
      const old = await unitOfWork(rt.port, (tx) => tx.read.runsEndedBefore({ beforeMs: now - retention.endedRunMs, limit: BATCH }));
      count('runs-retired', await this.#batch('run.remove', { runIds: old, bounds: rt.runs.bounded }));
    }
    if (due(a.liveSince === null ? null : a.liveSince + retention.liveRunMs)) {
      for (const kind of ['fork', 'follow-up'] as const) {
        const idle = await unitOfWork(rt.port, (tx) => tx.read.liveRunsCreatedBefore({ kind, beforeMs: now - retention.liveRunMs, limit: BATCH }));
        count(`${kind}-runs-retired`, await this.#batch('run.remove', { runIds: idle, bounds: rt.runs.bounded }));
      }
    }
    if (due(a.claim === null ? null : a.claim + retention.endedRunMs)) count('claims-pruned', await this.#batch('claim.prune', { beforeMs: now - retention.endedRunMs, limit: BATCH }));
    for (const log of INQUIRY_LOGS) {
      if (due(a[log] === null ? null : a[log] + retention.inquiryMs)) count(`${log}-pruned`, await this.#batch('doc.prune', { log, beforeMs: now - retention.inquiryMs, limit: BATCH }));
    }
    return { report, nextAt: nextDue(a, retention, rt.registries.limits.idleTtlMs, now) };
  }

  /** Commit one retention operation on its own; what it reports it did. */
  async #batch<N extends 'memory.purgeExpired' | 'journal.prune' | 'secrets.dropIdle' | 'run.remove' | 'claim.prune' | 'doc.prune'>(op: N, args: OpArgs<N>): Promise<number> {
    const done = await unitOfWork(this.#o.openwop.port, (tx) => tx.add(op, args));
    return Number(done.value);
  }

  /** Run passes until stopped: each as soon as something is due, at the latest every `idleMs`. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    // Work another request (or host) just created may be due before the next look: look at once.
    this.#unsubscribe = this.#o.openwop.port.onWake(() => this.wake());
    this.#schedule(0);
  }

  /** Look at the agenda at once (another host said something changed). */
  wake(): void {
    if (this.#stopped) return;
    // A pass under way may have read the agenda before the news: it goes round again when it ends.
    if (this.#running !== undefined) return void (this.#again = true);
    clearTimeout(this.#timer);
    this.#schedule(0);
  }

  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#running = (async () => {
        let next = this.#o.idleMs ?? 1000;
        try {
          const { report, nextAt } = await this.runOnce();
          if (Object.keys(report).length > 0) {
            this.#o.onReport?.(report);
            next = 0; // there may be more of it: go round again at once
          } else next = Math.max(0, Math.min(next, nextAt - this.#o.clock.now()));
        } catch (err) {
          this.#o.onError?.(err);
        } finally {
          this.#running = undefined;
          if (this.#again) next = 0;
          this.#again = false;
          if (!this.#stopped) this.#schedule(next);
        }
      })();
    }, delayMs);
    this.#timer.unref();
  }

  /** Stop: no new pass starts; resolves when the pass in progress (if any) has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    clearTimeout(this.#timer);
    await this.#running;
  }
}

/** The earliest instant any work of `a` falls due (retention thresholds applied). */
function nextDue(a: Agenda, r: Retention, idleTtlMs: number, now: number): number {
  const at = [a.commitment, a.schedule, a.question, a.expiry, a.journal === null ? null : a.journal + r.snapshotMs, a.registry === null ? null : a.registry + idleTtlMs,
    a.ended === null ? null : a.ended + r.endedRunMs, a.liveSince === null ? null : a.liveSince + r.liveRunMs, a.claim === null ? null : a.claim + r.endedRunMs,
    ...INQUIRY_LOGS.map((log) => (a[log] === null ? null : a[log] + r.inquiryMs))];
  if (a.predicates > 0) return now;
  return Math.min(...at.filter((x): x is number => x !== null), Number.POSITIVE_INFINITY);
}

/** Whether the fleet's record of accepted credentials (the agenda's `fleet`) accepts `fp`; an absent or unreadable record does. */
function acceptedBy(record: string | null, fp: string): boolean {
  if (record === null) return true;
  try {
    const accepted = (JSON.parse(record) as { accepted?: unknown }).accepted;
    return !Array.isArray(accepted) || accepted.includes(fp);
  } catch {
    return true;
  }
}
