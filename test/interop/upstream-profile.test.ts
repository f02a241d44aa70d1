/**
 * Issue 24: `wopkit validate Capabilities <file> --profile upstream` reports the discovery MUSTs of upstream's
 * conformance suite that need no running host (generator/upstream-profile.ts). Each rule fails a document that breaks
 * it and nothing else; the reference host's own discovery document and upstream's sample pass; the CLI exits 0 / 1 /
 * 2 and names the rule of every failure.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPSTREAM_DISCOVERY_RULES, upstreamDiscoveryFailures } from '../../generator/upstream-profile.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { REPO, run } from '../generator/helpers.ts';

const GOOD = {
  protocolVersion: '1.1',
  supportedEnvelopes: [],
  schemaVersions: {},
  limits: { clarificationRounds: 0, schemaRounds: 0, envelopesPerTurn: 0 },
};

/** One document per rule that breaks exactly that rule. */
const BREAKS: Readonly<Record<string, Record<string, unknown>>> = {
  'root-fields': { protocolVersion: '1.1', limits: GOOD.limits },
  'limits-counters': { ...GOOD, limits: { clarificationRounds: -1, schemaRounds: 1.5, envelopesPerTurn: 0 } },
  'fixtures-shape': { ...GOOD, fixtures: ['conformance-noop', '', 'conformance-noop'] },
  'families-at-root': { ...GOOD, capabilities: { ...GOOD, memory: { supported: true } } },
  'replay-modes': { ...GOOD, replay: { supported: true, modes: ['rewind'] } },
  'memory-attribution': { ...GOOD, memory: { supported: true, attribution: { emitsWriteEvents: true } } },
  'auth-scoped-discovery': { ...GOOD, discovery: { authScoped: { supported: true, mode: 'extension-endpoint' } } },
};

describe('the upstream discovery profile', () => {
  it('has a breaking document for every rule, and each breaks only its own rule', () => {
    expect(Object.keys(BREAKS).sort()).toEqual(UPSTREAM_DISCOVERY_RULES.map((r) => r.id).sort());
    expect(upstreamDiscoveryFailures(GOOD)).toEqual([]);
    for (const [id, doc] of Object.entries(BREAKS)) {
      const failures = upstreamDiscoveryFailures(doc);
      expect(failures.length, id).toBeGreaterThan(0);
      expect([...new Set(failures.map((f) => f.keyword))], id).toEqual([`upstream:${id}`]);
    }
    expect(upstreamDiscoveryFailures([])).toEqual([expect.objectContaining({ keyword: 'upstream:document' })]);
    expect(upstreamDiscoveryFailures(BREAKS['limits-counters']).map((f) => f.instancePath)).toEqual(['/limits/clarificationRounds', '/limits/schemaRounds']);
  });

  it('the reference host\'s discovery document (with its mirror) and upstream\'s sample document pass', async () => {
    const { app } = await createHost({ token: 'profile-test-token-0123456789', seedConformanceFixtures: true });
    try {
      const doc = (await app.inject({ method: 'GET', url: ROUTES.discovery.path })).json();
      expect(upstreamDiscoveryFailures(doc)).toEqual([]);
    } finally {
      await app.close();
    }
    const sample = JSON.parse(readFileSync(join(REPO, 'schemas/openwop/v1/examples/capabilities/valid/interop-upstream-discovery.json'), 'utf8')) as Record<string, unknown>;
    delete sample.$schema;
    expect(upstreamDiscoveryFailures(sample)).toEqual([]);
  });

  describe('wopkit validate --profile upstream', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wopkit-profile-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, doc: unknown) => {
      const p = join(dir, name);
      writeFileSync(p, JSON.stringify(doc));
      return p;
    };

    it('exit 0 for a conforming document, 1 naming each broken rule, 2 for another type or profile', async () => {
      const ok = await run(['validate', 'Capabilities', file('ok.json', GOOD), '--profile', 'upstream', '--root', REPO]);
      expect(ok.code).toBe(0);
      expect(ok.out).toMatch(/1 valid, 0 invalid \(profile upstream\)/);
      expect(ok.out).toMatch(/not checked without a host .*openapi\.json/);
      // Valid under the schema alone (mirror and attribution are open), refused by the profile.
      const mirrored = file('mirror.json', { ...BREAKS['families-at-root'] });
      expect((await run(['validate', 'Capabilities', mirrored, '--root', REPO])).code).toBe(0);
      const bad = await run(['validate', 'Capabilities', mirrored, '--profile', 'upstream', '--root', REPO, '--format', 'json']);
      expect(bad.code).toBe(1);
      const json = JSON.parse(bad.out) as { profile: string; results: { failures: { keyword: string; instancePath: string }[] }[] };
      expect(json.profile).toBe('upstream');
      expect(json.results[0]!.failures).toEqual([expect.objectContaining({ keyword: 'upstream:families-at-root', instancePath: '/capabilities/memory' })]);
      expect((await run(['validate', 'MemoryEntry', mirrored, '--profile', 'upstream', '--root', REPO])).code).toBe(2);
      const other = await run(['validate', 'Capabilities', mirrored, '--profile', 'strict', '--root', REPO]);
      expect(other.code).toBe(2);
      expect(other.err).toMatch(/--profile must be "upstream"/);
    });
  });
});
