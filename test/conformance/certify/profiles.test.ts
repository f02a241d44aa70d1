/**
 * The v1 profile predicates certify derives claims with (restated from upstream's profile module): each profile
 * appears exactly when its predicate's fields are present, and never without the core predicate.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivedProfiles, isV1Core, MAJORS } from '../../../conformance/certify/profiles.ts';
import { MEMORY_DISCOVERY } from './support.ts';

const v1 = MAJORS[1]!;
const ids = (d: Record<string, unknown>) => derivedProfiles(v1, d).map((p) => p.id);
const CORE = { protocolVersion: '1.0', supportedEnvelopes: [], schemaVersions: {}, limits: { clarificationRounds: 0, schemaRounds: 0, envelopesPerTurn: 0 } };

describe('v1 profile derivation', () => {
  it('the core predicate: a 1.<minor> version, string envelopes, schema versions and three non-negative integer limits', () => {
    expect(isV1Core(CORE)).toBe(true);
    for (const bad of [{ protocolVersion: '2.0' }, { protocolVersion: '1.0.0' }, { protocolVersion: '01.0' }, { supportedEnvelopes: [1] }, { schemaVersions: null }, { limits: { clarificationRounds: -1, schemaRounds: 0, envelopesPerTurn: 0 } }, { limits: { clarificationRounds: 0.5, schemaRounds: 0, envelopesPerTurn: 0 } }]) {
      expect(isV1Core({ ...CORE, ...bad }), JSON.stringify(bad)).toBe(false);
    }
  });

  it('a bare core host derives discovery-core, both stream profiles and node-packs; each family adds its profile', () => {
    expect(ids(CORE)).toEqual(['openwop-discovery-core', 'openwop-stream-sse', 'openwop-stream-poll', 'openwop-node-packs']);
    expect(ids({ ...CORE, supportedEnvelopes: ['clarification.request'] })).toEqual(['openwop-discovery-core', 'openwop-interrupts', 'openwop-stream-sse', 'openwop-stream-poll', 'openwop-node-packs', 'openwop-core-standard']);
    expect(ids({ ...CORE, supportedTransports: ['grpc'] })).toEqual(['openwop-discovery-core', 'openwop-node-packs']);
    expect(ids({ ...CORE, secrets: { supported: true, scopes: ['user'] } })).toContain('openwop-secrets');
    expect(ids({ ...CORE, aiProviders: { policies: { modes: ['optional'] } } })).toContain('openwop-provider-policy');
    expect(ids({ ...CORE, replay: { supported: true, modes: [] } })).not.toContain('openwop-replay-fork');
    expect(ids({ ...CORE, fixtures: ['x', ''] })).not.toContain('openwop-fixtures');
    expect(ids(MEMORY_DISCOVERY)).toContain('openwop-memory');
    expect(ids({ ...MEMORY_DISCOVERY, agents: { memoryBackends: ['session'] } })).not.toContain('openwop-memory');
    expect(ids({ ...CORE, triggerBridge: { supported: true }, deadLetter: { supported: true }, webhooks: { durable: true } })).toContain('openwop-trigger-bridge');
    expect(ids({ ...CORE, triggerBridge: { supported: true }, deadLetter: { supported: true } })).not.toContain('openwop-trigger-bridge');
  });

  it('no profile is ever derived without the core predicate (property)', () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom('protocolVersion', 'supportedEnvelopes', 'memory', 'agents', 'replay', 'fixtures', 'secrets', 'limits', 'schemaVersions'), fc.jsonValue()), (d) => {
      const got = ids(d);
      if (!isV1Core(d)) expect(got).toEqual([]);
      else expect(got.slice(0, 1)).toEqual(['openwop-discovery-core']);
    }), { numRuns: 300 });
  });

  it('only the witnessed floors exist: discovery-core and memory', () => {
    expect(v1.profiles.filter((p) => p.floor.length > 0).map((p) => [p.id, p.floor.length])).toEqual([['openwop-discovery-core', 1], ['openwop-memory', 4]]);
  });
});
