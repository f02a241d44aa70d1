/**
 * The fast near-duplicate detection and plan against the reference implementation they replaced
 * (runtime/consolidation/reference.ts): identical clusters, statistics and plans on random corpora with planted near
 * and exact duplicates, and each fast building block equal to the simple form it replaces.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  NearDuplicateSketcher,
  findNearDuplicateClusters,
  jaccard,
  similarAtLeast,
  type NearDuplicateOptions,
} from '../../../runtime/consolidation/near-duplicates.ts';
import { planConsolidation, type ConsolidationEntry } from '../../../runtime/consolidation/plan.ts';
import {
  referenceFindNearDuplicateClusters,
  referencePlanConsolidation,
  referenceShingleSet,
} from '../../../runtime/consolidation/reference.ts';
import { fmix32, minHashSeeds, minHashSignature, normaliseContent, normaliseUnicode, shingleSet } from '../../../runtime/consolidation/text-sketch.ts';
import { simdMinHash } from '../../../runtime/consolidation/minhash-simd.ts';

const WORDS = ['refund', 'policy', 'email', 'customer', 'prefers', 'invoice', 'due', 'march', 'lisbon', 'x', 'é', 'ÉCOLE', 'ﬁle', 'İstanbul'];

/** Texts with planted duplicates: each text is new, or a copy of an earlier one, exact or edited. */
const plantedTexts = (maxLength: number) =>
  fc
    .array(
      fc.record({
        words: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 9 }),
        copyOf: fc.option(fc.nat(), { nil: undefined }),
        edit: fc.constantFrom('none', 'case', 'punctuation', 'replace-word', 'append-word', 'drop-word'),
        at: fc.nat(),
        word: fc.constantFrom(...WORDS),
      }),
      { maxLength },
    )
    .map((specs) => {
      const texts: string[] = [];
      for (const s of specs) {
        if (s.copyOf === undefined || texts.length === 0) {
          texts.push(s.words.join(' '));
          continue;
        }
        const base = texts[s.copyOf % texts.length]!;
        const words = base.split(' ');
        const i = s.at % Math.max(1, words.length);
        const edited: Record<typeof s.edit, () => string> = {
          none: () => base,
          case: () => base.toUpperCase(),
          punctuation: () => `${base.replaceAll(' ', ',  ')}!`,
          'replace-word': () => words.map((w, k) => (k === i ? s.word : w)).join(' '),
          'append-word': () => `${base} ${s.word}`,
          'drop-word': () => words.filter((_, k) => k !== i).join(' '),
        };
        texts.push(edited[s.edit]());
      }
      return texts;
    });

