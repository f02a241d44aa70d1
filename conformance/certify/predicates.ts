/**
 * Every check `certify verify` makes on one bundle, as a table: each predicate has a name, a group and a function
 * from the bundle (already known to be an object) to the failures it finds, each naming the member at fault.
 *
 * - `shape`: the closed structure of upstream's bundle v3 schema (members, enums, grammars);
 * - `evidence`: what upstream's suite verifier (verifyBundleV3) rejects — duplicate rows, a non-pass without a reason,
 *   a pass without an assertion, totals, witness digest, assertion count, detail, build, an independent claim
 *   without a distinct verifier, a certified profile beside a relaxation or a blocked row, a discovery document that
 *   does not hash to its digest, a certified profile the document does not derive;
 * - `derivation`: this tool's stronger rule — the claimed profiles are exactly the ones the captured document
 *   derives, and each `certified` flag is recomputed from the ledger (bundle.ts `certifiable`);
 * - `cut-gate`: the host-bundle predicates of upstream's scripts/check-cut-gates.mjs that apply to one bundle — a
 *   known target major, no executed failure, every non-pass row explained, and the signature attributed to a key the
 *   host publishes and verifying under it.
 */
import type { KeyObject } from 'node:crypto';
import { canonicalJson, sha256Hex } from './canonical.ts';
import { BUILD_KINDS, ROW_RESULTS, type BundleRow, type BundleV3, type Relaxation } from './bundle-types.ts';
import { certifiable, totalsOf, witnessCount } from './bundle.ts';
import { KEY_ID_PATTERN } from './keys.ts';
import { derivedProfiles, MAJORS } from './profiles.ts';
import { attestationVerifies, SIGNED_MEMBERS, witnessDigest } from './sign.ts';

export type PredicateGroup = 'shape' | 'evidence' | 'derivation' | 'cut-gate';
/** One failed check: which predicate, which member (a dotted path), and what is wrong. */
export interface Failure {
  readonly predicate: string;
  readonly group: PredicateGroup;
  readonly member: string;
  readonly detail: string;
}
/** What a predicate needs besides the bundle: the published keys, resolved by key id. */
export interface VerifyContext {
  readonly keys: ReadonlyMap<string, KeyObject>;
  /** Where the keys came from (for messages). */
  readonly keySource: string;
}
export interface Predicate {
  readonly name: string;
  readonly group: PredicateGroup;
  readonly check: (b: BundleV3, ctx: VerifyContext) => readonly Omit<Failure, 'predicate' | 'group'>[];
}

type Loose = Readonly<Record<string, unknown>>;
const obj = (v: unknown): Loose | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : undefined);
const rowsOf = (b: BundleV3): readonly BundleRow[] => (Array.isArray(b.results?.requirements) ? b.results.requirements : []);
const relaxationsOf = (b: BundleV3): readonly Relaxation[] => (Array.isArray(b.host?.relaxations) ? b.host.relaxations : []);
const fail = (member: string, detail: string) => ({ member, detail });

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** upstream's requirement-id grammar for a host bundle: `openwop.<area>.<slug>` in one of six areas. */
export const BUNDLE_ID_PATTERN = /^openwop\.(requirement|it|scenario|floor|profile|family)\.[a-z0-9]/;

/** Members each closed object admits, and the ones it requires (upstream's bundle v3 schema). */
const CLOSED: readonly { readonly path: string; readonly at: (b: Loose) => unknown; readonly allowed: readonly string[]; readonly required: readonly string[] }[] = [
  { path: '', at: (b) => b, allowed: ['bundleVersion', 'generatedAt', 'suite', 'host', 'discovery', 'claimedProfiles', 'results', 'witnessSha256', 'assertionCount', 'detail', 'durability', 'signature', 'verifierSignature'], required: ['bundleVersion', 'generatedAt', 'suite', 'host', 'discovery', 'claimedProfiles', 'results', 'witnessSha256', 'assertionCount', 'signature'] },
  { path: 'suite', at: (b) => b.suite, allowed: ['name', 'version', 'targetMajor', 'specArtifactsVersion', 'stampSha256'], required: ['name', 'version', 'targetMajor', 'specArtifactsVersion'] },
  { path: 'host', at: (b) => b.host, allowed: ['name', 'version', 'vendor', 'build', 'signingKeyId', 'relaxations'], required: ['name', 'version', 'build'] },
  { path: 'host.build', at: (b) => obj(b.host)?.build, allowed: ['kind', 'id'], required: ['kind', 'id'] },
  { path: 'discovery', at: (b) => b.discovery, allowed: ['url', 'sha256', 'protocolVersions', 'preferredVersion', 'document'], required: ['url', 'sha256', 'protocolVersions', 'preferredVersion'] },
  { path: 'results', at: (b) => b.results, allowed: ['totals', 'requirements'], required: ['totals', 'requirements'] },
  { path: 'results.totals', at: (b) => obj(b.results)?.totals, allowed: ['executedPass', 'executedFail', 'skipped', 'inapplicable', 'blocked'], required: ['executedPass', 'executedFail', 'skipped', 'inapplicable', 'blocked'] },
  { path: 'signature', at: (b) => b.signature, allowed: ['alg', 'keyId', 'sig', 'over'], required: ['alg', 'keyId', 'sig', 'over'] },
];

