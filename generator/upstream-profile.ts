/**
 * `wopkit validate Capabilities <file> --profile upstream`: the MUSTs upstream OpenWOP's conformance suite checks on
 * a discovery document that can be checked from the document alone, without a running host. Each rule names where
 * upstream states it (the spec section its scenario cites, and the scenario file in openwop/openwop
 * conformance/src/scenarios/). What only a host can show — GET /v1/openapi.json unauthenticated, Cache-Control,
 * ETag and 304 — is listed in {@link NEEDS_A_HOST} and checked by the conformance suite against a host.
 *
 * Restated in our words from upstream's scenarios (docs/interop.md lists the files and commits); no code of theirs.
 */

/** One failure, shaped like the validator's (the keyword names the rule). */
export interface ProfileFailure {
  readonly instancePath: string;
  readonly message: string;
  readonly keyword: string;
}

export interface ProfileRule {
  readonly id: string;
  /** Where upstream states the rule: spec section and the scenario that asserts it. */
  readonly source: string;
  readonly check: (doc: Readonly<Record<string, unknown>>) => readonly Omit<ProfileFailure, 'keyword'>[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The root members every discovery document carries (upstream capabilities.md §3). */
export const UPSTREAM_ROOT_FIELDS = ['protocolVersion', 'supportedEnvelopes', 'schemaVersions', 'limits'] as const;
/** The limits counters upstream's discovery scenario reads. */
export const UPSTREAM_LIMIT_COUNTERS = ['clarificationRounds', 'schemaRounds', 'envelopesPerTurn'] as const;

export const UPSTREAM_DISCOVERY_RULES: readonly ProfileRule[] = [
  {
    id: 'root-fields',
    source: 'capabilities.md §3; scenarios/discovery.test.ts',
    check: (d) => UPSTREAM_ROOT_FIELDS.filter((f) => d[f] === undefined).map((f) => ({ instancePath: '', message: `${f} must be present at the document root` })),
  },
  {
    id: 'limits-counters',
    source: 'capabilities.md §3 (CapabilityLimiter); scenarios/discovery.test.ts',
    check: (d) => {
      if (!isObject(d.limits)) return d.limits === undefined ? [] : [{ instancePath: '/limits', message: 'limits must be an object' }];
      const limits = d.limits;
      return UPSTREAM_LIMIT_COUNTERS.filter((k) => !(Number.isInteger(limits[k]) && (limits[k] as number) >= 0)).map((k) => ({ instancePath: `/limits/${k}`, message: `limits.${k} must be a non-negative integer` }));
    },
  },
  {
    id: 'fixtures-shape',
    source: 'capabilities.md `fixtures` (RFC 0003); scenarios/discovery.test.ts',
    check: (d) => {
      if (d.fixtures === undefined) return [];
      if (!Array.isArray(d.fixtures)) return [{ instancePath: '/fixtures', message: 'fixtures must be an array of fixture ids' }];
      const out: { instancePath: string; message: string }[] = [];
      const seen = new Set<unknown>();
      d.fixtures.forEach((f, i) => {
        if (typeof f !== 'string' || f === '') out.push({ instancePath: `/fixtures/${i}`, message: 'a fixture id must be a non-empty string' });
        else if (seen.has(f)) out.push({ instancePath: `/fixtures/${i}`, message: `fixture id ${JSON.stringify(f)} is listed twice` });
        seen.add(f);
      });
      return out;
    },
  },
  {
    id: 'families-at-root',
    source: 'capabilities.md "Document-root layout" (RFC 0073); lib/discovery-capabilities.ts reads the root only',
    check: (d) => {
      if (d.capabilities === undefined) return [];
      if (!isObject(d.capabilities)) return [{ instancePath: '/capabilities', message: 'the capabilities mirror must be an object' }];
      return Object.keys(d.capabilities)
        .filter((k) => d[k] === undefined)
        .map((k) => ({ instancePath: `/capabilities/${escapePointer(k)}`, message: `${k} appears only under the capabilities wrapper; upstream reads capability families at the root` }));
    },
  },
  {
    id: 'replay-modes',
    source: 'profiles.md "openwop-replay-fork"; scenarios/replay-fork.test.ts reads replay.modes',
    check: (d) => {
      if (d.replay === undefined) return [];
      if (!isObject(d.replay) || typeof d.replay.supported !== 'boolean') return [{ instancePath: '/replay', message: 'replay must be an object with a boolean supported' }];
      if (d.replay.supported !== true) return [];
      const modes = d.replay.modes;
      if (!Array.isArray(modes) || modes.length === 0) return [{ instancePath: '/replay/modes', message: 'a host that supports replay lists its fork modes (replay, branch)' }];
      return modes.flatMap((m, i) => (m === 'replay' || m === 'branch' ? [] : [{ instancePath: `/replay/modes/${i}`, message: `unknown fork mode ${JSON.stringify(m)} (replay or branch)` }]));
    },
  },
  {
    id: 'memory-attribution',
    source: 'RFC 0057 §A; lib/memoryAttribution.ts requires supported and emitsWriteEvents both true',
    check: (d) => {
      const attribution = isObject(d.memory) ? d.memory.attribution : undefined;
      if (attribution === undefined) return [];
      return isObject(attribution) && attribution.supported === true ? [] : [{ instancePath: '/memory/attribution', message: 'an advertised memory.attribution block carries supported: true' }];
    },
  },
  {
    id: 'auth-scoped-discovery',
    source: 'RFC 0011 §A; scenarios/discovery.test.ts (auth-scoped legs)',
    check: (d) => {
      const scoped = isObject(d.discovery) ? d.discovery.authScoped : undefined;
      if (!isObject(scoped) || scoped.supported !== true) return [];
      if (scoped.mode !== undefined && scoped.mode !== 'same-endpoint' && scoped.mode !== 'extension-endpoint') return [{ instancePath: '/discovery/authScoped/mode', message: 'mode is same-endpoint or extension-endpoint' }];
      if (scoped.mode === 'extension-endpoint' && !(typeof scoped.endpointPath === 'string' && scoped.endpointPath.startsWith('/'))) return [{ instancePath: '/discovery/authScoped/endpointPath', message: 'extension-endpoint mode names endpointPath, a path starting with /' }];
      return [];
    },
  },
];

/** Upstream discovery MUSTs only a running host can show; the conformance suite checks them. */
export const NEEDS_A_HOST: readonly string[] = [
  'GET /.well-known/openwop answers 200 without authentication',
  'GET /v1/openapi.json answers 200 without authentication with openapi 3.1 or later',
  'discovery carries Cache-Control',
  'a standard ETag, when sent, answers a matching If-None-Match with 304',
];

/** Every failure of a discovery document under the upstream profile, in rule order. */
export function upstreamDiscoveryFailures(doc: unknown): ProfileFailure[] {
  if (!isObject(doc)) return [{ instancePath: '', message: 'a discovery document is a JSON object', keyword: 'upstream:document' }];
  return UPSTREAM_DISCOVERY_RULES.flatMap((r) => r.check(doc).map((f) => ({ ...f, keyword: `upstream:${r.id}` })));
}
