import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  UnionFind,
  findNearDuplicateClusters,
  jaccard,
  normaliseContent,
  shingleSet,
} from '../../../runtime/consolidation/near-duplicates.ts';

const naiveClusters = (texts: string[], threshold: number): number[][] => {
  const sets = texts.map((t) => shingleSet(normaliseContent(t), 4));
  const uf = new UnionFind(texts.length);
  for (let i = 0; i < texts.length; i++)
    for (let j = 0; j < i; j++) if (jaccard(sets[i]!, sets[j]!) >= threshold) uf.union(i, j);
  const m = new Map<number, number[]>();
  texts.forEach((_, i) => {
    const r = uf.find(i);
    m.set(r, [...(m.get(r) ?? []), i]);
  });
  return [...m.values()].filter((c) => c.length > 1).sort((a, b) => a[0]! - b[0]!);
};

describe('near-duplicate detection (MinHash + LSH + exact Jaccard)', () => {
  it('normalises case, punctuation and whitespace', () => {
    expect(normaliseContent('  The Customer  prefers EMAIL!! ')).toBe('the customer prefers email');
  });

  it('jaccard of identical sets is 1, disjoint sets 0', () => {
    const a = shingleSet('refund policy is thirty days', 4);
    expect(jaccard(a, a)).toBe(1);
    expect(jaccard(a, shingleSet('zzzz qqqq', 4))).toBe(0);
  });

  it('clusters exact and near duplicates, leaves distinct texts alone', () => {
    const texts = [
      'Customer prefers email follow-up for refunds.',
      'The weather in Lisbon was sunny.',
      'customer prefers email follow up for refunds',
      'Customer prefers email follow-up for refunds!',
      'Invoice 4411 is due on the first of March.',
    ];
    const { clusters } = findNearDuplicateClusters(texts);
    expect(clusters).toEqual([[0, 2, 3]]);
  });

  it('verifies candidates: two texts below the threshold are never merged', () => {
    const { clusters } = findNearDuplicateClusters(['alpha beta gamma delta', 'alpha beta gamma omega sigma'], { threshold: 0.9 });
    expect(clusters).toEqual([]);
  });

  it('respects partitions: identical text in different partitions does not merge', () => {
    const { clusters } = findNearDuplicateClusters(['same text here', 'same text here'], {}, ['a', 'b']);
    expect(clusters).toEqual([]);
  });

  it('is deterministic', () => {
    const texts = Array.from({ length: 300 }, (_, i) => `note ${i % 37} about topic ${i % 11} and more words`);
    expect(findNearDuplicateClusters(texts)).toEqual(findNearDuplicateClusters(texts));
  });

  it('does not compare all pairs: candidate pairs stay near-linear on distinct texts', () => {
    const texts = Array.from({ length: 5000 }, (_, i) => `entry ${i} ${(i * 7919) % 104729} unique words ${i * 31}`);
    const { stats } = findNearDuplicateClusters(texts);
    // Hard bound: each entry verifies at most `maxComparisonsPerBucketMember` (16) others in each of 16 bands.
    expect(stats.candidatePairs).toBeLessThanOrEqual(texts.length * 16 * 16);
    expect(stats.candidatePairs).toBeLessThan((texts.length * (texts.length - 1)) / 2 / 50);
  });

  it('property: every merged pair inside a cluster is connected by verified edges (no false merges)', () => {
    const word = fc.constantFrom('refund', 'policy', 'email', 'customer', 'prefers', 'invoice', 'due', 'march', 'lisbon');
    const text = fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), (texts) => {
        const got = findNearDuplicateClusters(texts, { threshold: 0.8 }).clusters;
        const naive = naiveClusters(texts, 0.8);
        // LSH may miss a pair (probabilistic recall) but never merges what the exact all-pairs model keeps apart:
        // every LSH cluster lies inside one naive cluster.
        for (const c of got) {
          const host = naive.find((n) => n.includes(c[0]!));
          expect(host).toBeDefined();
          for (const i of c) expect(host).toContain(i);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('high recall at high similarity: near-identical long texts are always found', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 40, maxLength: 80 }), { minLength: 1, maxLength: 20 }), (base) => {
        const texts = base.flatMap((b) => [b + ' x', b + ' y']);
        const { clusters } = findNearDuplicateClusters(texts, { threshold: 0.8 });
        const sets = texts.map((t) => shingleSet(normaliseContent(t), 4));
        const clusterOf = (i: number) => clusters.findIndex((c) => c.includes(i));
        for (let k = 0; k < base.length; k++) {
          if (jaccard(sets[2 * k]!, sets[2 * k + 1]!) < 0.9) continue;
          expect(clusterOf(2 * k)).toBeGreaterThanOrEqual(0);
          expect(clusterOf(2 * k)).toBe(clusterOf(2 * k + 1));
        }
      }),
      { numRuns: 50 },
    );
  });
});
