/**
 * `certify verify` agrees with upstream's own verifier — its bundle v3 schema and the host-bundle checks of its
 * scripts/check-cut-gates.mjs, run unchanged from the scratch folder scripts/upstream-certify.ts assembles outside the
 * repository — on 100 generated bundles, valid and mutated: schema validity against our closed-shape predicate, and
 * each single-bundle cut-gate check (non-pass reasons, no executed failure, signature attributed and verifying)
 * against ours. Bundles the reference host certifies pass upstream's checks; tampered, relaxed or blocked ones fail.
 *
 * Without the folder the tests skip with the reason (noted for the run's skip summary). Only a machine that has
 * filled the folder can run them, so WOPKIT_REQUIRE_TOOLCHAINS does not turn the skip into a failure: CI installs npm
 * and Debian packages only and has no way to fetch upstream's files (the orbidocs comparison works the same way).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleSchema, cutGates, cutGatesAsync, folderProblems, oracleDir, singleBundleVerdicts } from '../../../scripts/upstream-certify.ts';
import type { BundleV3 } from '../../../conformance/certify/bundle-types.ts';
import { verifyBundle, keysOfDiscovery } from '../../../conformance/certify/verify.ts';
import { matrixRow } from '../../../conformance/certify/matrix.ts';
import type { RequirementResult } from '../../../conformance/requirement-results.ts';
import { noteSkip } from '../../support/skip-log.ts';
import { bundleOf, cleanResults, keyPair, MEMORY_DISCOVERY } from './support.ts';

const dir = oracleDir();
const problems = folderProblems(dir);
const skip = problems.length > 0;
if (skip) noteSkip(`upstream's bundle verifier is not in ${dir} (scripts/upstream-certify.ts; docs/certify.md says how to place it)`);

const work = mkdtempSync(join(tmpdir(), 'wopkit-certify-oracle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const host = keyPair();
const stranger = generateKeyPairSync('ed25519').privateKey;
const discovery = { ...MEMORY_DISCOVERY, signingKeys: [host.entry] };
const discoveryFile = join(work, 'discovery.json');
writeFileSync(discoveryFile, JSON.stringify(discovery));
const keys = keysOfDiscovery(discovery, discoveryFile);

type Damage = 'fail' | 'blocked' | 'skipped' | 'inapplicable';
function damaged(ds: readonly (readonly [Damage, number])[]): RequirementResult[] {
  const rows = cleanResults();
  for (const [kind, at] of ds) {
    const i = at % rows.length;
    rows[i] = kind === 'fail' ? { ...rows[i]!, outcome: 'fail', reason: 'broke', failures: ['broke'] } : { ...rows[i]!, outcome: 'skip', skipClass: kind, reason: `${kind} here`, assertions: 0 };
  }
  return rows;
}
const flip = (s: string, at = s.length - 1) => `${s.slice(0, at)}${s[at] === 'A' ? 'B' : s[at] === '0' ? '1' : s[at] === 'a' ? 'b' : s[at] === '1' ? '0' : 'A'}${s.slice(at + 1)}`;
/** A bundle copy the mutations edit freely. */
type Json = Record<string, any>;

/** Mutations of a bundle, by name: each keeps it JSON and loadable by the checker unless said otherwise. */
const MUTATIONS: Readonly<Record<string, (b: Json) => void>> = {
  none: () => undefined,
  'flip witnessSha256': (b) => void (b.witnessSha256 = flip(b.witnessSha256)),
  'flip host.build': (b) => void (b.host.build.id = flip(b.host.build.id)),
  'flip suite.version': (b) => void (b.suite.version = flip(b.suite.version)),
  'flip discovery.sha256': (b) => void (b.discovery.sha256 = flip(b.discovery.sha256)),
  'flip signature.sig': (b) => void (b.signature.sig = flip(b.signature.sig, 0)),
  'signed by an unpublished key': (b) => { const o = bundleOf(damaged([]), stranger); b.signature = o.signature; },
  'drop a reason': (b) => { const r = b.results.requirements.find((x: Json) => x.detail !== undefined && x.result !== 'inapplicable') ?? b.results.requirements[0]; r.result = 'skipped'; delete r.detail; },
  'count an executed failure': (b) => void (b.results.totals.executedFail += 1),
  'unknown root member': (b) => void (b.note = 'x'),
  'drop assertionCount': (b) => void delete b.assertionCount,
  'result outside the enum': (b) => void (b.results.requirements[0].result = 'passed'),
  'bundleVersion 2': (b) => void (b.bundleVersion = '2'),
  'signature.over reordered': (b) => void b.signature.over.reverse(),
  'duplicate profile': (b) => void b.claimedProfiles.push({ ...b.claimedProfiles[0] }),
  'targetMajor 3': (b) => void (b.suite.targetMajor = 3),
  'independent without verifier': (b) => void (b.claimedProfiles[0].evidenceTier = 'independent'),
  'malformed keyId': (b) => void (b.signature.keyId = 'not a key id'),
  'date that is not a date-time': (b) => void (b.generatedAt = 'yesterday'),
};