function shape(b: BundleV3): ReturnType<Predicate['check']> {
  const out: { member: string; detail: string }[] = [];
  const root = b as unknown as Loose;
  for (const c of CLOSED) {
    const o = obj(c.at(root));
    if (o === undefined) {
      if (c.path !== '' && out.every((f) => !c.path.startsWith(`${f.member}.`) && f.member !== c.path)) out.push(fail(c.path, 'must be an object'));
      continue;
    }
    for (const k of Object.keys(o)) if (!c.allowed.includes(k)) out.push(fail(c.path === '' ? k : `${c.path}.${k}`, 'is not a member of bundle v3 (the object is closed)'));
    for (const k of c.required) if (!(k in o)) out.push(fail(c.path === '' ? k : `${c.path}.${k}`, 'is required'));
  }
  if (root.bundleVersion !== '3') out.push(fail('bundleVersion', `must be the string "3", is ${JSON.stringify(root.bundleVersion)}`));
  if (typeof root.generatedAt !== 'string' || !RFC3339.test(root.generatedAt) || Number.isNaN(Date.parse(root.generatedAt))) out.push(fail('generatedAt', 'must be an RFC 3339 date-time'));
  const suite = obj(root.suite);
  if (suite !== undefined) {
    if (suite.name !== '@openwop/openwop-conformance') out.push(fail('suite.name', 'must be "@openwop/openwop-conformance"'));
    if (typeof suite.version !== 'string') out.push(fail('suite.version', 'must be a string'));
    if (suite.targetMajor !== 1 && suite.targetMajor !== 2) out.push(fail('suite.targetMajor', 'must be 1 or 2'));
    if (typeof suite.specArtifactsVersion !== 'string') out.push(fail('suite.specArtifactsVersion', 'must be a string'));
  }
  const host = obj(root.host);
  if (host !== undefined) {
    for (const k of ['name', 'version'] as const) if (typeof host[k] !== 'string' || host[k] === '') out.push(fail(`host.${k}`, 'must be a non-empty string'));
    const build = obj(host.build);
    if (build !== undefined && !(BUILD_KINDS as readonly unknown[]).includes(build.kind)) out.push(fail('host.build.kind', `must be one of ${BUILD_KINDS.join(', ')}`));
    if (build !== undefined && (typeof build.id !== 'string' || build.id === '')) out.push(fail('host.build.id', 'must be a non-empty string'));
    if (host.signingKeyId !== undefined && (typeof host.signingKeyId !== 'string' || !KEY_ID_PATTERN.test(host.signingKeyId))) out.push(fail('host.signingKeyId', 'must match the keyId grammar'));
  }
  const disc = obj(root.discovery);
  if (disc !== undefined) {
    if (typeof disc.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(disc.sha256)) out.push(fail('discovery.sha256', 'must be 64 lowercase hex digits'));
    if (typeof disc.url !== 'string' || !URL.canParse(disc.url)) out.push(fail('discovery.url', 'must be a URI'));
    if (disc.document !== undefined && obj(disc.document) === undefined) out.push(fail('discovery.document', 'must be an object'));
  }
  if (!Array.isArray(root.claimedProfiles)) out.push(fail('claimedProfiles', 'must be an array'));
  else root.claimedProfiles.forEach((p: unknown, i) => {
    const o = obj(p);
    const keys = o === undefined ? [] : Object.keys(o);
    if (o === undefined || typeof o.id !== 'string' || !/^openwop-[a-z0-9-]+$/.test(o.id) || !['self', 'steward', 'independent'].includes(String(o.evidenceTier)) || typeof o.certified !== 'boolean'
      || !(typeof o.witnessCount === 'number' && Number.isInteger(o.witnessCount) && o.witnessCount >= 0) || keys.some((k) => !['id', 'evidenceTier', 'witnessCount', 'certified'].includes(k)))
      out.push(fail(`claimedProfiles[${i}]`, 'must be {id: openwop-…, evidenceTier: self|steward|independent, witnessCount ≥ 0, certified: boolean} and nothing else'));
  });
  const rows = obj(root.results)?.requirements;
  if (!Array.isArray(rows) || rows.length === 0) out.push(fail('results.requirements', 'must be a non-empty array'));
  else rows.forEach((r: unknown, i) => {
    const o = obj(r);
    const where = `results.requirements[${i}]`;
    if (o === undefined) return void out.push(fail(where, 'must be an object'));
    const extra = Object.keys(o).find((k) => !['id', 'scenario', 'result', 'assertions', 'detail', 'evidence'].includes(k));
    if (extra !== undefined) out.push(fail(`${where}.${extra}`, 'is not a member of a ledger row'));
    if (typeof o.id !== 'string' || !BUNDLE_ID_PATTERN.test(o.id)) out.push(fail(`${where}.id`, 'must be openwop.<requirement|it|scenario|floor|profile|family>.<slug>'));
    if (typeof o.scenario !== 'string') out.push(fail(`${where}.scenario`, 'must be a string'));
    if (!(ROW_RESULTS as readonly unknown[]).includes(o.result)) out.push(fail(`${where}.result`, `must be one of ${ROW_RESULTS.join(', ')}`));
    if (o.assertions !== undefined && !(typeof o.assertions === 'number' && Number.isInteger(o.assertions) && o.assertions >= 0)) out.push(fail(`${where}.assertions`, 'must be an integer ≥ 0'));
    if (o.detail !== undefined && typeof o.detail !== 'string') out.push(fail(`${where}.detail`, 'must be a string'));
  });
  const totals = obj(obj(root.results)?.totals);
  if (totals !== undefined) for (const [k, v] of Object.entries(totals)) if (!(typeof v === 'number' && Number.isInteger(v) && v >= 0)) out.push(fail(`results.totals.${k}`, 'must be an integer ≥ 0'));
  if (!(typeof root.witnessSha256 === 'string' && /^[0-9a-f]{64}$/.test(root.witnessSha256))) out.push(fail('witnessSha256', 'must be 64 lowercase hex digits'));
  if (!(typeof root.assertionCount === 'number' && Number.isInteger(root.assertionCount) && root.assertionCount >= 1)) out.push(fail('assertionCount', 'must be an integer ≥ 1'));
  const sig = obj(root.signature);
  if (sig !== undefined) {
    if (sig.alg !== 'ed25519') out.push(fail('signature.alg', 'must be "ed25519"'));
    if (typeof sig.keyId !== 'string' || !KEY_ID_PATTERN.test(sig.keyId)) out.push(fail('signature.keyId', 'must match the keyId grammar'));
    if (typeof sig.sig !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(sig.sig)) out.push(fail('signature.sig', 'must be 86 characters of unpadded base64url (64 bytes)'));
    if (JSON.stringify(sig.over) !== JSON.stringify(SIGNED_MEMBERS)) out.push(fail('signature.over', `must be ${JSON.stringify(SIGNED_MEMBERS)}`));
  }
  const needsDetail = totals !== undefined && ['executedFail', 'skipped', 'blocked'].some((k) => typeof totals[k] === 'number' && (totals[k] as number) >= 1);
  if (needsDetail && root.detail === undefined) out.push(fail('detail', 'is required when the totals count a failed, skipped or blocked row'));
  if (root.detail !== undefined) {
    const d = obj(root.detail);
    const ok = d !== undefined && Object.keys(d).every((k) => k === 'nonPass') && Array.isArray(d.nonPass)
      && d.nonPass.every((x: unknown) => { const o = obj(x); return o !== undefined && Object.keys(o).every((k) => ['id', 'result', 'reason'].includes(k)) && ['id', 'result', 'reason'].every((k) => typeof o[k] === 'string'); });
    if (!ok) out.push(fail('detail', 'must be {nonPass: [{id, result, reason}]} (strings) and nothing else'));
  }
  if (disc !== undefined) {
    if (!Array.isArray(disc.protocolVersions) || !disc.protocolVersions.every((v: unknown) => typeof v === 'string')) out.push(fail('discovery.protocolVersions', 'must be an array of strings'));
    if (typeof disc.preferredVersion !== 'string') out.push(fail('discovery.preferredVersion', 'must be a string'));
  }
  if (suite?.stampSha256 !== undefined && !(typeof suite.stampSha256 === 'string' && /^[0-9a-f]{64}$/.test(suite.stampSha256))) out.push(fail('suite.stampSha256', 'must be 64 lowercase hex digits'));
  if (host?.vendor !== undefined && typeof host.vendor !== 'string') out.push(fail('host.vendor', 'must be a string'));
  if (host?.relaxations !== undefined && !(Array.isArray(host.relaxations) && host.relaxations.every((x: unknown) => {
    const o = obj(x);
    return o !== undefined && Object.keys(o).every((k) => ['obligation', 'durability', 'reason'].includes(k)) && typeof o.obligation === 'string' && typeof o.reason === 'string' && ['session', 'deployment', 'persisted'].includes(String(o.durability));
  }))) out.push(fail('host.relaxations', 'must be [{obligation, durability: session|deployment|persisted, reason}]'));
  if (Array.isArray(root.claimedProfiles) && new Set(root.claimedProfiles.map((p: unknown) => canonicalJson(p))).size !== root.claimedProfiles.length) out.push(fail('claimedProfiles', 'must not list the same entry twice'));
  const vs = root.verifierSignature;
  if (vs !== undefined) {
    const o = obj(vs);
    if (o === undefined || Object.keys(o).some((k) => !['alg', 'keyId', 'sig'].includes(k)) || o.alg !== 'ed25519' || typeof o.keyId !== 'string' || !KEY_ID_PATTERN.test(o.keyId) || typeof o.sig !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(o.sig)) out.push(fail('verifierSignature', 'must be {alg: ed25519, keyId, sig (86 base64url characters)}'));
  }
  if (Array.isArray(root.claimedProfiles) && root.claimedProfiles.some((p: unknown) => obj(p)?.evidenceTier === 'independent') && vs === undefined) out.push(fail('verifierSignature', 'is required when a profile claims evidenceTier independent'));
  return out;
}

