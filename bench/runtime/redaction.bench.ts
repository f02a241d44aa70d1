/**
 * SR-1 redaction: the chokepoint (`redact` over a tenant's compiled secret set) against the two obvious peers,
 * interleaved in one run over the same 64 KiB content at 10, 1k and 10k registered secrets:
 *
 * - one RegExp: the escaped secrets as one alternation, longest first (so at one position the longest wins, as in
 *   the chokepoint), and `String#replace` with the secret's marker;
 * - a plain Aho–Corasick automaton (one `Map` lookup per character, bench/runtime/plain-aho-corasick.ts) over the
 *   reversed secrets, leftmost-longest, and the same replacement.
 *
 * Two secret shapes: `sk-` API keys (a shared prefix, the table's rows) and random base64 tokens (no shared prefix;
 * details only). Every contender's output is checked byte-identical to the chokepoint's (and to the brute-force
 * reference) before timing. A row's ratio is the smaller of the two median per-round ratios (ours / regexp, ours /
 * automaton): the ratio against the faster peer.
 * Linearity: the chokepoint's time per KiB at 16, 64 and 256 KiB with 10k secrets, interleaved.
 * Run: npm run bench:redaction   → bench/results/redaction.json
 */
import { redact, redactionMarker } from '../../runtime/redaction/chokepoint.ts';
import { referenceRedact } from '../../runtime/redaction/reference.ts';
import { TenantSecrets } from '../../runtime/redaction/secret-registry.ts';
import { rng } from '../rng.ts';
import { median, round, writeResult, type BenchRow } from '../summary.ts';
import { compare } from '../validators/measure.ts';
import { LeftmostLongestMatcher as PlainMatcher } from './plain-aho-corasick.ts';

const SIZES = [10, 1_000, 10_000] as const;
const CONTENT_BYTES = 64 * 1024;
const GOAL = 1;

const apiKey = (i: number): string => `sk-${i.toString(36).padStart(6, '0')}-${((i * 2654435761) >>> 0).toString(16)}`;
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const token = (random: () => number): string => Array.from({ length: 24 }, () => BASE64[Math.floor(random() * BASE64.length)]).join('');

/** Prose of ~`bytes` characters with one of the secrets planted every 97 words. */
function content(bytes: number, secrets: readonly string[]): string {
  const words = ['memory', 'entry', 'customer', 'prefers', 'email', 'refund', 'policy', 'days', 'note', 'agent'];
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const w = i % 97 === 0 ? secrets[(i * 31) % secrets.length]! : words[i % words.length]!;
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ');
}

/** A tenant's union of registered secrets (what a write is redacted against); the values are marker-safe API keys. */
function registryOf(values: readonly string[]): TenantSecrets {
  const reg = new TenantSecrets('tenant');
  values.forEach((v, i) => {
    if (reg.collision(`byok-${i}`, v) !== undefined) throw new Error(`${v} would be refused at registration`);
    reg.add(`byok-${i}`, v);
  });
  return reg;
}

