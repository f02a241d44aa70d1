/**
 * Reading JSON: parse with a position on failure ("malformed JSON at line L, column C"), read a file with I/O errors
 * named. Light on purpose (no Ajv): `wopkit validate` reads its instances with it.
 */
import { readFileSync } from 'node:fs';
import type { Json, JsonObject } from './json-value.ts';
import { CorpusError } from './errors.ts';

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

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

/** Parse JSON text; on failure throw a CorpusError naming the file, line and column. */
export function parseJson(text: string, file: string): Json {
  // A leading byte-order mark is allowed (RFC 8259 §8.1 lets parsers ignore it; some editors write one).
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body) as Json;
  } catch (e) {
    const at = jsonErrorOffset(body);
    // The scanner agrees with JSON.parse on every input we know of; if it ever finds nothing, say what JSON.parse said.
    if (at < 0) throw new CorpusError(`malformed JSON: ${(e as Error).message}`, file);
    const before = body.slice(0, at);
    const line = before.split('\n').length;
    const column = at - (before.lastIndexOf('\n') + 1) + 1;
    const reason = at >= body.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(body.slice(at, at + 1))}`;
    throw new CorpusError(`malformed JSON at line ${line}, column ${column}: ${reason}`, file, '', { line, column });
  }
}

/** Read a JSON file and parse it, keeping its text (to locate pointers in); I/O errors become CorpusErrors naming the file. */
export function readJsonText(absPath: string, displayPath: string = absPath): { text: string; data: Json } {
  let text: string;
  try {
    text = readFileSync(absPath, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CorpusError(`cannot read file${code ? ` (${code})` : ''}`, displayPath);
  }
  return { text, data: parseJson(text, displayPath) };
}

/** Read and parse a JSON file; I/O errors become CorpusErrors naming the file. */
export const readJsonFile = (absPath: string, displayPath: string = absPath): Json => readJsonText(absPath, displayPath).data;
