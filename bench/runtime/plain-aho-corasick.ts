/**
 * The plain Aho–Corasick peer of the redaction benchmark (the chokepoint's matcher before issue 15, kept here as
 * the peer it is measured against; the runtime uses runtime/redaction/leftmost-longest.ts).
 *
 * Aho–Corasick over UTF-16 code units, built for redaction: one scan of the text finds, at every end position,
 * the longest registered pattern ending there. Transitions live in one flat Map keyed by
 * `node * 65536 + codeUnit`, so 10k patterns of ~40 characters cost a few hundred thousand map entries, not a
 * map per node. Build is linear in the total pattern length; a scan is linear in the text length.
 */
export interface Match {
  /** Index of the first code unit. */
  readonly start: number;
  /** Index one past the last code unit. */
  readonly end: number;
  /** Index of the pattern in the array given to the constructor. */
  readonly pattern: number;
}

const ROOT_TABLE = 256;

export class AhoCorasick {
  readonly #goto = new Map<number, number>();
  // Node 0 is the root; node ids are indexes into the arrays below.
  readonly #fail: number[] = [0];
  readonly #depth: number[] = [0];
  /** Pattern ending exactly at this node, or -1. */
  readonly #terminal: number[] = [-1];
  /** Longest pattern that is a suffix of this node's string (the node itself included), or -1. */
  readonly #longest: number[] = [-1];
  readonly #lengths: number[];
  /**
   * Root transitions of the first 256 code units as a flat table (most characters of ordinary text never leave
   * the root); higher code units look the root up in the map. 1 KiB per automaton, not 256 KiB: a host keeps one
   * automaton per tenant with live secrets.
   */
  readonly #rootNext = new Int32Array(ROOT_TABLE);

  constructor(patterns: readonly string[]) {
    this.#lengths = patterns.map((p) => p.length);
    patterns.forEach((p, index) => {
      let node = 0;
      for (let i = 0; i < p.length; i++) {
        const key = node * 65536 + p.charCodeAt(i);
        let next = this.#goto.get(key);
        if (next === undefined) {
          next = this.#fail.length;
          this.#fail.push(0);
          this.#depth.push(this.#depth[node]! + 1);
          this.#terminal.push(-1);
          this.#longest.push(-1);
          this.#goto.set(key, next);
        }
        node = next;
      }
      if (p.length > 0 && this.#terminal[node] === -1) this.#terminal[node] = index;
    });
    this.#buildFailureLinks();
    for (const [key, child] of this.#goto) if (key < ROOT_TABLE) this.#rootNext[key] = child;
  }

  /** One automaton step. */
  #step(node: number, ch: number): number {
    let n = node;
    for (;;) {
      if (n === 0) return ch < ROOT_TABLE ? this.#rootNext[ch]! : (this.#goto.get(ch) ?? 0);
      const next = this.#goto.get(n * 65536 + ch);
      if (next !== undefined) return next;
      n = this.#fail[n]!;
    }
  }

  #buildFailureLinks(): void {
    // Children per node, needed for BFS order.
    const children: number[][] = this.#fail.map(() => []);
    const labels: number[][] = this.#fail.map(() => []);
    for (const [key, child] of this.#goto) {
      const parent = Math.floor(key / 65536);
      children[parent]!.push(child);
      labels[parent]!.push(key % 65536);
    }
    const queue: number[] = [];
    for (const c of children[0]!) {
      this.#fail[c] = 0;
      queue.push(c);
    }
    this.#longest[0] = -1;
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      const t = this.#terminal[node]!;
      this.#longest[node] = t !== -1 ? t : this.#longest[this.#fail[node]!]!;
      const kids = children[node]!;
      const ls = labels[node]!;
      for (let i = 0; i < kids.length; i++) {
        const child = kids[i]!;
        const ch = ls[i]!;
        let f = this.#fail[node]!;
        let target = this.#goto.get(f * 65536 + ch);
        while (target === undefined && f !== 0) {
          f = this.#fail[f]!;
          target = this.#goto.get(f * 65536 + ch);
        }
        this.#fail[child] = target !== undefined && target !== child ? target : 0;
        queue.push(child);
      }
    }
  }

  /** For every end position, the longest pattern ending there (at most one match per end position). */
  *longestEndingAt(text: string): Generator<Match> {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.#step(node, text.charCodeAt(i));
      const p = this.#longest[node]!;
      if (p !== -1) yield { start: i + 1 - this.#lengths[p]!, end: i + 1, pattern: p };
    }
  }

  /** Whether any pattern occurs in the text. */
  test(text: string): boolean {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.#step(node, text.charCodeAt(i));
      if (this.#longest[node] !== -1) return true;
    }
    return false;
  }

  /** The start state, for callers that drive the automaton themselves. */
  readonly root = 0;
  /** One transition (public for {@link LeftmostLongestMatcher}). */
  step(node: number, codeUnit: number): number {
    return this.#step(node, codeUnit);
  }
  /** Index of the longest pattern that is a suffix of the node's string, or -1. */
  longestAt(node: number): number {
    return this.#longest[node]!;
  }
  patternLength(pattern: number): number {
    return this.#lengths[pattern]!;
  }
}

const reverseUnits = (s: string): string => {
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) out += s[i];
  return out;
};

/**
 * Exact leftmost-longest, non-overlapping matching in one backward scan plus one forward sweep, O(text) whatever
 * the number of patterns. The automaton is built over the *reversed* patterns and fed the text from the end, so
 * at each position s the state's longest output is the longest pattern that *starts* at s — exactly the
 * candidate leftmost-longest needs (a forward automaton only knows the longest pattern *ending* at each
 * position, which can hide a shorter pattern starting later). The sweep then takes, from left to right, the
 * longest candidate at each free position and jumps past it.
 */
export class LeftmostLongestMatcher {
  readonly #ac: AhoCorasick;
  constructor(patterns: readonly string[]) {
    this.#ac = new AhoCorasick(patterns.map(reverseUnits));
  }

  /** Leftmost-longest non-overlapping matches, left to right. */
  matches(text: string): Match[] {
    const ac = this.#ac;
    let endAt: Int32Array | undefined; // start -> end of the longest pattern starting there (0 = none)
    let patternAt: Int32Array | undefined;
    let node = ac.root;
    for (let s = text.length - 1; s >= 0; s--) {
      node = ac.step(node, text.charCodeAt(s));
      const p = ac.longestAt(node);
      if (p === -1) continue;
      if (endAt === undefined) {
        endAt = new Int32Array(text.length);
        patternAt = new Int32Array(text.length);
      }
      endAt[s] = s + ac.patternLength(p);
      patternAt![s] = p;
    }
    if (endAt === undefined) return [];
    const out: Match[] = [];
    for (let s = 0; s < text.length; ) {
      const e = endAt[s]!;
      if (e === 0) {
        s++;
        continue;
      }
      out.push({ start: s, end: e, pattern: patternAt![s]! });
      s = e;
    }
    return out;
  }

  /** Whether any pattern occurs in the text. */
  test(text: string): boolean {
    const ac = this.#ac;
    let node = ac.root;
    for (let s = text.length - 1; s >= 0; s--) {
      node = ac.step(node, text.charCodeAt(s));
      if (ac.longestAt(node) !== -1) return true;
    }
    return false;
  }
}