/** The two peers, built once for the set (their build is not timed, as the chokepoint's is cached). */
function peersOf(reg: TenantSecrets): Record<'regexp' | 'automaton', (text: string) => string> {
  const secrets = reg.secrets();
  const markerOf = new Map(secrets.map((s) => [s.value, redactionMarker(s.secretId)]));
  const longestFirst = [...secrets].sort((a, b) => b.value.length - a.value.length);
  const re = new RegExp(longestFirst.map((s) => s.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const plain = new PlainMatcher(secrets.map((s) => s.value));
  const markers = secrets.map((s) => redactionMarker(s.secretId));
  return {
    regexp: (text) => text.replace(re, (m) => markerOf.get(m)!),
    automaton: (text) => {
      let out = '';
      let at = 0;
      for (const m of plain.matches(text)) {
        out += text.slice(at, m.start) + markers[m.pattern]!;
        at = m.end;
      }
      return out + text.slice(at);
    },
  };
}

function measure(shape: string, values: readonly string[]) {
  const reg = registryOf(values);
  const text = content(CONTENT_BYTES, values);
  const peers = peersOf(reg);
  const ours = redact(text, reg);
  if (ours === text) throw new Error('nothing was redacted');
  for (const [name, peer] of Object.entries(peers)) if (peer(text) !== ours) throw new Error(`${shape}/${values.length}: ${name} disagrees with the chokepoint`);
  if (values.length <= 1_000 && referenceRedact(text, reg.secrets()) !== ours) throw new Error(`${shape}/${values.length}: the reference disagrees`);
  const c = compare([text], { ours: (t: string) => redact(t, reg), regexp: peers.regexp, automaton: peers.automaton });
  const ms = (name: string) => round(1000 / c.opsPerSec[name]!, 4);
  return { shape, secrets: values.length, contentChars: text.length, ms: { ours: ms('ours'), regexp: ms('regexp'), automaton: ms('automaton') }, ratios: c.ratios, ratio: Math.min(c.ratios['regexp']!, c.ratios['automaton']!) };
}

const random = rng(15);
const results = SIZES.flatMap((n) => [measure('sk- API keys', Array.from({ length: n }, (_, i) => apiKey(i))), measure('random base64', Array.from({ length: n }, () => token(random)))]);
console.table(results.map((r) => ({ shape: r.shape, secrets: r.secrets, ...r.ms, vsRegexp: r.ratios['regexp'], vsAutomaton: r.ratios['automaton'] })));

// Linearity in content: time per KiB at 16, 64 and 256 KiB, 10k secrets; the sizes interleaved in rounds (rotating
// order), each timed for ~100 ms, and the ratio is the median over rounds of (per-KiB at 16 KiB) / (per-KiB at 256 KiB).
const big = registryOf(Array.from({ length: 10_000 }, (_, i) => apiKey(i)));
const KIBS = [16, 64, 256] as const;
const texts = KIBS.map((kib) => content(kib * 1024, big.secrets().map((s) => s.value)));
const msOf = (text: string): number => {
  let n = 0;
  const t = performance.now();
  while (performance.now() - t < 100) {
    redact(text, big);
    n++;
  }
  return (performance.now() - t) / n;
};
texts.forEach(msOf); // warm-up
const perKiBRounds: number[][] = KIBS.map(() => []);
for (let r = 0; r < 9; r++) for (let k = 0; k < KIBS.length; k++) {
  const i = (k + r) % KIBS.length;
  perKiBRounds[i]!.push(msOf(texts[i]!) / KIBS[i]!);
}
const linearity = KIBS.map((kib, i) => ({ contentKiB: kib, msPerKiB: round(median(perKiBRounds[i]!), 5) }));
const linearRatio = round(median(perKiBRounds[0]!.map((x, r) => x / perKiBRounds[2]![r]!)));
console.table(linearity);

const summary: BenchRow[] = results
  .filter((r) => r.shape === 'sk- API keys')
  .map((r) => ({
    row: `SR-1 redaction, 64 KiB content, ${r.secrets} secrets`,
    ratio: r.ratio,
    peer: `the faster of one escaped alternation RegExp (${r.ms.regexp} ms) and a plain Aho–Corasick automaton (${r.ms.automaton} ms), identical output`,
    goal: `≥ ${GOAL}× (output byte-identical, linear in content)`,
    figure: `${r.ms.ours} ms`,
  }));
const perKiB = linearity.map((l) => l.msPerKiB);
summary.push({
  row: 'SR-1 redaction linearity, 10k secrets: time per KiB at 16 KiB / at 256 KiB',
  ratio: linearRatio,
  peer: `the time per KiB at 16 KiB (${perKiB[0]} ms)`,
  goal: '≥ 0.5× (linear in content: the per-KiB time at most doubles over a 16× size range; quadratic would give 0.06×)',
  figure: `${perKiB[2]} ms per KiB at 256 KiB`,
});
const path = writeResult('redaction', { benchmark: 'sr1-redaction', node: process.version, summary, results, linearity }, `seeded 64 KiB content carrying registered secrets, ${SIZES.join(', ')} secrets of two shapes (sk- API keys, random base64); linearity at ${KIBS.join(', ')} KiB with 10k secrets`);
console.log(`redaction → ${path}`);
