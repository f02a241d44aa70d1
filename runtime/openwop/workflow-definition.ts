/**
 * What a workflow run executes: a definition of nodes in order, kept on the run's row (so a fork and an answer read it
 * from the store, on any host). The engine is runtime/openwop/workflow-engine.ts; the conformance fixtures that are
 * workflows are defined in runtime/openwop/fixtures/table.ts.
 */
import { isJsonDoc, type Json } from '../storage/index.ts';

/**
 * The node types a workflow definition may use: a node that does nothing, an approval gate, and the conformance agent
 * (upstream's `core.conformance.mock-agent`): it records a fixed decision with its confidence (`agent.decided`) and,
 * below the host's confidence floor, suspends for a person as a gate does (`node.suspended`, reason low-confidence).
 */
export const WORKFLOW_NODE_TYPES = ['core.noop', 'core.approvalGate', 'core.conformance.mock-agent'] as const;
export type WorkflowNodeType = (typeof WORKFLOW_NODE_TYPES)[number];

/** What a person may answer an approval gate (upstream's approval vocabulary, as far as the gates here offer it). */
export type ApprovalAction = 'accept' | 'reject';

export interface WorkflowNode {
  readonly nodeId: string;
  readonly typeId: WorkflowNodeType;
  /** The actions of a node that waits for a person: accept goes on past it, reject fails it (approval_rejected). */
  readonly actions?: readonly ApprovalAction[];
  /** The conformance agent's fixed decision (`core.conformance.mock-agent`). */
  readonly agent?: { readonly agentId: string; readonly decision: string; readonly confidence: number };
}

export interface WorkflowDefinition {
  readonly workflowId: string;
  /** Executed in order. */
  readonly nodes: readonly WorkflowNode[];
  /** Write a run summary into the run's memory scope when it completes (attributed to the run: `memory.written`). */
  readonly runSummary: boolean;
}

export type ForkMode = 'replay' | 'branch';

/** The run records' decoder for a stored workflow definition (what the engine stored when the run started). */
export function workflowDefinitionOf(v: Json | undefined): WorkflowDefinition | undefined {
  if (!isJsonDoc(v)) return undefined;
  const { workflowId, nodes, runSummary } = v;
  if (typeof workflowId !== 'string' || typeof runSummary !== 'boolean' || !isJsonArray(nodes)) return undefined;
  const decoded: WorkflowNode[] = [];
  for (const n of nodes) {
    const node = workflowNodeOf(n);
    if (node === undefined) return undefined;
    decoded.push(node);
  }
  return { workflowId, nodes: decoded, runSummary };
}

const isNodeType = (t: Json | undefined): t is WorkflowNodeType => WORKFLOW_NODE_TYPES.some((w) => w === t);
const isAction = (a: Json | undefined): a is ApprovalAction => a === 'accept' || a === 'reject';

function workflowNodeOf(n: Json): WorkflowNode | undefined {
  if (!isJsonDoc(n)) return undefined;
  const { nodeId, typeId, actions, agent } = n;
  if (typeof nodeId !== 'string' || !isNodeType(typeId)) return undefined;
  if (actions !== undefined && !(isJsonArray(actions) && actions.every(isAction))) return undefined;
  let decodedAgent: WorkflowNode['agent'];
  if (agent !== undefined) {
    if (!isJsonDoc(agent)) return undefined;
    const { agentId, decision, confidence } = agent;
    if (typeof agentId !== 'string' || typeof decision !== 'string' || typeof confidence !== 'number') return undefined;
    decodedAgent = { agentId, decision, confidence };
  }
  return { nodeId, typeId, ...(actions !== undefined ? { actions: actions.filter(isAction) } : {}), ...(decodedAgent !== undefined ? { agent: decodedAgent } : {}) };
}

const isJsonArray = (v: Json | undefined): v is readonly Json[] => Array.isArray(v);
