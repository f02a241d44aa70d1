/** Every scenario, in report order. */
import type { Scenario } from '../scenario.ts';
import { compactionScenarios } from './compaction.ts';
import { discoveryScenarios } from './discovery.ts';
import { distillationScenarios } from './distillation.ts';
import { fixtureRunScenarios } from './fixture-runs.ts';
import { inquiriumScenarios } from './inquirium.ts';
import { memoryScenarios } from './memory.ts';
import { multiAgentScenarios } from './multi-agent.ts';
import { rfc0068Scenarios } from './rfc0068.ts';
import { rfc0080Scenarios } from './rfc0080.ts';
import { rfc0096Scenarios } from './rfc0096.ts';
import { workflowRunScenarios } from './workflow-runs.ts';

export const SCENARIOS: readonly Scenario[] = [...discoveryScenarios, ...rfc0068Scenarios, ...compactionScenarios, ...distillationScenarios, ...multiAgentScenarios, ...memoryScenarios, ...fixtureRunScenarios, ...workflowRunScenarios, ...rfc0080Scenarios, ...rfc0096Scenarios, ...inquiriumScenarios];
