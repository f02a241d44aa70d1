/**
 * Workflow runs as upstream's suite drives them: start a run of a workflow the host has (the conformance fixtures it
 * seeded), read its status and variables, and answer the interrupt it is suspended on — addressed by the node it
 * suspends. GET on any run path answers the run (or 404), never a 405.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.ts';
import { actingTenant, bodyOf, paramsOf, serveSteps } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

export function registerWorkflowRuns(app: FastifyInstance, host: HostRuntime): void {
  // The run acts as the tenant named (a tenant key: only its own, bound in auth-binding.ts), else the caller's.
  // The fixture runner drives the host as a client does, one unit per operation (workflow-runs.ts): a run start is
  // served in steps.
  serveSteps(app, ROUTES.runStart, async (req) => {
    const { workflowId, tenantId } = bodyOf(req, ROUTES.runStart);
    const run = await host.startWorkflow(workflowId, actingTenant(req, tenantId));
    return { runId: run.runId, workflowId: run.workflowId, status: run.status };
  });

  // Answer the interrupt a run is suspended on (an approval gate, RFC 0039 §A escalation): one answer wins, any other
  // is a 409; a node the run does not wait on is a 404; an action the node does not take is a 400.
  serveSteps(app, ROUTES.runInterruptResolve, async (req, _reply, step) => {
    const { runId, nodeId } = paramsOf(req, ROUTES.runInterruptResolve);
    const { resumeValue } = bodyOf(req, ROUTES.runInterruptResolve);
    if ((await step((tx) => host.run(tx, runId))) === undefined) throw new HttpError('not_found', 'no such run');
    return host.resolveInterrupt(runId, nodeId, resumeValue);
  });

  // Any run the caller's tenant owns: a workflow run with its variables, any other run (a seam's, a fork of one)
  // without.
  serveSteps(app, ROUTES.runRead, async (req, _reply, step) => {
    const { runId } = paramsOf(req, ROUTES.runRead);
    const run = await step((tx) => host.run(tx, runId));
    if (run === undefined) throw new HttpError('not_found', 'no such run');
    const workflow = await host.workflowRun(runId);
    if (workflow !== undefined) return workflow;
    return { runId, workflowId: run.workflowId, status: run.forkedFrom !== undefined ? 'created' : 'completed', variables: {} };
  });
}
