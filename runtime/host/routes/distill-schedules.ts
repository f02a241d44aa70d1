/**
 * Scheduled distillation ("dreams") seams: register a schedule, read it with its latest outcome, and run every due
 * schedule now (what the background ticker does every `scheduleTickMs`). Served only when the runtime wires
 * scheduled distillation; otherwise 501 capability_not_provided, matching what discovery advertises.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.ts';
import { actingTenant, bodyOf, queryOf, serve, serveWithoutUnit } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';
import { outcomeRecord, type DistillationSchedule, type RecordedOutcome, type ScheduledRunOutcome } from '../../distillation/schedule.ts';

/** Refusal code of ScheduleError / DistillationError → the request field it is about. */
const REFUSED_FIELD: Record<string, string> = { invalid_period: '/every', invalid_start: '/firstAt', invalid_ref: '/memoryRef', invalid_budget: '/tokenBudget' };

/** The wire form of an outcome: identifiers, counts and the content-free event only. */
export function outcomeView(outcome: ScheduledRunOutcome | RecordedOutcome): Record<string, unknown> {
  const o = 'result' in outcome ? outcomeRecord(outcome) : outcome;
  const base = { kind: o.kind, scheduleId: o.scheduleId, instant: o.instant, missed: o.missed };
  // A distilled outcome a 0.2 store recorded has neither (read back as it was).
  if (o.kind === 'distilled') return 'archiveId' in o ? { ...base, archiveId: o.archiveId, event: o.event } : base;
  if (o.kind === 'budget-exceeded') return { ...base, tokensRequired: o.tokensRequired };
  if (o.kind === 'failed') return { ...base, errorCode: o.errorCode };
  return base;
}

/** The wire form of a schedule, from the values the scheduler validated (every instant it holds is a formattable date). */
function scheduleView(s: DistillationSchedule, last: RecordedOutcome | undefined): Record<string, unknown> {
  return {
    scheduleId: s.scheduleId,
    memoryRef: s.memoryRef,
    every: s.every,
    ...(s.tokenBudget !== undefined ? { tokenBudget: s.tokenBudget } : {}),
    nextAt: new Date(s.nextAt).toISOString(),
    ...(last !== undefined ? { lastOutcome: outcomeView(last) } : {}),
  };
}

export function registerDistillSchedules(app: FastifyInstance, host: HostRuntime): void {
  const wired = (): void => {
    if (!host.schedulesWired()) throw new HttpError('capability_not_provided', 'this host does not provide scheduled distillation', { capability: 'memory.distillation' });
  };

  // The scheduler checks and bounds every field (period, first instant, tenant, budget) before it stores anything,
  // so a refusal leaves no schedule behind and an accepted one always formats.
  serve(app, ROUTES.distillSchedule, async (req, _reply, tx) => {
    const body = bodyOf(req, ROUTES.distillSchedule);
    wired();
    // A date-time Date cannot hold (a leap second, year 0000 …) parses to NaN, which the scheduler refuses at /firstAt.
    const firstAt = body.firstAt === undefined ? undefined : Date.parse(body.firstAt);
    try {
      const s = await host.scheduleDistillation(tx, { memoryRef: body.memoryRef, every: body.every, ...(body.tokenBudget !== undefined ? { tokenBudget: body.tokenBudget } : {}), ...(firstAt !== undefined ? { firstAt } : {}) });
      return scheduleView(s, undefined);
    } catch (err) {
      const { code = '', message = code } = err as { code?: string; message?: string };
      const at = REFUSED_FIELD[code];
      if (at === undefined) throw err;
      // The refusal's own message: the scheduler's and distiller's refusals name the rule, never the request's content.
      throw new HttpError('validation_failed', 'the schedule was refused', { failures: [{ instancePath: at, message }] });
    }
  });

  serve(app, ROUTES.distillScheduleRead, async (req, _reply, tx) => {
    const q = queryOf(req, ROUTES.distillScheduleRead);
    wired();
    const found = q.id === undefined ? undefined : await host.schedule(tx, q.id);
    // CTI-1: another tenant's schedule is indistinguishable from a missing one.
    if (found === undefined || found.schedule.tenant !== actingTenant(req, q.tenant)) throw new HttpError('not_found', 'no such schedule');
    return scheduleView(found.schedule, found.last);
  });

  // The scheduler's tick opens a unit per schedule it runs (as the background ticker does).
  serveWithoutUnit(app, ROUTES.distillScheduleTick, async (req) => {
    const { tenant } = bodyOf(req, ROUTES.distillScheduleTick);
    wired();
    return { outcomes: (await host.tickSchedules(tenant)).map(outcomeView) };
  });
}
