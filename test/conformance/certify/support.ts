/** Shared pieces of the certify tests: a reference host publishing signing keys, a key pair, a bundle cut in memory. */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createHost, type HostOptions } from '../../../runtime/host/server.ts';
import { signingKeyEntry, type SigningKeyEntry } from '../../../conformance/certify/keys.ts';
import type { RequirementResult } from '../../../conformance/requirement-results.ts';
import { REQUIREMENTS } from '../../../conformance/requirements.ts';
import { cutBundle } from '../../../conformance/certify/bundle.ts';
import { MAJORS } from '../../../conformance/certify/profiles.ts';
import type { BundleV3, Relaxation } from '../../../conformance/certify/bundle-types.ts';

export const TOKEN = 'certify-test-token-0123456789';

export function keyPair(): { readonly privateKey: KeyObject; readonly entry: SigningKeyEntry } {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, entry: signingKeyEntry(privateKey) };
}

/** A reference host (in-memory unless `storage` is given) publishing `keys`; its URL. */
export async function startHost(keys: readonly SigningKeyEntry[], extra: Partial<HostOptions> = {}): Promise<{ app: FastifyInstance; url: string }> {
  const { app } = await createHost({ token: TOKEN, seedConformanceFixtures: true, signingKeys: keys, ...extra });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

/** A v1 discovery document that derives openwop-discovery-core and openwop-memory (and the core-only profiles). */
export const MEMORY_DISCOVERY: Readonly<Record<string, unknown>> = {
  protocolVersion: '1.1',
  host: { name: 'test-host', version: '1.0.0' },
  supportedEnvelopes: [],
  schemaVersions: {},
  limits: { clarificationRounds: 0, schemaRounds: 0, envelopesPerTurn: 0 },
  memory: { supported: true, writable: true },
  agents: { memoryBackends: ['long-term'] },
};

/** One passing result per OpenWOP row that has a witness (what a clean strict run gives). */
export function cleanResults(): RequirementResult[] {
  return [...REQUIREMENTS.values()].filter((r) => r.namespace === 'openwop' && r.scenarios.length > 0).map((r) => ({
    id: r.id, namespace: r.namespace, force: r.force, witness: r.witness, outcome: 'pass' as const, scenarios: [...r.scenarios], assertions: 3, failures: [],
  }));
}

/** A bundle cut in memory from `requirements` and `document`, signed by `key`. */
export function bundleOf(requirements: readonly RequirementResult[], key: KeyObject, o: { document?: Readonly<Record<string, unknown>>; relaxations?: readonly Relaxation[] } = {}): BundleV3 {
  return cutBundle({
    results: { requirements, host: { name: 'test-host', version: '1.0.0' }, finishedAt: '2026-12-07T20:00:00.000Z' },
    major: MAJORS[1]!,
    discovery: { url: 'http://127.0.0.1:1/.well-known/openwop', document: o.document ?? MEMORY_DISCOVERY },
    build: { kind: 'commit', id: '0123456789abcdef0123456789abcdef01234567' },
    suiteVersion: 'wopkit-conformance/0.3.0',
    ...(o.relaxations !== undefined ? { relaxations: o.relaxations } : {}),
  }, key);
}
