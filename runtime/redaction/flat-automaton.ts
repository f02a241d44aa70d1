/**
 * Aho–Corasick over UTF-16 code units in flat typed arrays: the automaton the redaction matcher scans with.
 *
 * - Code units are mapped to classes first (class 0: a code unit no pattern contains, which always leads back to
 *   the root), Latin-1 through a 256-entry table, the rest through a small map of the code units patterns use.
 * - The root, and every state with more than {@link DENSE_DEGREE} children, owns a dense row over the classes;
 *   the root's row is a complete DFA row (a missing child is the root itself), so ordinary text that never leaves
 *   the root costs one table read per code unit. Other states keep their few children in a compressed edge list
 *   (start offsets, classes, targets) and fall back along precomputed failure links.
 * - `longest[state]` is the longest pattern that is a suffix of the state's string (the state itself included):
 *   the output of a step, with the failure chain already folded in.
 *
 * Memory is linear in the total pattern length (plus one row of classes per branching state); build is linear in
 * it too, and one step is amortised O(1), so a scan is linear in the text.
 */

/** States with more children than this get a dense row (a direct index instead of a short list scan). */
const DENSE_DEGREE = 4;
const LATIN = 256;

export class FlatAutomaton {
  readonly #latin = new Uint16Array(LATIN);
  readonly #wide = new Map<number, number>();
  /** Per state: offset of its dense row in #dense, or -1. */
  readonly #row: Int32Array;
  readonly #dense: Int32Array;
  /** Compressed children of sparse states: #edgeStart[s] .. #edgeStart[s + 1] index #edgeClass / #edgeTarget. */
  readonly #edgeStart: Int32Array;
  readonly #edgeClass: Int32Array;
  readonly #edgeTarget: Int32Array;
  readonly #fail: Int32Array;
  readonly #longest: Int32Array;
  readonly #lengths: Int32Array;

