/**
 * Reading JSON: parse with a position on failure ("malformed JSON at line L, column C"), read a file with I/O errors
 * named. Light on purpose (no Ajv): `wopkit validate` reads its instances with it. The parsing itself is in
 * json-parse.ts (no Node imports), which the site's playground runs in the browser.
 */
import { readFileSync } from 'node:fs';
import type { Json, JsonObject } from './json-value.ts';
import { CorpusError } from './errors.ts';
import { parseJsonText } from './json-parse.ts';

export { jsonErrorOffset } from './json-parse.ts';

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parse JSON text; on failure throw a CorpusError naming the file, line and column. */
export function parseJson(text: string, file: string): Json {
  const r = parseJsonText(text);
  if (r.ok) return r.value;
  throw r.line === undefined ? new CorpusError(r.message, file) : new CorpusError(r.message, file, '', { line: r.line, column: r.column! });
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
