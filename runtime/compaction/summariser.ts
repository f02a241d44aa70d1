/**
 * Summarisers are pluggable; the shipped one is extractive and deterministic: it splits the sources into
 * sentences, keeps each distinct sentence once (first occurrence wins, comparison ignores case and spacing), in
 * source order, and stops before a byte or token ceiling. The same input always gives the same bytes.
 *
 * A sentence ends at a newline or at `.`/`!`/`?` followed by whitespace or the end of the text, so `30.5`,
 * `v1.2` or `sk-live.ABCD` stay whole; an SR-1 marker `[REDACTED:<secretId>]` is atomic (its secretId may hold
 * `.` or `:`), so markers already present in the sources survive extraction byte for byte.
 */
export interface SummariseLimits {
  /** Largest output in UTF-8 bytes. */
  readonly maxBytes?: number;
  /** Largest output in tokens, counted with `countTokens`. */
  readonly maxTokens?: number;
  readonly countTokens?: (text: string) => number;
}

export type Summariser = (sources: readonly string[], limits: SummariseLimits) => string;

const SENTENCE = /(?:\[REDACTED:[A-Za-z0-9._:-]{1,128}\]|[^\n.!?]|[.!?]+(?=[^\s.!?]))+[.!?]*|[.!?]+/g;

export function sentencesOf(text: string): string[] {
  return (text.match(SENTENCE) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

const key = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ');

export const extractiveSummariser: Summariser = (sources, limits) => {
  const seen = new Set<string>();
  const kept: string[] = [];
  let bytes = 0;
  let tokens = 0;
  for (const source of sources) {
    for (const sentence of sentencesOf(source)) {
      const k = key(sentence);
      if (seen.has(k)) continue;
      seen.add(k);
      const addBytes = Buffer.byteLength(sentence, 'utf8') + (kept.length > 0 ? 1 : 0);
      const addTokens = limits.countTokens ? limits.countTokens(sentence) : 0;
      if (limits.maxBytes !== undefined && bytes + addBytes > limits.maxBytes) return kept.join('\n');
      if (limits.maxTokens !== undefined && tokens + addTokens > limits.maxTokens) return kept.join('\n');
      kept.push(sentence);
      bytes += addBytes;
      tokens += addTokens;
    }
  }
  return kept.join('\n');
};