/** The signed members whose other evidence agrees with them (the rows, the captured document). */
function confirmedSignedMembers(b: BundleV3): Set<string> {
  const ok = new Set<string>();
  if (b.witnessSha256 === witnessDigest(rowsOf(b), relaxationsOf(b))) ok.add('witnessSha256');
  const doc = obj(b.discovery?.document);
  if (doc !== undefined && sha256Hex(canonicalJson(doc)) === b.discovery.sha256) ok.add('discovery.sha256');
  return ok;
}

export const PREDICATES: readonly Predicate[] = [
  { name: 'closed-shape', group: 'shape', check: shape },
  {
    name: 'one-row-per-requirement', group: 'evidence',
    check: (b) => { const seen = new Set<string>(); return rowsOf(b).flatMap((r, i) => (seen.has(r.id) ? [fail(`results.requirements[${i}].id`, `${r.id} has more than one row`)] : (seen.add(r.id), []))); },
  },
  // The cut gate exempts inapplicable rows; the suite's verifier does not (next predicate).
  { name: 'non-pass-has-reason', group: 'cut-gate', check: (b) => rowsOf(b).flatMap((r, i) => (r.result !== 'executed-pass' && r.result !== 'inapplicable' && !r.detail ? [fail(`results.requirements[${i}].detail`, `${r.id}: ${r.result} without a reason`)] : [])) },
  { name: 'every-non-pass-explained', group: 'evidence', check: (b) => rowsOf(b).flatMap((r, i) => (r.result === 'inapplicable' && !(typeof r.detail === 'string' && r.detail.trim() !== '') ? [fail(`results.requirements[${i}].detail`, `${r.id}: inapplicable without a reason`)] : r.result !== 'executed-pass' && r.result !== 'inapplicable' && typeof r.detail === 'string' && r.detail.trim() === '' ? [fail(`results.requirements[${i}].detail`, `${r.id}: ${r.result} with a blank reason`)] : [])) },
  {
    name: 'detail-lists-non-pass', group: 'evidence',
    check: (b) => { const n = rowsOf(b).filter((r) => r.result !== 'executed-pass').length; return n > 0 && b.detail === undefined ? [fail('detail', `${n} non-pass row(s) and no detail.nonPass`)] : []; },
  },
  { name: 'no-vacuous-pass', group: 'evidence', check: (b) => rowsOf(b).flatMap((r, i) => (r.result === 'executed-pass' && !((r.assertions ?? 0) > 0) ? [fail(`results.requirements[${i}].assertions`, `${r.id}: executed-pass with no assertion witnesses nothing`)] : [])) },
  {
    name: 'totals-match-rows', group: 'evidence',
    check: (b) => { const want = totalsOf(rowsOf(b)); return (Object.keys(want) as (keyof typeof want)[]).flatMap((k) => (b.results?.totals?.[k] !== want[k] ? [fail(`results.totals.${k}`, `is ${String(b.results?.totals?.[k])}, the rows count ${want[k]}`)] : [])); },
  },
  {
    name: 'witness-digest', group: 'evidence',
    check: (b) => { const d = witnessDigest(rowsOf(b), relaxationsOf(b)); return b.witnessSha256 === d ? [] : [fail('witnessSha256', `does not equal the digest of results.requirements${relaxationsOf(b).length > 0 ? ' and host.relaxations' : ''} (${d.slice(0, 12)}…): a row, a relaxation or the digest changed after signing`)]; },
  },
  { name: 'assertion-count', group: 'evidence', check: (b) => { const n = rowsOf(b).reduce((s, r) => s + (r.assertions ?? 0), 0); return b.assertionCount === n ? [] : [fail('assertionCount', `is ${String(b.assertionCount)}, the rows sum to ${n}`)]; } },
  {
    name: 'discovery-digest', group: 'evidence',
    check: (b) => { const doc = obj(b.discovery?.document); if (doc === undefined) return []; const d = sha256Hex(canonicalJson(doc)); return d === b.discovery.sha256 ? [] : [fail('discovery.sha256', `the captured discovery.document hashes to ${d.slice(0, 12)}…: the document or its digest changed after signing`)]; },
  },
  { name: 'target-major-known', group: 'cut-gate', check: (b) => (b.suite?.targetMajor === 1 || b.suite?.targetMajor === 2 ? [] : [fail('suite.targetMajor', `is ${JSON.stringify(b.suite?.targetMajor)}: without it the applicable requirements are undefined`)]) },
  { name: 'major-catalogue', group: 'derivation', check: (b) => (b.suite?.targetMajor !== 1 && b.suite?.targetMajor !== 2) || MAJORS[b.suite.targetMajor] !== undefined ? [] : [fail('suite.targetMajor', `is ${b.suite.targetMajor}: this verifier has no profile catalogue for that major yet, so the claimed profiles cannot be re-derived`)] },
  { name: 'no-executed-failure', group: 'cut-gate', check: (b) => (b.results?.totals?.executedFail === 0 ? [] : [fail('results.totals.executedFail', `is ${String(b.results?.totals?.executedFail)}: the front-door gate needs 0`)]) },
  {
    name: 'signature-attributed', group: 'cut-gate',
    check: (b, ctx) => {
      const keyId = b.signature?.keyId;
      if (typeof keyId !== 'string') return [fail('signature.keyId', 'is missing: an unsigned bundle v3 does not exist')];
      if (!ctx.keys.has(keyId)) return [fail('signature.keyId', ctx.keys.size === 0 ? `${keyId}: ${ctx.keySource} publishes no signingKeys[]; nothing binds the key to the host` : `${keyId} is not among the ${ctx.keys.size} key(s) ${ctx.keySource} publishes (${[...ctx.keys.keys()].join(', ')})`)];
      return [];
    },
  },
  {
    // Durability evidence and rung claims (upstream RFC 0158) are outside what this verifier re-derives: refused, not assumed.
    name: 'no-underived-claims', group: 'evidence',
    check: (b) => [
      ...rowsOf(b).flatMap((r, i) => ((r as { evidence?: unknown }).evidence !== undefined ? [fail(`results.requirements[${i}].evidence`, 'durability evidence is not re-derived by this verifier')] : [])),
      ...((b as { durability?: unknown }).durability !== undefined ? [fail('durability', 'a durability rung claim is not re-derived by this verifier')] : []),
    ],
  },
  { name: 'host-key-is-signature-key', group: 'evidence', check: (b) => (b.host?.signingKeyId !== undefined && b.host.signingKeyId !== b.signature?.keyId ? [fail('host.signingKeyId', `is ${b.host.signingKeyId}, the signature's key is ${String(b.signature?.keyId)}`)] : []) },
  {
    name: 'signature-verifies', group: 'cut-gate',
    check: (b, ctx) => {
      const key = typeof b.signature?.keyId === 'string' ? ctx.keys.get(b.signature.keyId) : undefined;
      if (key === undefined || typeof b.signature?.sig !== 'string') return [];
      if (attestationVerifies(b, b.signature.sig, key)) return [];
      const confirmed = confirmedSignedMembers(b);
      const suspects = SIGNED_MEMBERS.filter((m) => !confirmed.has(m));
      return [fail(suspects.join(' | '), `the attestation does not verify under ${b.signature.keyId}: changed after signing: ${suspects.join(' or ')}${confirmed.size > 0 ? ` (${[...confirmed].join(' and ')} still re-derive${confirmed.size === 1 ? 's' : ''} from the bundle)` : ''}, or the signature itself`)];
    },
  },
  {
    name: 'independent-has-distinct-verifier', group: 'evidence',
    check: (b, ctx) => {
      if (!(b.claimedProfiles ?? []).some((p) => p.evidenceTier === 'independent')) return [];
      const vs = b.verifierSignature;
      if (vs === undefined) return [fail('verifierSignature', 'evidenceTier independent needs a verifier signature')];
      if (vs.keyId === b.signature?.keyId || vs.keyId === b.host?.signingKeyId) return [fail('verifierSignature.keyId', 'is the host key: an independent claim needs a distinct verifier')];
      const key = ctx.keys.get(vs.keyId);
      if (key === undefined) return [fail('verifierSignature.keyId', `${vs.keyId} is not a key ${ctx.keySource} publishes: the independent claim cannot be verified`)];
      return attestationVerifies(b, vs.sig, key) ? [] : [fail('verifierSignature.sig', 'the verifier attestation does not verify')];
    },
  },
  { name: 'relaxed-not-certified', group: 'evidence', check: (b) => (relaxationsOf(b).length === 0 ? [] : (b.claimedProfiles ?? []).flatMap((p, i) => (p.certified ? [fail(`claimedProfiles[${i}].certified`, `${p.id} is certified while the operator declared ${relaxationsOf(b).length} relaxation(s)`)] : []))) },
  { name: 'blocked-not-certified', group: 'evidence', check: (b) => (totalsOf(rowsOf(b)).blocked === 0 ? [] : (b.claimedProfiles ?? []).flatMap((p, i) => (p.certified ? [fail(`claimedProfiles[${i}].certified`, `${p.id} is certified beside ${totalsOf(rowsOf(b)).blocked} blocked row(s)`)] : []))) },
  {
    name: 'profiles-derived', group: 'derivation',
    check: (b) => {
      const major = MAJORS[b.suite?.targetMajor];
      const doc = obj(b.discovery?.document);
      if (major === undefined) return [];
      if (doc === undefined) return [fail('discovery.document', 'is absent: the claimed profiles cannot be re-derived')];
      const rows = rowsOf(b);
      const derived = derivedProfiles(major, doc);
      const claimed = b.claimedProfiles ?? [];
      const out = [];
      const want = derived.map((p) => p.id).join(', ');
      if (claimed.map((p) => p.id).join(', ') !== want) out.push(fail('claimedProfiles', `claims [${claimed.map((p) => p.id).join(', ')}]; the captured document derives [${want}]`));
      claimed.forEach((p, i) => {
        const rule = derived.find((d) => d.id === p.id);
        if (rule === undefined) return;
        const cert = certifiable(rule, rows, relaxationsOf(b));
        if (p.certified !== cert) out.push(fail(`claimedProfiles[${i}].certified`, `${p.id} says ${p.certified}; the ledger gives ${cert}${cert ? '' : rule.floor.length === 0 ? ' (no floor this suite witnesses)' : ' (a floor row is missing, or a row is not a witnessed pass, or a relaxation is declared)'}`));
        const n = witnessCount(rule, rows);
        if (p.witnessCount !== n) out.push(fail(`claimedProfiles[${i}].witnessCount`, `${p.id} says ${p.witnessCount}; the ledger witnesses ${n} floor row(s)`));
      });
      return out;
    },
  },
];

/** Run every predicate. */
export function checkBundle(b: BundleV3, ctx: VerifyContext): Failure[] {
  return PREDICATES.flatMap((p) => {
    try {
      return p.check(b, ctx).map((f) => ({ predicate: p.name, group: p.group, ...f }));
    } catch (e) {
      // A bundle too malformed for the check (the shape predicate names why).
      return [{ predicate: p.name, group: p.group, member: '', detail: `could not be checked: ${(e as Error).message}` }];
    }
  });
}
