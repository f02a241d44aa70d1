/**
 * Runs: read a run's events, fork a run (MAE-3), and read memory as a forked run sees it.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.ts';
import { bodyOf, paramsOf, queryOf, serve } from '../route-helpers.ts';
import { actionOf, ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

export function registerRuns(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.runEvents, async (req) => {
    const { runId } = paramsOf(req, ROUTES.runEvents);
    const q = queryOf(req, ROUTES.runEvents);
    if (!host.hasEventLog(runId)) throw new HttpError('not_found', 'no such run');
    const fromSeq = q.fromSeq === undefined ? 0 : Number(q.fromSeq);
    if (!Number.isInteger(fromSeq) || fromSeq < 0) throw new HttpError('validation_failed', 'fromSeq must be a non-negative integer', { failures: [{ instancePath: '/fromSeq', message: 'must be integer >= 0' }] });
    return { runId, events: host.events(runId, fromSeq) };
  });

  // One path segment `<runId>:<action>`, matched whole; only the catalogue's action (fork) exists.
  serve(app, ROUTES.runFork, async (req) => {
    const { runId: target } = paramsOf(req, ROUTES.runFork);
    const colon = target.lastIndexOf(':');
    if (colon <= 0 || target.slice(colon + 1) !== actionOf(ROUTES.runFork)) throw new HttpError('not_found', 'no such run action');
    const runId = target.slice(0, colon);
    const body = bodyOf(req, ROUTES.runFork);
    if (host.run(runId) === undefined) throw new HttpError('not_found', 'no such run');
    if (host.hasEventLog(runId) && body.fromSeq > host.lastSequence(runId)) throw new HttpError('validation_failed', 'fromSeq is past the end of the run', { failures: [{ instancePath: '/fromSeq', message: `must be <= ${host.lastSequence(runId)}` }] });
    // Both modes start the fork from memory as of fromSeq (replay re-runs, branch may diverge): a snapshot the host
    // cannot serve is refused either way, never replaced by current memory.
    const run = host.fork(runId, body.fromSeq); // throws ReplayMemorySnapshotUnavailableError → 422
    return { runId: run.runId, forkedFrom: { runId, fromSeq: body.fromSeq }, status: 'created', mode: body.mode ?? 'replay' };
  });

  // Memory as a run reads it: a fork reads its snapshot; any other run reads live memory of its tenant.
  serve(app, ROUTES.runMemory, async (req) => {
    const { runId } = paramsOf(req, ROUTES.runMemory);
    const q = queryOf(req, ROUTES.runMemory);
    const run = host.run(runId);
    if (run === undefined) throw new HttpError('not_found', 'no such run');
    const memoryRef = q.memoryRef ?? run.memoryRef;
    const memory = host.runMemory(run);
    if (q.id !== undefined) {
      const e = await memory.get(memoryRef, q.id);
      if (e === null) throw new HttpError('not_found', 'no such entry');
      return e;
    }
    return { entries: await memory.list(memoryRef) };
  });
}
