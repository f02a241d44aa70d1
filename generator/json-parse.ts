/**
 * JSON text → value, or where and why it is malformed ("malformed JSON at line L, column C: unexpected …"). Pure (no
 * Node imports): `wopkit validate` reads its instances with it (through json.ts), and the site's playground runs the
 * same code in the browser, so both report a malformed document identically.
 */
import type { Json } from './json-value.ts';

/** Offset of the first syntax error in `text` (a small recursive-descent scan; JSON.parse does not always say where). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const lit = (w: string) => (text.startsWith(w, i) ? (i += w.length) : fail());
  const str = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    if (text[i] !== '"') fail();
    i++;
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail();
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    } else if (c === '"') str();
    else if (c === 't') lit('true');
    else if (c === 'f') lit('false');
    else if (c === 'n') lit('null');
    else num();
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    if (i < text.length) fail();
    return -1;
  } catch (at) {
    return typeof at === 'number' ? at : -1;
  }
}

/** A parse: the value, or the message and (when the scanner finds the spot) its 1-based line and column. */
export type JsonParse = { readonly ok: true; readonly value: Json } | { readonly ok: false; readonly message: string; readonly line?: number; readonly column?: number; readonly offset?: number };

/** Parse JSON text; a leading byte-order mark is allowed (RFC 8259 §8.1 lets parsers ignore it; some editors write one). */
export function parseJsonText(text: string): JsonParse {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const body = text.slice(bom);
  try {
    return { ok: true, value: JSON.parse(body) as Json };
  } catch (e) {
    const at = jsonErrorOffset(body);
    // The scanner agrees with JSON.parse on every input we know of; if it ever finds nothing, say what JSON.parse said.
    if (at < 0) return { ok: false, message: `malformed JSON: ${(e as Error).message}` };
    const before = body.slice(0, at);
    const line = before.split('\n').length;
    const column = at - (before.lastIndexOf('\n') + 1) + 1;
    const reason = at >= body.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(body.slice(at, at + 1))}`;
    return { ok: false, message: `malformed JSON at line ${line}, column ${column}: ${reason}`, line, column, offset: at + bom };
  }
}
