/** Advertisement gates shared by scenarios: each returns a reason when the host does not advertise the behaviour. */
import { get, type Discovery } from '../scenario.ts';

const need = (cond: boolean, reason: string) => (cond ? undefined : reason);
export const longTerm = (d: Discovery) => need(Array.isArray(get(d, 'agents.memoryBackends')) && (get(d, 'agents.memoryBackends') as string[]).includes('long-term'), 'agents.memoryBackends does not include long-term');
export const consolidation = (d: Discovery) => need(get(d, 'agents.memoryConsolidation.supported') === true, 'agents.memoryConsolidation.supported is not true');
export const commitments = (d: Discovery) => need(get(d, 'agents.commitments.supported') === true, 'agents.commitments.supported is not true');
export const compaction = (d: Discovery) => need(get(d, 'memory.compaction.supported') === true, 'memory.compaction.supported is not true');
export const scheduledDistillation = (d: Discovery) => need(get(d, 'memory.distillation.scheduled') === true, 'memory.distillation.scheduled is not true');
export const ttl = (d: Discovery) => longTerm(d) ?? need(get(d, 'memory.ttlSupported') === true, 'memory.ttlSupported is not true');
export const executionModelV2 = (d: Discovery) => need(Number(get(d, 'multiAgent.executionModel.version') ?? 0) >= 2, 'multiAgent.executionModel.version is below 2');
export const interruptResolve = (d: Discovery) => need(typeof get(d, 'multiAgent.executionModel.interruptResolveEndpoint') === 'string', 'multiAgent.executionModel.interruptResolveEndpoint is not advertised');
export const v2WithMemory = (d: Discovery) => executionModelV2(d) ?? longTerm(d);
export const inquiriumGenerate = (d: Discovery) => need(get(d, 'inquirium.generate.supported') === true, 'inquirium.generate.supported is not true');
export const inquiriumQuestions = (d: Discovery) => need(get(d, 'inquirium.operatorQuestions.supported') === true, 'inquirium.operatorQuestions.supported is not true');
export const both = (...gs: ((d: Discovery) => string | undefined)[]) => (d: Discovery) => gs.map((g) => g(d)).find((r) => r !== undefined);
export const distillation = (d: Discovery) => need(get(d, 'memory.distillation.supported') === true, 'memory.distillation.supported is not true');
/** The host advertises (seeded) every fixture named: upstream's `fixtures` list in discovery. */
export const fixtures = (...ids: string[]) => (d: Discovery) => {
  const advertised = Array.isArray(get(d, 'fixtures')) ? (get(d, 'fixtures') as unknown[]) : [];
  const missing = ids.filter((id) => !advertised.includes(id));
  return need(missing.length === 0, `discovery fixtures does not list ${missing.join(', ')} (seed them: createHost({ seedConformanceFixtures: true }) for a host started in code, OPENWOP_CONFORMANCE_SEED=true for npm start)`);
};
export const proposals = (d: Discovery) => need(Array.isArray(get(d, 'agents.proposals.artifactKinds')) && typeof get(d, 'agents.proposals.activation') === 'string', 'agents.proposals (artifactKinds, activation) is not advertised');
export const proposalsAgentPacks = (d: Discovery) => proposals(d) ?? need((get(d, 'agents.proposals.artifactKinds') as string[]).includes('agent-pack'), 'agents.proposals.artifactKinds does not include agent-pack');
export const manifestRuntime = (d: Discovery) => need(get(d, 'agents.manifestRuntime.supported') === true, 'agents.manifestRuntime.supported is not true');
export const memorySupported = (d: Discovery) => need(get(d, 'memory.supported') === true, 'memory.supported is not true');
