/**
 * The fixes of lint rules example-schema and id-base (`wopkit lint --fix`): give an example's object the `$schema` editors read, as
 * its first member, editing the text in place so that the rest of the file keeps its bytes (its indentation, its key
 * order, its line breaks). A wrong `$schema` has its value replaced where it stands. Files that need nothing are not
 * touched.
 */
import { pointerOffsets } from './json-locate.ts';

/** Offset just past the JSON string starting at `at` (a `"`). */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

const skipSpace = (text: string, at: number): number => {
  let i = at;
  while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  return i;
};

/** Offset of the value of the member whose key starts at `keyAt`. */
const valueAfterKey = (text: string, keyAt: number): number => skipSpace(text, skipSpace(text, stringEnd(text, keyAt)) + 1);

/**
 * `text` (well-formed JSON) with `"$schema": ref` in the object at `objectPointer` (`''`: the document; `'/instance'`:
 * an invalid example's instance). Unchanged when it already says so; undefined when there is no object there.
 */
export const withExampleSchema = (text: string, objectPointer: '' | '/instance', ref: string): string | undefined => withStringMember(text, objectPointer, '$schema', ref);

/**
 * `text` (well-formed JSON) with the member `key` (a key that needs no JSON-pointer escaping) set to the string
 * `value` in the object at `objectPointer`: replaced where it stands, else inserted as the first member in the file's
 * own style. Unchanged when it already says so; undefined when there is no object there. (lint --fix: example-schema
 * and id-base.)
 */
export function withStringMember(text: string, objectPointer: string, key: string, value: string): string | undefined {
  const offsets = pointerOffsets(text);
  const literal = JSON.stringify(value);
  const existing = offsets.get(`${objectPointer}/${key}`);
  if (existing !== undefined) {
    const from = valueAfterKey(text, existing);
    const to = text[from] === '"' ? stringEnd(text, from) : from + (/^[^,}\]\s]+/.exec(text.slice(from))?.[0].length ?? 0);
    return `${text.slice(0, from)}${literal}${text.slice(to)}`;
  }
  const at = offsets.get(objectPointer);
  if (at === undefined) return undefined;
  const open = objectPointer === '' ? at : valueAfterKey(text, at);
  if (text[open] !== '{') return undefined;
  const first = skipSpace(text, open + 1);
  if (text[first] === '}') return `${text.slice(0, open)}{ ${JSON.stringify(key)}: ${literal} }${text.slice(first + 1)}`;
  const gap = text.slice(open + 1, first); // what separates `{` from the first member, and so each member from the next
  const colon = text.slice(stringEnd(text, first), valueAfterKey(text, first)); // the first member's `: ` style
  return `${text.slice(0, open + 1)}${gap}${JSON.stringify(key)}${colon}${literal},${gap}${text.slice(first)}`;
}
