/**
 * The agent inventory (RFC 0072/0074 `GET /v1/agents`) of the reference host: its built-in manifest agents plus the
 * agents of every agent pack an applied proposal installed for the tenant — never a proposal that is not applied
 * (RFC 0096 inertness: the installed-artefact registry is the only source). Each entry carries the RFC 0080 §C
 * degraded-memory projection against the discovery document the host serves.
 */
import type { AgentInventoryEntry, AgentInventoryResponse, MemoryShape } from '../../generated/ts/agent-inventory-response.ts';
import type { AgentPackArtifact } from '../../generated/ts/proposal.ts';
import { withDegradedProjection } from '../memory/degraded.ts';
import type { InstalledArtifact } from '../proposals/store.ts';

/** The manifest agents every tenant of the reference host sees. */
export const BUILT_IN_AGENTS: readonly AgentInventoryEntry[] = [
  { agentId: 'wopkit.agents.memory-keeper', persona: 'Memory keeper', label: 'Memory keeper', description: 'Keeps long-term notes for a tenant across runs.', modelClass: 'general', packName: 'wopkit.reference-agents', packVersion: '1.0.0', toolAllowlist: [], hasHandoffSchemas: false, memoryShape: { scratchpad: true, conversation: true, longTerm: true } },
  { agentId: 'wopkit.agents.scratch-worker', persona: 'Scratch worker', label: 'Scratch worker', description: 'A stateless worker with run-local scratch memory.', modelClass: 'general', packName: 'wopkit.reference-agents', packVersion: '1.0.0', toolAllowlist: [], hasHandoffSchemas: false, memoryShape: { scratchpad: true } },
];

const str = (v: unknown, fallback: string): string => (typeof v === 'string' && v.length > 0 ? v : fallback);
const SHAPE_KEYS = ['scratchpad', 'conversation', 'longTerm'] as const;

/** The memoryShape keys a packed agent declares as booleans (anything else is not a memoryShape). */
function shapeOf(v: unknown): MemoryShape | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const shape = Object.fromEntries(SHAPE_KEYS.flatMap((k) => (typeof (v as Record<string, unknown>)[k] === 'boolean' ? [[k, (v as Record<string, boolean>)[k]]] : [])));
  return Object.keys(shape).length > 0 ? shape : undefined;
}

/** The inventory entries of one installed agent pack (read from the installed JSON text, as installed). */
export function packEntries(installed: InstalledArtifact): AgentInventoryEntry[] {
  const pack = JSON.parse(installed.artifactJson) as AgentPackArtifact;
  return pack.agents.map((a) => {
    const persona = str(a.persona, a.id);
    const shape = shapeOf(a.memoryShape);
    return {
      agentId: a.id,
      persona,
      label: str(a.label, persona),
      ...(typeof a.description === 'string' ? { description: a.description } : {}),
      modelClass: str(a.modelClass, 'general'),
      packName: pack.name,
      packVersion: str(pack.version, '0.0.0'),
      toolAllowlist: Array.isArray(a.toolAllowlist) ? a.toolAllowlist.filter((t): t is string => typeof t === 'string' && t.length > 0) : [],
      hasHandoffSchemas: typeof a.handoff === 'object' && a.handoff !== null,
      ...(shape !== undefined ? { memoryShape: shape } : {}),
    };
  });
}

/** The inventory of built-ins plus installed agent packs, projected for `capabilities`, sorted by agentId. */
export function agentInventory(installedPacks: readonly InstalledArtifact[], capabilities: Readonly<Record<string, unknown>>): AgentInventoryResponse {
  const agents = [...BUILT_IN_AGENTS, ...installedPacks.flatMap(packEntries)]
    .map((e) => withDegradedProjection(e, capabilities))
    .sort((a, b) => (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0));
  return { agents, total: agents.length };
}
