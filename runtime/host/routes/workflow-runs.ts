/**
 * Workflow runs as upstream's suite drives them: start a run of a workflow the host has (the conformance fixtures it
 * seeded) and read its status and variables. GET on any run path answers the run (or 404), never a 405.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.ts';
import { bodyOf, callerTenant, paramsOf, serve } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

export function registerWorkflowRuns(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.runStart, async (req) => {
    const { workflowId } = bodyOf(req, ROUTES.runStart);
    const run = await host.startWorkflow(workflowId, callerTenant(req));
    return { runId: run.runId, workflowId: run.workflowId, status: run.status };
  });

  // Any run the caller's tenant owns: a workflow run with its variables, any other run (a seam's, a fork) without.
  serve(app, ROUTES.runRead, async (req) => {
    const { runId } = paramsOf(req, ROUTES.runRead);
    const run = await host.run(runId);
    if (run === undefined) throw new HttpError('not_found', 'no such run');
    const workflow = await host.workflowRun(runId);
    if (workflow !== undefined) return workflow;
    return { runId, workflowId: run.workflowId, status: run.forkedFrom !== undefined ? 'created' : 'completed', variables: {} };
  });
}
