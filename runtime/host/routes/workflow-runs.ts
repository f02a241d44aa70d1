/**
 * Workflow runs as upstream's suite drives them: start a run of a workflow the host has (the conformance fixtures it
 * seeded), read its status and variables, and answer the interrupt it is suspended on. GET on any run path answers the run (or 404), never a 405.
 */
import type { FastifyInstance } from 'fastify';
import type { ResumeValue } from '../../../generated/ts/index.ts';
import type { InterruptResolution } from '../../multi-agent/escalation.ts';
import { HttpError } from '../errors.ts';
import { bodyOf, callerTenant, paramsOf, serve } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

/**
 * The answer on the wire → what the supervisor step takes (approve and confirm carry the decision out), with when
 * the person decided. The free-text feedback stays out: run events carry no content.
 */
export function resolutionOf(v: ResumeValue): InterruptResolution {
  const when = v.decidedAt !== undefined ? { decidedAt: v.decidedAt } : {};
  switch (v.action) {
    case 'approve':
    case 'confirm':
      return { outcome: 'approved', ...when };
    case 'reject':
      return { outcome: 'rejected', ...when };
    case 'amend':
      // The schema requires a decision with amend; bodyOf validated it.
      return { outcome: 'amended', decision: v.decision!, ...when };
  }
}

export function registerWorkflowRuns(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.runStart, async (req) => {
    const { workflowId } = bodyOf(req, ROUTES.runStart);
    const run = await host.startWorkflow(workflowId, callerTenant(req));
    return { runId: run.runId, workflowId: run.workflowId, status: run.status };
  });

  // Answer the interrupt a run is suspended on (RFC 0039 §A escalation): one answer wins, any other is a 409.
  serve(app, ROUTES.runInterruptResolve, async (req) => {
    const { runId, nodeId } = paramsOf(req, ROUTES.runInterruptResolve);
    const { resumeValue } = bodyOf(req, ROUTES.runInterruptResolve);
    if ((await host.run(runId)) === undefined) throw new HttpError('not_found', 'no such run');
    return host.resolveInterrupt(runId, nodeId, resolutionOf(resumeValue));
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