/** Option sets that exercise the bucket cap, other shingle sizes, a band count the SIMD path does not take, thresholds. */
const optionSets = fc.record(
  {
    threshold: fc.constantFrom(0.5, 0.7, 0.8, 0.95, 1, 0, -1, 1.5),
    shingleSize: fc.integer({ min: 1, max: 6 }),
    bands: fc.integer({ min: 1, max: 20 }),
    rows: fc.integer({ min: 1, max: 5 }),
    seed: fc.integer({ min: 0, max: 0xffffffff }),
    maxComparisonsPerBucketMember: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<NearDuplicateOptions>;

describe('fast near-duplicate detection = the reference', () => {
  it('property: same clusters and statistics on corpora with planted duplicates (default options)', () => {
    fc.assert(
      fc.property(plantedTexts(60), (texts) => {
        expect(findNearDuplicateClusters(texts)).toEqual(referenceFindNearDuplicateClusters(texts));
      }),
      { numRuns: 300 },
    );
  });

  it('property: same clusters and statistics for any options and partitions', () => {
    fc.assert(
      fc.property(plantedTexts(40), optionSets, fc.array(fc.constantFrom('', 'a', 'b'), { minLength: 40, maxLength: 40 }), fc.boolean(), (texts, options, parts, partitioned) => {
        const partition = partitioned ? parts.slice(0, texts.length) : undefined;
        expect(findNearDuplicateClusters(texts, options, partition)).toEqual(referenceFindNearDuplicateClusters(texts, options, partition));
      }),
      { numRuns: 300 },
    );
  });

  it('property: one sketcher over successive calls (texts seen before and new ones) = a fresh reference each time', () => {
    fc.assert(
      fc.property(fc.array(plantedTexts(25), { minLength: 1, maxLength: 4 }), optionSets, (calls, options) => {
        const sketcher = new NearDuplicateSketcher(options);
        const seen: string[] = [];
        for (const texts of calls) {
          // each call mixes texts of earlier calls with its own
          const mixed = [...seen.filter((_, i) => i % 2 === 0), ...texts];
          expect(sketcher.clusters(mixed)).toEqual(referenceFindNearDuplicateClusters(mixed, options));
          seen.push(...texts);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('many near duplicates of one text: the bucket cap decides the same comparisons', () => {
    const base = 'customer prefers email follow up for refunds and invoices';
    const texts = Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? base : `${base} ${'xyz'.repeat(1 + (i % 7))} ${i % 11}`));
    for (const maxComparisonsPerBucketMember of [1, 2, 16]) {
      const options = { maxComparisonsPerBucketMember, threshold: 0.7 };
      expect(findNearDuplicateClusters(texts, options)).toEqual(referenceFindNearDuplicateClusters(texts, options));
    }
  });
});

describe('fast building blocks = their simple forms', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom(...'aZ09 .,!?\t\n-_\u0000\u007f'), maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );

  it('property: normaliseContent (ASCII fast path) = the Unicode normalisation', () => {
    fc.assert(
      fc.property(anyText, (t) => {
        expect(normaliseContent(t)).toBe(normaliseUnicode(t));
      }),
      { numRuns: 2000 },
    );
    expect(normaliseContent('x'.repeat(10_000) + '.Y')).toBe(normaliseUnicode('x'.repeat(10_000) + '.Y'));
  });

  it('property: shingleSet = one substring per shingle in a Set', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 8 }), (t, k) => {
        const n = normaliseUnicode(t);
        expect(shingleSet(n, k)).toEqual(referenceShingleSet(n, k));
      }),
      { numRuns: 1000 },
    );
  });

  it('property: similarAtLeast(a, b, t) = jaccard(a, b) >= t', () => {
    const set = fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }).map((xs) => Uint32Array.from(xs.sort((a, b) => a - b)));
    const threshold = fc.oneof(fc.double({ min: -2, max: 2, noNaN: false }), fc.constantFrom(0, -0, 1, 0.8, 2 / 3, 0.5, Number.NaN, Infinity));
    fc.assert(
      fc.property(set, set, threshold, (a, b, t) => {
        expect(similarAtLeast(a, b, t)).toBe(jaccard(a, b) >= t);
      }),
      { numRuns: 3000 },
    );
  });

  it('property: the SIMD MinHash signature and the JavaScript fallback = fmix32 per shingle and function', () => {
    const seeds = minHashSeeds(0x5eed_0068, 64);
    const simd = simdMinHash(seeds);
    expect(simd).toBeDefined(); // Node 24 has WebAssembly SIMD
    // The reference's form: every function applied per shingle.
    const plain = (set: Uint32Array, from: number, len: number, out: Uint32Array) => {
      out.fill(0xffffffff);
      for (let s = from; s < from + len; s++) for (let h = 0; h < seeds.length; h++) out[h] = Math.min(out[h]!, fmix32(set[s]! ^ seeds[h]!));
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 300 }), fc.nat(5), (xs, pad) => {
        const set = Uint32Array.from([...Array.from({ length: pad }, () => 7), ...xs]);
        const [a, b, c] = [new Uint32Array(64), new Uint32Array(64), new Uint32Array(64)];
        simd!(set, pad, xs.length, a);
        minHashSignature(set, pad, xs.length, seeds, b);
        plain(set, pad, xs.length, c);
        expect(a).toEqual(c);
        expect(b).toEqual(c);
      }),
      { numRuns: 500 },
    );
    expect(simdMinHash(minHashSeeds(1, 12))).toBeUndefined(); // not a multiple of eight: the caller keeps the loop
  });
});

describe('fast plan = the reference plan', () => {
  const e = (id: string, content: string, t: number, tags: string[], expiresAt?: number): ConsolidationEntry => ({
    id,
    content,
    tags,
    createdAt: new Date(Date.UTC(2026, 0, 1) + t * 1000).toISOString(),
    ...(expiresAt === undefined ? {} : { expiresAt: new Date(Date.UTC(2026, 1, 1) + expiresAt * 1000).toISOString() }),
  });
  const corpus = plantedTexts(50).chain((texts) =>
    fc
      .array(
        fc.record({
          t: fc.integer({ min: 0, max: 30 }),
          fact: fc.option(fc.constantFrom('fact:a', 'fact:b', 'fact:c'), { nil: undefined }),
          corr: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
          exp: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
          secret: fc.boolean(),
        }),
        { minLength: texts.length, maxLength: texts.length },
      )
      .map((meta) =>
        texts.map((text, i) => {
          const m = meta[i]!;
          const tags = [...(m.fact ? [m.fact] : []), ...(m.corr ? [`corroborated:${m.corr}`] : [])];
          return e(`m${(i * 7919) % 1000}-${i}`, m.secret ? `${text} secretvalue99` : text, m.t, tags, m.exp);
        }),
      ),
  );
  const redact = (s: string) => s.split('secretvalue99').join('[REDACTED:sv]');

  it('property: identical plans (output, merged ids, rewrites, iterations, statistics)', () => {
    fc.assert(
      fc.property(corpus, optionSets, fc.boolean(), (entries, nearDuplicates, withOptions) => {
        const o = withOptions ? { redact, nearDuplicates } : { redact };
        expect(planConsolidation(entries, o)).toEqual(referencePlanConsolidation(entries, o));
      }),
      { numRuns: 300 },
    );
  });
});
