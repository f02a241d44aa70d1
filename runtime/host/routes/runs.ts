/**
 * Runs: read a run's events a page at a time, fork a run (MAE-3), and read memory as a run sees it (a fork: its
 * snapshot). Every run of another tenant reads as unknown (auth-binding.ts binds `runId`).
 */
import type { FastifyInstance } from 'fastify';
import { MAX_EVENT_PAGE } from '../../events/log.ts';
import { HttpError } from '../errors.ts';
import { afterCommit, bodyOf, pageOf, paramsOf, queryOf, serve } from '../route-helpers.ts';
import { actionOf, ROUTES, urlOf } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

export function registerRuns(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.runEvents, async (req, _reply, tx) => {
    const { runId } = paramsOf(req, ROUTES.runEvents);
    const q = queryOf(req, ROUTES.runEvents);
    const fromSeq = q.fromSeq ?? 0;
    const limit = q.limit ?? MAX_EVENT_PAGE;
    const page = await host.events(tx, runId, fromSeq, limit);
    if (page === undefined) throw new HttpError('not_found', 'no such run');
    return { runId, events: page.events, ...(page.nextSeq !== undefined ? { nextSeq: page.nextSeq } : {}), hasMore: page.nextSeq !== undefined };
  });

  // One path segment `<runId>:fork`, matched whole; a POST in the other form never gets here (method-answers.ts).
  serve(app, ROUTES.runFork, async (req, _reply, tx) => {
    const { runId: target } = paramsOf(req, ROUTES.runFork);
    const sourceRunId = target.slice(0, -`:${actionOf(ROUTES.runFork)}`.length);
    const { fromSeq, mode = 'replay' } = bodyOf(req, ROUTES.runFork);
    if ((await host.run(tx, sourceRunId)) === undefined) throw new HttpError('not_found', 'no such run');
    // Both modes read memory as of fromSeq (a snapshot the host cannot serve is a 422, never current memory); a fork
    // of a workflow run executes before this answers (replay re-emits what its source recorded, branch does it anew).
    // A runOptionsOverlay (branch only; the schema refuses one on a replay) names options no fixture workflow reads.
    // Its status is what the fixture runner reads of the committed fork, so the answer is made after the commit.
    const fork = await host.fork(tx, sourceRunId, fromSeq, mode);
    return afterCommit(async () => {
      const status = (await host.workflowRun(fork.runId))?.status ?? 'created';
      return { runId: fork.runId, sourceRunId, fromSeq, mode, status, eventsUrl: urlOf(ROUTES.runEvents, { params: { runId: fork.runId } }) };
    });
  });

  // Memory as a run reads it: a fork reads its snapshot; any other run reads live memory of its tenant.
  serve(app, ROUTES.runMemory, async (req, _reply, tx) => {
    const { runId } = paramsOf(req, ROUTES.runMemory);
    const q = queryOf(req, ROUTES.runMemory);
    const found = await host.runMemory(tx, runId);
    if (found === undefined) throw new HttpError('not_found', 'no such run');
    const { run, memory } = found;
    const memoryRef = q.memoryRef ?? run.memoryRef;
    if (q.id !== undefined) {
      const e = await memory.get(memoryRef, q.id);
      if (e === null) throw new HttpError('not_found', 'no such entry');
      return e;
    }
    return pageOf(memory, memoryRef, q);
  });
}