  constructor(patterns: readonly string[]) {
    this.#lengths = Int32Array.from(patterns, (p) => p.length);
    let classes = 1;
    for (const p of patterns) {
      for (let i = 0; i < p.length; i++) {
        const c = p.charCodeAt(i);
        if (c < LATIN) {
          if (this.#latin[c] === 0) this.#latin[c] = classes++;
        } else if (!this.#wide.has(c)) this.#wide.set(c, classes++);
      }
    }

    // The trie, with a temporary map of edges (state * classes + class → child).
    const edges = new Map<number, number>();
    const terminal: number[] = [-1];
    patterns.forEach((p, index) => {
      let node = 0;
      for (let i = 0; i < p.length; i++) {
        const key = node * classes + this.classOf(p.charCodeAt(i));
        let next = edges.get(key);
        if (next === undefined) {
          next = terminal.length;
          terminal.push(-1);
          edges.set(key, next);
        }
        node = next;
      }
      if (p.length > 0 && terminal[node] === -1) terminal[node] = index;
    });
    const states = terminal.length;

    // Compressed edge lists, and a dense row for the root and each branching state.
    const degree = new Int32Array(states + 1);
    for (const key of edges.keys()) degree[Math.floor(key / classes) + 1]!++;
    this.#edgeStart = new Int32Array(states + 1);
    for (let s = 0; s < states; s++) this.#edgeStart[s + 1] = this.#edgeStart[s]! + degree[s + 1]!;
    this.#edgeClass = new Int32Array(edges.size);
    this.#edgeTarget = new Int32Array(edges.size);
    const fill = this.#edgeStart.slice(0, states);
    for (const [key, child] of edges) {
      const s = Math.floor(key / classes);
      const at = fill[s]!++;
      this.#edgeClass[at] = key - s * classes;
      this.#edgeTarget[at] = child;
    }
    this.#row = new Int32Array(states).fill(-1);
    let rows = 0;
    for (let s = 0; s < states; s++) if (s === 0 || degree[s + 1]! > DENSE_DEGREE) this.#row[s] = rows++ * classes;
    this.#dense = new Int32Array(rows * classes).fill(-1);
    for (let s = 0; s < states; s++) {
      const row = this.#row[s]!;
      if (row < 0) continue;
      for (let e = this.#edgeStart[s]!; e < this.#edgeStart[s + 1]!; e++) this.#dense[row + this.#edgeClass[e]!] = this.#edgeTarget[e]!;
    }

    // Failure links and outputs, breadth first.
    this.#fail = new Int32Array(states);
    this.#longest = new Int32Array(states).fill(-1);
    const queue = new Int32Array(states);
    let tail = 0;
    for (let e = this.#edgeStart[0]!; e < this.#edgeStart[1]!; e++) queue[tail++] = this.#edgeTarget[e]!;
    for (let head = 0; head < tail; head++) {
      const node = queue[head]!;
      const t = terminal[node]!;
      this.#longest[node] = t !== -1 ? t : this.#longest[this.#fail[node]!]!;
      for (let e = this.#edgeStart[node]!; e < this.#edgeStart[node + 1]!; e++) {
        const child = this.#edgeTarget[e]!;
        const cls = this.#edgeClass[e]!;
        let f = this.#fail[node]!;
        let target = this.#child(f, cls);
        while (target === -1 && f !== 0) {
          f = this.#fail[f]!;
          target = this.#child(f, cls);
        }
        this.#fail[child] = target > 0 && target !== child ? target : 0;
        queue[tail++] = child;
      }
    }
    // The root's row becomes a complete DFA row: no child means staying at the root.
    for (let c = 0; c < classes; c++) if (this.#dense[c] === -1) this.#dense[c] = 0;
  }

  /** The class of a code unit (0: no pattern contains it). */
  classOf(codeUnit: number): number {
    return codeUnit < LATIN ? this.#latin[codeUnit]! : (this.#wide.get(codeUnit) ?? 0);
  }

  /** The child of a state along a class, or -1 (goto function only, no failure links). */
  #child(state: number, cls: number): number {
    const row = this.#row[state]!;
    if (row >= 0) return this.#dense[row + cls]!;
    const end = this.#edgeStart[state + 1]!;
    for (let e = this.#edgeStart[state]!; e < end; e++) if (this.#edgeClass[e] === cls) return this.#edgeTarget[e]!;
    return -1;
  }

  /**
   * Feeds text[to - 1] down to text[from] (backwards) from the start state. Each position whose state has an output
   * is recorded in `starts` / `patterns` (in decreasing position order), or, with `stopAtFirst`, ends the scan:
   * returns whether any output was seen.
   */
  scanBackward(text: string, from: number, to: number, stopAtFirst: boolean, starts: number[], patterns: number[]): boolean {
    const latin = this.#latin;
    const wide = this.#wide;
    const rowOf = this.#row;
    const dense = this.#dense;
    const edgeStart = this.#edgeStart;
    const edgeClass = this.#edgeClass;
    const edgeTarget = this.#edgeTarget;
    const fail = this.#fail;
    const longest = this.#longest;
    let found = false;
    let s = 0;
    for (let i = to - 1; i >= from; i--) {
      const c = text.charCodeAt(i);
      const cls = c < LATIN ? latin[c]! : (wide.get(c) ?? 0);
      if (cls === 0) {
        s = 0;
        continue;
      }
      for (;;) {
        const row = rowOf[s]!;
        let next = -1;
        if (row >= 0) next = dense[row + cls]!;
        else {
          for (let e = edgeStart[s]!, end = edgeStart[s + 1]!; e < end; e++) {
            if (edgeClass[e] === cls) {
              next = edgeTarget[e]!;
              break;
            }
          }
        }
        if (next !== -1) {
          s = next;
          break;
        }
        s = fail[s]!;
      }
      const p = longest[s]!;
      if (p === -1) continue;
      found = true;
      if (stopAtFirst) return true;
      starts.push(i);
      patterns.push(p);
    }
    return found;
  }

  patternLength(pattern: number): number {
    return this.#lengths[pattern]!;
  }
}
