/**
 * Which profiles a host claims, derived from its discovery document — never chosen by a flag (upstream RFC 0089
 * §B(1), RFC 0148 §B): one predicate per profile of a major's closed catalogue, restated from upstream's v1 profile
 * predicates (spec/v1/profiles.md, conformance/src/lib/profiles.ts at the commit docs/certify.md cites), and the floor
 * this suite witnesses for each: the requirement ids a claim needs as passes before it can certify. A profile with no
 * floor here is listed as claimed and never certified (the suite has no evidence for it).
 *
 * Majors are rows of MAJORS; a major-2 row plugs in beside v1 with its own catalogue when the host serves v2.
 */
import { REQUIREMENTS } from '../requirements.ts';

type Doc = Readonly<Record<string, unknown>>;
/** One profile of a major's catalogue. */
export interface ProfileRule {
  readonly id: string;
  /** The discovery predicate (upstream's, restated). */
  readonly derives: (d: Doc) => boolean;
  /** The requirement ids whose passes certify the claim; empty: no floor witnessed by this suite. */
  readonly floor: readonly string[];
}

const obj = (v: unknown): Doc | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Doc) : undefined);
const strings = (v: unknown): readonly string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);
const count = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const supported = (v: unknown): boolean => obj(v)?.supported === true;

/** The v1 core predicate: a `1.<minor>` protocol version, string envelopes, schema versions and the three limits. */
export function isV1Core(d: Doc): boolean {
  const m = typeof d.protocolVersion === 'string' ? /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/.exec(d.protocolVersion) : null;
  const limits = obj(d.limits);
  return m?.[1] === '1' && strings(d.supportedEnvelopes) !== undefined && obj(d.schemaVersions) !== undefined && limits !== undefined
    && count(limits.clarificationRounds) && count(limits.schemaRounds) && count(limits.envelopesPerTurn);
}
/** SSE and poll: a host that lists no transports, or lists `rest`. */
const restTransport = (d: Doc): boolean => d.supportedTransports == null || (strings(d.supportedTransports)?.includes('rest') ?? false);

/** The floor rows of the requirement table for a proposed floor (requirements.schema.json `floor`). */
const floorRows = (floor: 'openwop-memory'): string[] => [...REQUIREMENTS.values()].filter((r) => r.namespace === 'openwop' && (r.floor ?? []).includes(floor)).map((r) => r.id);

/** v1's closed catalogue (the deprecated alias `openwop-core` is never claimed: a bundle names canonical ids). */
const V1_PROFILES: readonly ProfileRule[] = [
  { id: 'openwop-discovery-core', derives: isV1Core, floor: ['openwop.requirement.proposed.core.discovery-public-documents'] },
  { id: 'openwop-interrupts', derives: (d) => isV1Core(d) && (strings(d.supportedEnvelopes)?.includes('clarification.request') ?? false), floor: [] },
  { id: 'openwop-stream-sse', derives: (d) => isV1Core(d) && restTransport(d), floor: [] },
  { id: 'openwop-stream-poll', derives: (d) => isV1Core(d) && restTransport(d), floor: [] },
  { id: 'openwop-secrets', derives: (d) => isV1Core(d) && supported(d.secrets) && (strings(obj(d.secrets)?.scopes)?.includes('user') ?? false), floor: [] },
  {
    id: 'openwop-provider-policy',
    derives: (d) => { const modes = strings(obj(obj(d.aiProviders)?.policies)?.modes); return isV1Core(d) && modes !== undefined && modes.includes('optional'); },
    floor: [],
  },
  { id: 'openwop-node-packs', derives: isV1Core, floor: [] },
  { id: 'openwop-replay-fork', derives: (d) => isV1Core(d) && supported(d.replay) && (strings(obj(d.replay)?.modes)?.length ?? 0) > 0, floor: [] },
  { id: 'openwop-fixtures', derives: (d) => isV1Core(d) && Array.isArray(d.fixtures) && d.fixtures.length > 0 && d.fixtures.every((f) => typeof f === 'string' && f.length > 0), floor: [] },
  {
    id: 'openwop-memory',
    derives: (d) => isV1Core(d) && supported(d.memory) && obj(d.memory)?.writable !== false && (strings(obj(d.agents)?.memoryBackends)?.includes('long-term') ?? false),
    floor: floorRows('openwop-memory'),
  },
  {
    id: 'openwop-trigger-bridge',
    derives: (d) => {
      const external = strings(obj(obj(d.triggerBridge)?.ingestion)?.externalSources) ?? [];
      const durable = supported(d.queueBus) || supported(d.scheduling) || obj(d.webhooks)?.durable === true || external.includes('email') || external.includes('form');
      return isV1Core(d) && supported(d.triggerBridge) && supported(d.deadLetter) && durable;
    },
    floor: [],
  },
  // The two operational annexes upstream derives beside the catalogue (RFC 0088, RFC 0085 §B: the floor tier).
  { id: 'openwop-core-standard', derives: (d) => isV1Core(d) && (strings(d.supportedEnvelopes)?.includes('clarification.request') ?? false) && restTransport(d), floor: [] },
  {
    id: 'openwop-agent-platform',
    derives: (d) => {
      const agents = obj(d.agents);
      const http = obj(d.httpClient);
      return isV1Core(d) && supported(agents?.manifestRuntime) && supported(agents?.liveRuntime) && supported(d.toolCatalog) && supported(d.toolHooks)
        && supported(http?.safeFetch) && supported(d.providerUsage) && supported(d.prompts) && supported(d.memory) && supported(d.feedback)
        && (obj(d.replay)?.supported === true || obj(d.nondeterminismPolicy)?.declared === true);
    },
    floor: [],
  },
];

/** What certify needs to know about one OpenWOP major. */
export interface MajorRule {
  readonly major: 1 | 2;
  /** The protocol versions of this major a discovery document advertises, and the preferred one (bundle `discovery`); undefined: it serves none. */
  readonly versions: (d: Doc) => { readonly protocolVersions: string[]; readonly preferredVersion: string } | undefined;
  readonly profiles: readonly ProfileRule[];
}

/** The majors certify can run. v2 joins as a row once the host serves it (issue 39 part 3). */
export const MAJORS: Readonly<Partial<Record<1 | 2, MajorRule>>> = {
  1: {
    major: 1,
    versions: (d) => (typeof d.protocolVersion === 'string' && /^1\.(0|[1-9][0-9]*)$/.test(d.protocolVersion) ? { protocolVersions: [d.protocolVersion], preferredVersion: d.protocolVersion } : undefined),
    profiles: V1_PROFILES,
  },
};

/** The profiles a discovery document derives at a major, in catalogue order. */
export const derivedProfiles = (rule: MajorRule, d: Doc): ProfileRule[] => rule.profiles.filter((p) => p.derives(d));