const validate = problems.length > 0 ? undefined : bundleSchema(dir);
function judge(b: Json, label: string) {
  const file = join(work, `${label.replace(/[^a-z0-9]+/gi, '-')}.json`);
  writeFileSync(file, JSON.stringify(b));
  if (validate === undefined) throw new Error(problems.join('\n'));
  const upstream = { schema: validate(b) === true, ...singleBundleVerdicts(cutGates(dir, file, discoveryFile, `| ${String(b.host?.name)} |\n`)) };
  const v = verifyBundle(b, keys, discoveryFile);
  const has = (...names: string[]) => v.failures.some((f) => names.includes(f.predicate));
  const ours = { schema: !has('closed-shape'), reason: !has('non-pass-has-reason'), noFailure: !has('no-executed-failure'), signature: !has('signature-attributed', 'signature-verifies') };
  return { upstream, ours, ok: v.ok, failures: v.failures };
}

async function judgeAsync(b: Json, label: string) {
  const file = join(work, `${label}.json`);
  writeFileSync(file, JSON.stringify(b));
  if (validate === undefined) throw new Error(problems.join('\n'));
  const upstream = { schema: validate(b) === true, ...singleBundleVerdicts(await cutGatesAsync(dir, file, discoveryFile, MATRIX)) };
  const v = verifyBundle(b, keys, discoveryFile);
  const has = (...names: string[]) => v.failures.some((f) => names.includes(f.predicate));
  return { upstream, ours: { schema: !has('closed-shape'), reason: !has('non-pass-has-reason'), noFailure: !has('no-executed-failure'), signature: !has('signature-attributed', 'signature-verifies') }, ok: v.ok };
}
/** Every generated bundle names the same host, so one matrix file serves the concurrent runs. */
const MATRIX = '| test-host |\n';

