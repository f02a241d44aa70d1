/**
 * Did-you-mean for a `$ref` that does not resolve: the closest schema file when the file part names none, then the
 * closest `$defs` entry of that file when the pointer names none. A suggestion always resolves; none is offered when
 * nothing is close (meta-messages.ts `didYouMean`: an edit distance below 3).
 */
import { posix } from 'node:path';
import type { SchemaFile } from './model.ts';
import { getPointer, isObject, type Resolved } from './resolve.ts';
import { didYouMean } from './meta-messages.ts';
import { escapePointer, unescapePointer } from './errors.ts';

/** How `from` refers to the schema file `to`: a relative path, `./` first when in the same folder. */
const relativeRef = (from: SchemaFile, to: SchemaFile): string => {
  const rel = posix.relative(posix.dirname(from.path), to.path);
  return rel.startsWith('../') ? rel : `./${rel}`;
};

export function refSuggestion(r: Resolved, file: SchemaFile, ref: string): string | undefined {
  const hashAt = ref.indexOf('#');
  const urlPart = hashAt < 0 ? ref : ref.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : ref.slice(hashAt + 1);
  let target = urlPart === '' ? file : r.tryResolve(file, urlPart)?.file;
  let url = urlPart;
  if (target === undefined) {
    const candidates = new Map(r.corpus.schemas.map((s) => [relativeRef(file, s), s] as const));
    const guess = didYouMean(urlPart, candidates.keys());
    if (guess === undefined) return undefined;
    [target, url] = [candidates.get(guess)!, guess];
  }
  const suggest = (pointer: string) => (pointer === '' ? url : `${url}#${pointer}`);
  let pointer: string;
  try {
    pointer = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (getPointer(target.schema, pointer) !== undefined) return url === urlPart ? undefined : suggest(fragment);
  const defName = /^\/\$defs\/([^/]+)$/.exec(pointer)?.[1];
  const defs = isObject(target.schema['$defs']) ? Object.keys(target.schema['$defs']) : [];
  const name = defName === undefined ? undefined : didYouMean(unescapePointer(defName), defs);
  return name === undefined ? undefined : suggest(`/$defs/${escapePointer(name)}`);
}

/** The message of a `$ref` that does not resolve, with the suggestion when there is one. */
export function danglingRefMessage(r: Resolved, file: SchemaFile, ref: string): string {
  const guess = refSuggestion(r, file, ref);
  return `"$ref" "${ref}" does not resolve offline${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`;
}
