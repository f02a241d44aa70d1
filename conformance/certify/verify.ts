/**
 * `certify verify`: read a bundle, resolve the host's published keys (its discovery document's `signingKeys[]`, from
 * a URL or a file; by default the bundle's own `discovery.url`), run every predicate (predicates.ts) and say what
 * failed. Several keys are honoured, so a bundle signed before a rotation verifies while its key stays published.
 */
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { BundleV3 } from './bundle-types.ts';
import { CertifyError } from './errors.ts';
import { KEY_ID_PATTERN, publicKeyOf } from './keys.ts';
import { checkBundle, type Failure } from './predicates.ts';

export interface Verdict {
  /** No predicate failed. */
  readonly ok: boolean;
  readonly failures: readonly Failure[];
  /** The profiles the bundle certifies, when it verifies (none otherwise). */
  readonly certifiedProfiles: readonly string[];
  readonly keySource: string;
}

/** The keys of a discovery document's `signingKeys[]`, by key id; a malformed entry is an error naming it. */
export function keysOfDiscovery(doc: unknown, source: string): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  const list = typeof doc === 'object' && doc !== null ? (doc as { signingKeys?: unknown }).signingKeys : undefined;
  if (list === undefined) return keys;
  if (!Array.isArray(list)) throw new CertifyError('signing_key_invalid', `${source}: signingKeys must be an array`);
  list.forEach((e: unknown, i) => {
    const where = `${source} signingKeys[${i}]`;
    if (typeof e !== 'object' || e === null) throw new CertifyError('signing_key_invalid', `${where} must be an object`);
    const entry = e as Record<string, unknown>;
    if (typeof entry.keyId !== 'string' || !KEY_ID_PATTERN.test(entry.keyId)) throw new CertifyError('signing_key_invalid', `${where}.keyId must match the keyId grammar`);
    if (entry.alg !== undefined && entry.alg !== 'ed25519') throw new CertifyError('signing_key_invalid', `${where}.alg must be "ed25519"`);
    keys.set(entry.keyId, publicKeyOf(entry, where));
  });
  return keys;
}

/** Read a JSON document from a URL (GET) or a file. */
export async function readJsonFrom(source: string, what: string): Promise<unknown> {
  let text: string;
  if (/^https?:\/\//.test(source)) {
    let r: Response;
    try {
      r = await fetch(source, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(15_000) });
    } catch (e) {
      throw new CertifyError('discovery_unavailable', `cannot reach ${source} (${(e as Error).message})`);
    }
    if (r.status !== 200) throw new CertifyError('discovery_unavailable', `GET ${source} answered ${r.status}`);
    text = await r.text();
  } else {
    try {
      text = readFileSync(source, 'utf8');
    } catch (e) {
      throw new CertifyError(what === 'bundle' ? 'bundle_unreadable' : 'discovery_unavailable', `cannot read the ${what} ${source} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CertifyError(what === 'bundle' ? 'bundle_unreadable' : 'discovery_unavailable', `the ${what} ${source} is not JSON`);
  }
}

/** Verify a parsed bundle against a key set. Pure. */
export function verifyBundle(bundle: unknown, keys: ReadonlyMap<string, KeyObject>, keySource: string): Verdict {
  if (typeof bundle !== 'object' || bundle === null || Array.isArray(bundle)) return { ok: false, failures: [{ predicate: 'closed-shape', group: 'shape', member: '', detail: 'a bundle is a JSON object' }], certifiedProfiles: [], keySource };
  const b = bundle as BundleV3;
  const failures = checkBundle(b, { keys, keySource });
  const ok = failures.length === 0;
  return { ok, failures, certifiedProfiles: ok ? (b.claimedProfiles ?? []).filter((p) => p.certified).map((p) => p.id) : [], keySource };
}

/** Verify a bundle file; the keys come from `discovery` (URL or file) or else the bundle's own discovery URL. */
export async function verifyBundleFile(path: string, discovery?: string): Promise<Verdict> {
  const bundle = await readJsonFrom(path, 'bundle');
  const source = discovery ?? (bundle as { discovery?: { url?: unknown } } | null)?.discovery?.url;
  if (typeof source !== 'string') throw new CertifyError('usage', `${path} names no discovery.url; give --discovery URL|FILE`);
  const doc = await readJsonFrom(source, 'discovery document');
  return verifyBundle(bundle, keysOfDiscovery(doc, source), source);
}

/** The verdict as lines of text. */
export function formatVerdict(path: string, v: Verdict): string {
  if (v.ok) return `${path}: verifies (keys from ${v.keySource}); certified: ${v.certifiedProfiles.length > 0 ? v.certifiedProfiles.join(', ') : 'none'}`;
  return [`${path}: does NOT verify (keys from ${v.keySource}): ${v.failures.length} failure(s)`, ...v.failures.map((f) => `  [${f.group}] ${f.predicate}: ${f.member === '' ? '' : `${f.member}: `}${f.detail}`)].join('\n');
}