describe.skipIf(skip)('certify verify agrees with upstream\'s verifier', () => {
  it('the oracle folder holds upstream\'s files at the cited commits', () => {
    expect(problems).toEqual([]);
  });

  it('a clean bundle passes upstream\'s schema and its single-bundle cut-gate checks, and ours', () => {
    const j = judge(JSON.parse(JSON.stringify(bundleOf(cleanResults(), host.privateKey))) as Json, 'clean');
    expect(j.upstream).toEqual({ schema: true, reason: true, noFailure: true, signature: true });
    expect(j.ok, JSON.stringify(j.failures)).toBe(true);
  });

  it('tampered, relaxed and blocked bundles fail upstream\'s checks or certify nothing', () => {
    const tampered = JSON.parse(JSON.stringify(bundleOf(cleanResults(), host.privateKey))) as Json;
    tampered.suite.version = flip(tampered.suite.version);
    expect(judge(tampered, 'tampered').upstream.signature).toBe(false);
    const relaxed = bundleOf(cleanResults(), host.privateKey, { relaxations: [{ obligation: 'memory.ttl', durability: 'session', reason: 'test' }] });
    expect(relaxed.claimedProfiles.some((p) => p.certified)).toBe(false);
    const forged = JSON.parse(JSON.stringify(relaxed)) as Json;
    forged.claimedProfiles[0].certified = true;
    expect(judge(forged, 'relaxed-forged').ok).toBe(false);
    const blocked = bundleOf(damaged([['blocked', 3]]), host.privateKey);
    expect(blocked.claimedProfiles.some((p) => p.certified)).toBe(false);
    expect(judge(JSON.parse(JSON.stringify(blocked)) as Json, 'blocked').upstream.schema).toBe(true);
  });

  it('agrees on 100 generated bundles, valid and mutated', async () => {
    // 100 cases drawn by fast-check with a printed seed (FC_SEED replays them), checked four at a time.
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
    const damage = fc.array(fc.tuple(fc.constantFrom<Damage>('fail', 'blocked', 'skipped', 'inapplicable'), fc.nat()), { maxLength: 2 });
    const cases = fc.sample(fc.tuple(damage, fc.constantFrom(...Object.keys(MUTATIONS))), { numRuns: 100, seed });
    const verdicts: { mutation: string; j: Awaited<ReturnType<typeof judgeAsync>> }[] = [];
    for (let i = 0; i < cases.length; i += 4) {
      verdicts.push(...await Promise.all(cases.slice(i, i + 4).map(async ([ds, mutation], k) => {
        const b = JSON.parse(JSON.stringify(bundleOf(damaged(ds), host.privateKey))) as Json;
        MUTATIONS[mutation]!(b);
        return { mutation, j: await judgeAsync(b, `case-${i + k}`) };
      })));
    }
    for (const { mutation, j } of verdicts) {
      const label = `${mutation} (FC_SEED=${seed})`;
      expect(j.ours.schema, `${label}: schema`).toBe(j.upstream.schema);
      for (const k of ['reason', 'noFailure', 'signature'] as const) if (j.upstream[k] !== undefined) expect(j.ours[k], `${label}: ${k}`).toBe(j.upstream[k]);
      // Whatever ours accepts, upstream accepts too (ours is the stricter verifier).
      if (j.ok) expect(j.upstream, label).toEqual({ schema: true, reason: true, noFailure: true, signature: true });
    }
    expect(new Set(verdicts.map((v) => v.mutation)).size).toBeGreaterThan(10);
    expect(verdicts.some((v) => v.j.ok) && verdicts.some((v) => !v.j.ok)).toBe(true);
  }, 180_000);

  it('with the generated matrix row as upstream\'s INTEROP-MATRIX.md, the checker finds the host listed', () => {
    const b = bundleOf(cleanResults(), host.privateKey);
    const file = join(work, 'matrix-bundle.json');
    writeFileSync(file, JSON.stringify(b));
    const checks = cutGates(dir, file, discoveryFile, `| Host | … |\n| --- | --- |\n${matrixRow(b)}\n`);
    expect(checks.find((c) => c.gate === 'Front door' && c.evidence.startsWith('INTEROP-MATRIX.md'))).toMatchObject({ ok: true, evidence: expect.stringContaining(`row for ${b.host.name}`) });
    const unlisted = cutGates(dir, file, discoveryFile, '| Host |\n');
    expect(unlisted.find((c) => c.evidence.startsWith('INTEROP-MATRIX.md'))?.ok).toBe(false);
  });
});

describe('the oracle folder check', () => {
  it('names every missing file and every file whose length is not the cited commit\'s', () => {
    const empty = mkdtempSync(join(tmpdir(), 'wopkit-oracle-empty-'));
    try {
      expect(folderProblems(empty)).toEqual([
        expect.stringMatching(/check-cut-gates\.mjs is missing \(openwop\/openwop scripts\/check-cut-gates\.mjs at 35bd91f4d9e5\)/),
        expect.stringMatching(/certification-bundle\.schema\.json is missing/),
        expect.stringMatching(/ids\.schema\.json is missing/),
      ]);
      mkdirSync(join(empty, 'openwop', 'schemas', 'v2'), { recursive: true });
      writeFileSync(join(empty, 'openwop', 'schemas', 'v2', 'ids.schema.json'), '{}');
      expect(folderProblems(empty)[2]).toMatch(/ids\.schema\.json is 2 characters, the manifest says 7878/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
