/**
 * The deterministic tokenizer the reference runtime advertises as `tokenizerName`: a token is a run of letters
 * or digits, or one other non-space character. Crude next to a model's BPE, but exact and reproducible, which is
 * what budget accounting and byte-stable archives need.
 */
export const TOKENIZER_NAME = 'wopkit-words-v1';
const TOKEN = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;
export function countTokens(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(TOKEN)) n++;
  return n;
}
