/**
 * Where a JSON pointer sits in the source text of a JSON document: line and column (both 1-based) of the member's key
 * (for an object member), or of the value (for an array element or the root). Findings name a pointer; editors, SARIF
 * and terminals want a line. A small scanner over well-formed JSON text (what `JSON.parse` accepted): one pass records
 * the position of every value, so any number of lookups on one file cost one scan.
 */
import { escapePointer } from './errors.ts';

/** A position in a text file, both 1-based. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Every pointer of a JSON text → the offset of its key (object member) or value (array element, root). */
export function pointerOffsets(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (pointer: string, at: number): void => {
    ws();
    if (!out.has(pointer)) out.set(pointer, at < 0 ? i : at);
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      while (i < text.length) {
        ws();
        const keyAt = i;
        const key = str();
        ws();
        i++; // ':'
        value(`${pointer}/${escapePointer(key)}`, keyAt);
        ws();
        if (text[i++] === '}') return;
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let n = 0; i < text.length; n++) {
        value(`${pointer}/${n}`, -1);
        ws();
        if (text[i++] === ']') return;
      }
    } else if (c === '"') str();
    else while (i < text.length && !',}] \t\n\r'.includes(text[i] as string)) i++;
  };
  try {
    value('', -1);
  } catch {
    /* not well-formed: keep what was found */
  }
  return out;
}

/** Line and column (1-based) of an offset in a text. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++)
    if (text.charCodeAt(k) === 10) {
      line++;
      lineStart = k + 1;
    }
  return { line, column: offset - lineStart + 1 };
}

/**
 * A locator for one JSON text: `locate(pointer)` gives the position of the pointer, or of its longest prefix that
 * exists (a finding about a missing member points at the object that lacks it).
 */
export function jsonLocator(text: string): (pointer: string) => Position {
  let offsets: Map<string, number> | undefined;
  return (pointer) => {
    offsets ??= pointerOffsets(text);
    for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
      const at = offsets.get(p);
      if (at !== undefined) return positionAt(text, at);
      if (p === '') return { line: 1, column: 1 };
    }
  };
}
