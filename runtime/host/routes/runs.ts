/**
 * Runs: read a run's events, fork a run (MAE-3), and read memory as a forked run sees it.
 */
import type { FastifyInstance } from 'fastify';
import { validateRunForkRequest } from '../../../generated/validators/validators.js';
import { HttpError } from '../errors.ts';
import { bodyOf } from '../context.ts';
import type { HostRuntime } from '../host-runtime.ts';

export function registerRuns(app: FastifyInstance, host: HostRuntime): void {
  app.get('/v1/runs/:runId/events', async (req) => {
    const { runId } = req.params as { runId: string };
    const q = req.query as { fromSeq?: string };
    if (!host.hasEventLog(runId)) throw new HttpError('not_found', 'no such run');
    const fromSeq = q.fromSeq === undefined ? 0 : Number(q.fromSeq);
    if (!Number.isInteger(fromSeq) || fromSeq < 0) throw new HttpError('validation_failed', 'fromSeq must be a non-negative integer', { failures: [{ instancePath: '/fromSeq', message: 'must be integer >= 0' }] });
    return { runId, events: host.events(runId, fromSeq) };
  });

  // POST /v1/runs/{runId}:fork — one path segment `<runId>:<action>`; only the fork action exists.
  app.post('/v1/runs/:target', async (req, reply) => {
    const { target } = req.params as { target: string };
    const colon = target.lastIndexOf(':');
    if (colon <= 0 || target.slice(colon + 1) !== 'fork') throw new HttpError('not_found', 'no such run action');
    const runId = target.slice(0, colon);
    const body = bodyOf<{ fromSeq: number }>(req, validateRunForkRequest);
    if (host.run(runId) === undefined) throw new HttpError('not_found', 'no such run');
    if (host.hasEventLog(runId) && body.fromSeq > host.lastSequence(runId)) throw new HttpError('validation_failed', 'fromSeq is past the end of the run', { failures: [{ instancePath: '/fromSeq', message: `must be <= ${host.lastSequence(runId)}` }] });
    const run = host.fork(runId, body.fromSeq); // throws ReplayMemorySnapshotUnavailableError → 422
    return reply.code(201).send({ runId: run.runId, forkedFrom: { runId, fromSeq: body.fromSeq }, status: 'created' });
  });

  // Memory as a run reads it: a fork reads its snapshot; any other run reads live memory of its tenant.
  app.get('/v1/runs/:runId/memory', async (req) => {
    const { runId } = req.params as { runId: string };
    const q = req.query as { memoryRef?: string; id?: string };
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
