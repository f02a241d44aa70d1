/**
 * RFC 0080 §C over HTTP: every entry of GET /v1/agents carries memoryDegraded + degradedMemoryDimensions exactly
 * when its memoryShape asks for a dimension the discovery document does not advertise, naming exactly those
 * dimensions (§A names); a satisfied entry carries neither.
 */
import { get, type Discovery, type Scenario } from '../scenario.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import * as gate from './gates.ts';

interface Entry { agentId: string; memoryShape?: Record<string, boolean>; memoryDegraded?: boolean; degradedMemoryDimensions?: string[] }

/** The dimensions a memoryShape can ask for, in §A order, with what advertises each (RFC 0080 §A). */
const SHAPE_DIMENSIONS: readonly (readonly [string, readonly string[], (d: Discovery) => boolean])[] = [
  ['read', ['scratchpad', 'conversation', 'longTerm'], (d) => get(d, 'memory.supported') === true],
  ['write', ['scratchpad', 'conversation', 'longTerm'], (d) => get(d, 'memory.supported') === true && get(d, 'memory.writable') !== false],
  ['long-term-durability', ['longTerm'], (d) => ((get(d, 'agents.memoryBackends') as unknown[] | undefined) ?? []).includes('long-term')],
];

/** What the entry must report as degraded, given the advertisement. */
const expectedGap = (e: Entry, d: Discovery): string[] =>
  SHAPE_DIMENSIONS.filter(([, keys, advertised]) => keys.some((k) => e.memoryShape?.[k] === true) && !advertised(d)).map(([dim]) => dim);

export const rfc0080Scenarios: Scenario[] = [
  {
    id: 'memory-degraded-projection',
    title: 'The agent inventory stamps memoryDegraded with exactly the unmet dimensions, and nothing on satisfied agents',
    rfc: 'RFC 0080 §C (agent-memory spec §Memory capability model)',
    profile: 'memory-degraded',
    gate: gate.both(gate.manifestRuntime, gate.memorySupported),
    async run(t) {
      t.req('openwop.requirement.proposed.agent-memory.degraded-memory-visible');
      const inv = await t.call<{ agents: Entry[]; total: number }>(ROUTES.agents, { query: {} });
      const agents = inv.body.agents ?? [];
      t.check(agents.length > 0, 'the inventory is empty: nothing to project');
      t.equal(inv.body.total, agents.length, 'total');
      t.check(agents.some((a) => a.memoryShape?.longTerm === true), 'no listed agent asks for longTerm: the long-term direction of the projection is not exercised');
      for (const a of agents) {
        const gap = expectedGap(a, t.discovery);
        if (gap.length === 0) {
          t.check(a.memoryDegraded !== true && (a.degradedMemoryDimensions ?? []).length === 0, `${a.agentId}: stamped degraded although discovery advertises everything its memoryShape asks for`);
        } else {
          t.equal(a.memoryDegraded, true, `${a.agentId}: memoryDegraded (its memoryShape asks for ${gap.join(', ')}, which discovery does not advertise)`);
          t.equal(a.degradedMemoryDimensions, gap, `${a.agentId}: degradedMemoryDimensions`);
        }
      }
    },
  },
];
