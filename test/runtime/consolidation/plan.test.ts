import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { planConsolidation, type ConsolidationEntry } from '../../../runtime/consolidation/plan.ts';

const identity = (s: string) => s;
const e = (id: string, content: string, t: number, tags: string[] = [], expiresAt?: string): ConsolidationEntry => ({
  id,
  content,
  tags,
  createdAt: new Date(Date.UTC(2026, 0, 1) + t * 1000).toISOString(),
  ...(expiresAt === undefined ? {} : { expiresAt }),
});

describe('consolidation plan (RFC 0068 §D)', () => {
  it('merges exact and near duplicates into the newest member and strengthens it', () => {
    const plan = planConsolidation(
      [
        e('m1', 'Customer prefers email follow-up.', 1, ['pref']),
        e('m2', 'customer prefers email follow up', 2, ['support']),
        e('m3', 'Unrelated: the office is in Lisbon.', 3),
        e('m4', 'Customer prefers email follow-up.', 4),
      ],
      { redact: identity },
    );
    expect(plan.inputCount).toBe(4);
    expect(plan.outputCount).toBe(2);
    expect([...plan.mergedIds].sort()).toEqual(['m1', 'm2']);
    const survivor = plan.output.find((x) => x.id === 'm4')!;
    expect(survivor.tags).toEqual(['pref', 'support', 'corroborated:3']);
    expect(plan.rewrites.map((r) => r.id)).toEqual(['m4']);
  });

  it('supersedes stale facts: same fact key, newest wins; near-duplicate older facts corroborate', () => {
    const plan = planConsolidation(
      [
        e('p1', 'Price of plan A is 10 EUR', 1, ['fact:price-a']),
        e('p2', 'Price of plan A is 12 EUR', 2, ['fact:price-a']),
        e('p3', 'Price of plan A is 12 EUR.', 3, ['fact:price-a']),
        e('q1', 'Price of plan A is 12 EUR', 1, ['fact:price-b']),
      ],
      { redact: identity },
    );
    expect(plan.output.map((x) => x.id).sort()).toEqual(['p3', 'q1']);
    expect(plan.stats.superseded).toBe(1);
    expect(plan.output.find((x) => x.id === 'p3')!.tags).toEqual(['fact:price-a', 'corroborated:2']);
  });

  it('keeps the latest expiry of merged members; no expiry wins', () => {
    const a = planConsolidation(
      [e('a', 'same words here', 1, [], '2026-02-01T00:00:00.000Z'), e('b', 'same words here', 2, [], '2026-01-15T00:00:00.000Z')],
      { redact: identity },
    );
    expect(a.output[0]!.expiresAt).toBe('2026-02-01T00:00:00.000Z');
    const b = planConsolidation([e('a', 'same words here', 1), e('b', 'same words here', 2, [], '2026-01-15T00:00:00.000Z')], {
      redact: identity,
    });
    expect(b.output[0]!.expiresAt).toBeUndefined();
  });

  it('routes output content through the redaction chokepoint', () => {
    const secret = 'sk-live-ABCDEFGH1234';
    const redact = (s: string) => s.split(secret).join('[REDACTED:s1]');
    const plan = planConsolidation([e('a', `key is ${secret}`, 1), e('b', `key is ${secret}!`, 2)], { redact });
    expect(plan.output).toHaveLength(1);
    expect(plan.output[0]!.content).toBe('key is [REDACTED:s1]!');
  });

  it('an already consolidated corpus yields no merges and no rewrites', () => {
    const first = planConsolidation(
      [e('a', 'one two three four', 1), e('b', 'one two three four', 2), e('c', 'five six seven', 3)],
      { redact: identity },
    );
    const second = planConsolidation(first.output, { redact: identity });
    expect(second.inputCount).toBe(second.outputCount);
    expect(second.rewrites).toEqual([]);
    expect(second.mergedIds).toEqual([]);
  });

  const word = fc.constantFrom('refund', 'policy', 'email', 'customer', 'prefers', 'invoice', 'due', 'march', 'secretvalue99');
  const entries = fc
    .array(
      fc.record({
        words: fc.array(word, { minLength: 1, maxLength: 7 }),
        t: fc.integer({ min: 0, max: 50 }),
        fact: fc.option(fc.constantFrom('fact:a', 'fact:b'), { nil: undefined }),
        corr: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        exp: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
      }),
      { maxLength: 40 },
    )
    .map((rs) =>
      rs.map((r, i) =>
        e(
          `m${i}`,
          r.words.join(' '),
          r.t,
          [...(r.fact ? [r.fact] : []), ...(r.corr ? [`corroborated:${r.corr}`] : [])],
          r.exp === undefined ? undefined : new Date(Date.UTC(2026, 1, 1) + r.exp * 1000).toISOString(),
        ),
      ),
    );

  it('property: a second pass over any corpus is a no-op (counts equal, nothing rewritten, nothing merged)', () => {
    const redact = (s: string) => s.split('secretvalue99').join('[REDACTED:sv]');
    fc.assert(
      fc.property(entries, (corpus) => {
        const first = planConsolidation(corpus, { redact });
        expect(first.outputCount).toBeLessThanOrEqual(first.inputCount);
        const second = planConsolidation(first.output, { redact });
        expect(second.outputCount).toBe(second.inputCount);
        expect(second.rewrites).toEqual([]);
        expect(second.mergedIds).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('property: total corroboration weight is conserved across merges (strengthen is count-neutral)', () => {
    fc.assert(
      fc.property(entries, (corpus) => {
        const plan = planConsolidation(corpus, { redact: identity });
        const w = (x: ConsolidationEntry) => Number(x.tags.find((t) => t.startsWith('corroborated:'))?.slice(13) ?? 1);
        const superseded = corpus.filter((c) => plan.mergedIds.includes(c.id));
        const inW = corpus.reduce((s, c) => s + w(c), 0);
        const outW = plan.output.reduce((s, c) => s + w(c), 0);
        // Weight only leaves through supersession (a stale fact contributes nothing to the winner).
        expect(outW).toBeLessThanOrEqual(inW);
        expect(outW).toBeGreaterThanOrEqual(inW - superseded.reduce((s, c) => s + w(c), 0));
        if (plan.stats.superseded === 0) expect(outW).toBe(inW);
      }),
      { numRuns: 200 },
    );
  });

  it('property: at most one entry per fact key survives, and it is the newest', () => {
    fc.assert(
      fc.property(entries, (corpus) => {
        const plan = planConsolidation(corpus, { redact: identity });
        for (const key of ['fact:a', 'fact:b']) {
          const group = corpus.filter((c) => c.tags.includes(key));
          const out = plan.output.filter((c) => c.tags.includes(key));
          if (group.length === 0) continue;
          expect(out).toHaveLength(1);
          const newest = [...group].sort((x, y) => x.createdAt.localeCompare(y.createdAt) || (x.id < y.id ? -1 : 1)).at(-1)!;
          expect(out[0]!.id).toBe(newest.id);
        }
      }),
      { numRuns: 200 },
    );
  });
});
