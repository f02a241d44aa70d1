/**
 * `wopkit certify` against an in-process reference host that publishes its signing keys: the bundle it writes
 * verifies against the host's discovery `signingKeys[]`, claims exactly what the discovery document derives, certifies
 * the floors the suite witnesses, and keeps Inquirium rows out. A one-byte change in any signed member fails
 * verification and names the member; a rotation keeps old bundles verifiable while the old key stays published.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certify } from '../../../conformance/certify/cli.ts';
import type { BundleV3 } from '../../../conformance/certify/bundle-types.ts';
import { cutBundle } from '../../../conformance/certify/bundle.ts';
import { MAJORS } from '../../../conformance/certify/profiles.ts';
import { verifyBundle, verifyBundleFile } from '../../../conformance/certify/verify.ts';
import { publicKeyOf, signingKeyEntry } from '../../../conformance/certify/keys.ts';
import { configFrom } from '../../../conformance/config.ts';
import { runSuite } from '../../../conformance/run.ts';
import { REQUIREMENTS } from '../../../conformance/requirements.ts';
import { startHost, TOKEN } from './support.ts';

const dir = mkdtempSync(join(tmpdir(), 'wopkit-certify-host-'));
const keyFile = join(dir, 'host.pem');
const oldKey = generateKeyPairSync('ed25519').privateKey;
let app: FastifyInstance;
let url: string;
let bundlePath: string;
let bundle: BundleV3;
let certifyMs = 0;
let out = '';
let code = -1;

beforeAll(async () => {
  const k = await certify({ args: ['keygen'], values: new Map([['--out', keyFile]]), flags: new Set(), format: 'json' }, { out: (s) => (out = s), err: () => undefined, env: {} });
  expect(k).toBe(0);
  const entry = (JSON.parse(out) as { signingKey: ReturnType<typeof signingKeyEntry> }).signingKey;
  // The old key stays published after the rotation to the new one.
  ({ app, url } = await startHost([entry, signingKeyEntry(oldKey)]));
  const lines: string[] = [];
  const t0 = performance.now();
  code = await certify(
    { args: [], values: new Map([['--base-url', url], ['--api-key', TOKEN], ['--key', keyFile], ['--out', join(dir, 'bundles')], ['--build', 'commit:0123456789abcdef0123456789abcdef01234567']]), flags: new Set(['--strict']), format: 'text' },
    { out: (s) => lines.push(s), err: (s) => lines.push(s), env: {} },
  );
  certifyMs = performance.now() - t0;
  out = lines.join('\n');
  const files = readdirSync(join(dir, 'bundles'));
  bundlePath = join(dir, 'bundles', files[0]!);
  bundle = JSON.parse(readFileSync(bundlePath, 'utf8')) as BundleV3;
}, 120_000);
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const verifyAgainstHost = async (b: unknown) => {
  const path = join(dir, `v-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(b));
  return verifyBundleFile(path, `${url}/.well-known/openwop`);
};

describe('certify against the reference host', () => {
  it('writes one bundle, exits 0 and prints the matrix row', () => {
    expect(code, out).toBe(0);
    expect(readdirSync(join(dir, 'bundles'))).toHaveLength(1);
    expect(out).toMatch(/INTEROP-MATRIX row:\n\| \*\*`wopkit-reference-host@/);
  });

  it('the bundle verifies against the host\'s published keys, and certifies the witnessed floors', async () => {
    const v = await verifyBundleFile(bundlePath);
    expect(v.failures).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.certifiedProfiles).toEqual(['openwop-discovery-core', 'openwop-memory']);
  });

  it('claims exactly what the discovery document derives, each certified only with a floor', () => {
    expect(bundle.claimedProfiles.map((p) => p.id)).toEqual(['openwop-discovery-core', 'openwop-stream-sse', 'openwop-stream-poll', 'openwop-node-packs', 'openwop-replay-fork', 'openwop-fixtures', 'openwop-memory']);
    for (const p of bundle.claimedProfiles) expect(p.certified, p.id).toBe(MAJORS[1]!.profiles.find((r) => r.id === p.id)!.floor.length > 0);
    expect(bundle.claimedProfiles.find((p) => p.id === 'openwop-memory')!.witnessCount).toBe(4);
    expect(bundle.claimedProfiles.every((p) => p.evidenceTier === 'self')).toBe(true);
  });

  it('carries one row per witnessed OpenWOP requirement and no Inquirium row; discovery as captured; the signing key id', () => {
    const ids = bundle.results.requirements.map((r) => r.id);
    expect(ids).toEqual([...REQUIREMENTS.values()].filter((r) => r.namespace === 'openwop' && r.scenarios.length > 0).map((r) => r.id));
    expect(ids.some((id) => id.startsWith('orbiplex.'))).toBe(false);
    expect(bundle.results.totals).toEqual({ executedPass: ids.length, executedFail: 0, skipped: 0, inapplicable: 0, blocked: 0 });
    expect(bundle.discovery.document).toMatchObject({ protocolVersion: '1.1', signingKeys: expect.any(Array) });
    // Published at the root only (not mirrored under capabilities: a key is not a capability), both keys, public only.
    expect((bundle.discovery.document as { capabilities: Record<string, unknown> }).capabilities.signingKeys).toBeUndefined();
    const published = (bundle.discovery.document as { signingKeys: Record<string, unknown>[] }).signingKeys;
    expect(published.map((k) => Object.keys(k).sort().join(','))).toEqual(['alg,keyId,publicKey', 'alg,keyId,publicKey']);
    expect(bundle.suite).toMatchObject({ name: '@openwop/openwop-conformance', version: 'wopkit-conformance/0.3.0', targetMajor: 1 });
    expect(bundle.host.signingKeyId).toBe(bundle.signature.keyId);
  });

  it('a bundle signed with the old key still verifies while the host lists it; one signed with an unlisted key does not', async () => {
    const input = {
      results: { requirements: [], host: bundle.host, finishedAt: bundle.generatedAt },
      major: MAJORS[1]!, discovery: { url: bundle.discovery.url, document: bundle.discovery.document! }, build: bundle.host.build, suiteVersion: bundle.suite.version,
    };
    const rows = (await runSuite(configFrom({}, { 'base-url': url, 'api-key': TOKEN, strict: true, only: 'discovery' }))).requirements;
    const old = cutBundle({ ...input, results: { ...input.results, requirements: rows } }, oldKey);
    expect((await verifyAgainstHost(old)).ok).toBe(true);
    const stranger = cutBundle({ ...input, results: { ...input.results, requirements: rows } }, generateKeyPairSync('ed25519').privateKey);
    const v = await verifyAgainstHost(stranger);
    expect(v.failures.map((f) => [f.predicate, f.member])).toEqual([['signature-attributed', 'signature.keyId']]);
  }, 60_000);

  it('a one-byte change in any signed member fails and names the member', () => {
    const keys = new Map([[bundle.signature.keyId, publicKeyOf(JSON.parse(JSON.stringify((bundle.discovery.document as { signingKeys: unknown[] }).signingKeys[0])), 'k')]]);
    expect(verifyBundle(bundle, keys, 'host').ok).toBe(true);
    const flip = (s: string) => `${s.slice(0, -1)}${s.at(-1) === '0' ? '1' : '0'}`;
    const cases: readonly [string, (b: BundleV3) => BundleV3, string][] = [
      ['witnessSha256', (b) => ({ ...b, witnessSha256: flip(b.witnessSha256) }), 'witnessSha256'],
      ['host.build', (b) => ({ ...b, host: { ...b.host, build: { ...b.host.build, id: flip(b.host.build.id) } } }), 'host.build'],
      ['suite.version', (b) => ({ ...b, suite: { ...b.suite, version: flip(b.suite.version) } }), 'suite.version'],
      ['discovery.sha256', (b) => ({ ...b, discovery: { ...b.discovery, sha256: flip(b.discovery.sha256) } }), 'discovery.sha256'],
      ['a ledger row (under witnessSha256)', (b) => ({ ...b, results: { ...b.results, requirements: b.results.requirements.map((r, i) => (i === 3 ? { ...r, scenario: flip(r.scenario) } : r)) } }), 'witnessSha256'],
      ['the captured document (under discovery.sha256)', (b) => ({ ...b, discovery: { ...b.discovery, document: { ...b.discovery.document, protocolVersion: '1.2' } } }), 'discovery.sha256'],
    ];
    for (const [label, mutate, member] of cases) {
      const v = verifyBundle(mutate(bundle), keys, 'host');
      expect(v.ok, label).toBe(false);
      const named = v.failures.flatMap((f) => f.member.split(' | '));
      expect(named, label).toContain(member);
      // Only the two members nothing else confirms can be named together (host.build, suite.version); a member whose
      // evidence still agrees is never blamed.
      expect(v.failures.filter((f) => f.predicate === 'signature-verifies').every((f) => !f.member.includes(member === 'witnessSha256' ? 'discovery.sha256' : 'witnessSha256')), label).toBe(true);
    }
  });

  it('measures the certify run against the plain suite on the same host', async () => {
    const t0 = performance.now();
    await runSuite(configFrom({}, { 'base-url': url, 'api-key': TOKEN, strict: true }));
    const plainMs = performance.now() - t0;
    // Cutting, signing and writing are milliseconds; the run is the suite's.
    console.log(`certify ${certifyMs.toFixed(0)} ms, plain suite ${plainMs.toFixed(0)} ms, ratio ${(certifyMs / plainMs).toFixed(2)}`);
    const t1 = performance.now();
    cutBundle({ results: { requirements: (await runSuite(configFrom({}, { 'base-url': url, 'api-key': TOKEN, only: 'discovery-upstream' }))).requirements, host: bundle.host, finishedAt: bundle.generatedAt }, major: MAJORS[1]!, discovery: { url: bundle.discovery.url, document: bundle.discovery.document! }, build: bundle.host.build, suiteVersion: bundle.suite.version }, oldKey);
    expect(performance.now() - t1).toBeLessThan(0.2 * plainMs);
  }, 120_000);
});
