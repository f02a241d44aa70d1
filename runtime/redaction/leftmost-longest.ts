/**
 * Exact leftmost-longest, non-overlapping matching of many literal patterns, by UTF-16 code units. Two engines give
 * the same matches; the matcher picks one per pattern set, once, when it is built:
 *
 * - **RegExp** — the escaped patterns as one alternation, longest first (at one position the first alternative that
 *   matches is the longest). V8 compiles such an alternation into native code that factors common prefixes and
 *   skips ahead with a Boyer–Moore lookahead, which no per-character loop in JavaScript can match when the patterns
 *   start alike (API keys sharing `sk-`) or are few. It tries the patterns at each position, so its work per
 *   position is bounded by the longest pattern: it is chosen only when the patterns begin with at most
 *   {@link REGEXP_MAX_FIRST_UNITS} distinct code units and none is longer than {@link REGEXP_MAX_PATTERN_LENGTH}.
 * - **Automaton** — {@link FlatAutomaton} over the *reversed* patterns, fed the text from the end: at each position s
 *   the state's output is the longest pattern that *starts* at s, the candidate leftmost-longest needs (a forward
 *   automaton only knows the longest pattern *ending* at each position, which can hide a shorter pattern starting
 *   later). A sweep then takes, from left to right, the longest candidate at each free position and jumps past it.
 *   One step per code unit whatever the number of patterns: the engine for large, varied sets.
 */
import { FlatAutomaton } from './flat-automaton.ts';

export interface Match {
  /** Index of the first code unit. */
  readonly start: number;
  /** Index one past the last code unit. */
  readonly end: number;
  /** Index of the pattern in the array given to the constructor. */
  readonly pattern: number;
}

/** The RegExp engine only for patterns beginning with at most this many distinct code units… */
export const REGEXP_MAX_FIRST_UNITS = 16;
/** …none longer than this (the RegExp's work per position of the text). */
export const REGEXP_MAX_PATTERN_LENGTH = 64;

export type Engine = 'regexp' | 'automaton';

const reverseUnits = (s: string): string => {
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) out += s[i];
  return out;
};

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The engine the matcher picks for a pattern set (see the module comment). */
export function engineFor(patterns: readonly string[]): Engine {
  const firstUnits = new Set<number>();
  for (const p of patterns) {
    if (p.length > REGEXP_MAX_PATTERN_LENGTH) return 'automaton';
    if (p.length > 0) firstUnits.add(p.charCodeAt(0));
  }
  return firstUnits.size <= REGEXP_MAX_FIRST_UNITS ? 'regexp' : 'automaton';
}

interface Scanner {
  matches(text: string, out: Match[]): void;
  test(text: string): boolean;
}

function regexpScanner(patterns: readonly string[]): Scanner {
  const index = new Map<string, number>();
  patterns.forEach((p, i) => {
    if (p.length > 0 && !index.has(p)) index.set(p, i);
  });
  const longestFirst = [...index.keys()].sort((a, b) => b.length - a.length);
  // No pattern: a RegExp that never matches.
  const re = new RegExp(longestFirst.length === 0 ? '(?!)' : longestFirst.map(escapeRegExp).join('|'), 'g');
  return {
    matches(text, out) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push({ start: m.index, end: re.lastIndex, pattern: index.get(m[0])! });
    },
    test(text) {
      re.lastIndex = 0;
      return re.test(text);
    },
  };
}

function automatonScanner(patterns: readonly string[]): Scanner {
  const ac = new FlatAutomaton(patterns.map(reverseUnits));
  const NONE: number[] = [];
  return {
    matches(text, out) {
      // Backward scan: candidates (start, pattern) in decreasing start order.
      const starts: number[] = [];
      const found: number[] = [];
      if (!ac.scanBackward(text, 0, text.length, false, starts, found)) return;
      // Forward sweep: the longest candidate at each free position.
      let free = 0;
      for (let i = starts.length - 1; i >= 0; i--) {
        const s = starts[i]!;
        if (s < free) continue;
        const p = found[i]!;
        free = s + ac.patternLength(p);
        out.push({ start: s, end: free, pattern: p });
      }
    },
    test: (text) => ac.scanBackward(text, 0, text.length, true, NONE, NONE),
  };
}

export class LeftmostLongestMatcher {
  readonly engine: Engine;
  readonly #scanner: Scanner;

  /** `engine` forces one engine (tests hold both against a reference); by default the matcher picks. */
  constructor(patterns: readonly string[], { engine = engineFor(patterns) }: { readonly engine?: Engine } = {}) {
    this.engine = engine;
    this.#scanner = engine === 'regexp' ? regexpScanner(patterns) : automatonScanner(patterns);
  }

  /** Leftmost-longest non-overlapping matches, left to right. */
  matches(text: string): Match[] {
    const out: Match[] = [];
    this.#scanner.matches(text, out);
    return out;
  }

  /** Whether any pattern occurs in the text. */
  test(text: string): boolean {
    return this.#scanner.test(text);
  }
}
