/**
 * Runs: read a run's events, fork a run (MAE-3), and read memory as a forked run sees it.
 */
import type { FastifyInstance } from 'fastify';
import { validateRunForkRequest } from '../../../generated/validators/validators.js';
import { HttpError } from '../errors.ts';
import { bodyOf, type HostContext } from '../context.ts';
import type { ForkMemoryView } from '../../multi-agent/replay-snapshots.ts';

export function registerRuns(app: FastifyInstance, ctx: HostContext): void {
  const rt = ctx.openwop;
  const forks = new Map<string, ForkMemoryView>();

  app.get('/v1/runs/:runId/events', async (req) => {
    const { runId } = req.params as { runId: string };
    const q = req.query as { fromSeq?: string };
    if (!rt.log.has(runId)) throw new HttpError('not_found', 'no such run');
    const fromSeq = q.fromSeq === undefined ? 0 : Number(q.fromSeq);
    if (!Number.isInteger(fromSeq) || fromSeq < 0) throw new HttpError('validation_failed', 'fromSeq must be a non-negative integer', { failures: [{ instancePath: '/fromSeq', message: 'must be integer >= 0' }] });
    return { runId, events: rt.log.read(runId, fromSeq) };
  });

  // POST /v1/runs/{runId}:fork — one path segment `<runId>:<action>`; only the fork action exists.
  app.post('/v1/runs/:target', async (req, reply) => {
    const { target } = req.params as { target: string };
    const colon = target.lastIndexOf(':');
    if (colon <= 0 || target.slice(colon + 1) !== 'fork') throw new HttpError('not_found', 'no such run action');
    const runId = target.slice(0, colon);
    const body = bodyOf<{ fromSeq: number }>(req, validateRunForkRequest);
    if (rt.runs.get(runId) === undefined) throw new HttpError('not_found', 'no such run');
    if (rt.log.has(runId) && body.fromSeq > rt.log.lastSequence(runId)) throw new HttpError('validation_failed', 'fromSeq is past the end of the run', { failures: [{ instancePath: '/fromSeq', message: `must be <= ${rt.log.lastSequence(runId)}` }] });
    const { run, view } = rt.fork(runId, body.fromSeq); // throws ReplayMemorySnapshotUnavailableError → 422
    if (!ctx.mutations.forkReadsLive) forks.set(run.runId, view);
    return reply.code(201).send({ runId: run.runId, forkedFrom: { runId, fromSeq: body.fromSeq }, status: 'created' });
  });

  // Memory as a run reads it: a fork reads its snapshot; any other run reads live memory of its tenant.
  app.get('/v1/runs/:runId/memory', async (req) => {
    const { runId } = req.params as { runId: string };
    const q = req.query as { memoryRef?: string; id?: string };
    const run = rt.runs.get(runId);
    if (run === undefined) throw new HttpError('not_found', 'no such run');
    const memoryRef = q.memoryRef ?? run.memoryRef;
    const view = forks.get(runId);
    if (q.id !== undefined) {
      const e = view !== undefined ? await view.get(memoryRef, q.id) : await rt.adapterFor(run.tenant).get(memoryRef, q.id);
      if (e === null) throw new HttpError('not_found', 'no such entry');
      return e;
    }
    return { entries: view !== undefined ? await view.list(memoryRef) : await rt.adapterFor(run.tenant).list(memoryRef) };
  });
}
