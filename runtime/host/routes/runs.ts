/**
 * Runs: read a run's events a page at a time, fork a run (MAE-3), and read memory as a run sees it (a fork: its
 * snapshot). Every run of another tenant reads as unknown (auth-binding.ts binds `runId`).
 */
import type { FastifyInstance } from 'fastify';
import { MAX_EVENT_PAGE } from '../../events/log.ts';
import { HttpError } from '../errors.ts';
import { bodyOf, pageOf, paramsOf, queryOf, serve } from '../route-helpers.ts';
import { actionOf, ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';
import { integerParam } from '../route-helpers.ts';

export function registerRuns(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.runEvents, async (req) => {
    const { runId } = paramsOf(req, ROUTES.runEvents);
    const q = queryOf(req, ROUTES.runEvents);
    const fromSeq = integerParam(q.fromSeq, 'fromSeq', { min: 0, fallback: 0 });
    const limit = integerParam(q.limit, 'limit', { min: 1, max: MAX_EVENT_PAGE, fallback: MAX_EVENT_PAGE });
    if (!(await host.hasEventLog(runId))) throw new HttpError('not_found', 'no such run');
    const page = await host.events(runId, fromSeq, limit);
    return { runId, events: page.events, ...(page.nextSeq !== undefined ? { nextSeq: page.nextSeq } : {}), hasMore: page.nextSeq !== undefined };
  });

  // One path segment `<runId>:<action>`, matched whole; only the catalogue's action (fork) exists.
  serve(app, ROUTES.runFork, async (req) => {
    const { runId: target } = paramsOf(req, ROUTES.runFork);
    const colon = target.lastIndexOf(':');
    if (colon <= 0 || target.slice(colon + 1) !== actionOf(ROUTES.runFork)) throw new HttpError('not_found', 'no such run action');
    const runId = target.slice(0, colon);
    const body = bodyOf(req, ROUTES.runFork);
    if ((await host.run(runId)) === undefined) throw new HttpError('not_found', 'no such run');
    const last = await host.lastSequence(runId);
    if (last >= 0 && body.fromSeq > last) throw new HttpError('validation_failed', 'fromSeq is past the end of the run', { failures: [{ instancePath: '/fromSeq', message: `must be <= ${last}` }] });
    // Both modes start the fork from memory as of fromSeq (replay re-runs, branch may diverge): a snapshot the host
    // cannot serve is refused either way, never replaced by current memory.
    const run = await host.fork(runId, body.fromSeq); // throws ReplayMemorySnapshotUnavailableError → 422
    return { runId: run.runId, forkedFrom: { runId, fromSeq: body.fromSeq }, status: 'created', mode: body.mode ?? 'replay' };
  });

  // Memory as a run reads it: a fork reads its snapshot; any other run reads live memory of its tenant.
  serve(app, ROUTES.runMemory, async (req) => {
    const { runId } = paramsOf(req, ROUTES.runMemory);
    const q = queryOf(req, ROUTES.runMemory);
    const run = await host.run(runId);
    const memory = run === undefined ? undefined : await host.runMemory(runId);
    if (run === undefined || memory === undefined) throw new HttpError('not_found', 'no such run');
    const memoryRef = q.memoryRef ?? run.memoryRef;
    if (q.id !== undefined) {
      const e = await memory.get(memoryRef, q.id);
      if (e === null) throw new HttpError('not_found', 'no such entry');
      return e;
    }
    return pageOf(memory, memoryRef, q);
  });
}
