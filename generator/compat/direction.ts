/**
 * Which way a shape travels, as data: every schema file's root states `x-direction` (lint rule `direction`), and a
 * `$defs` entry may state its own. The direction decides how a change is classified (classify.ts):
 *
 * - `request`  — client-submitted (a request body, options, operator input): the implementation receives it. Tightening
 *   rejects what clients already send (breaking); loosening accepts more (additive).
 * - `response` — server-emitted (events, responses, discovery, records others read): consumers rely on what it
 *   promises. Loosening lets them see what they were not promised (breaking), tightening rejects what existing hosts
 *   emit and logs already hold (breaking); only extending what consumers must already tolerate is additive.
 * - `both`     — travels both ways (stored and read back, shared vocabularies): breaking when either side breaks.
 *
 * A definition used from another shape also travels the way that shape does: the effective direction of an entry is
 * its own joined with that of every entry that references it, transitively (a response type referenced from a request
 * body becomes `both`).
 */
import type { JsonObject } from '../json-value.ts';
import type { Resolved, TypeInfo } from '../resolve.ts';

export const DIRECTION_KEYWORD = 'x-direction';
export const DIRECTIONS = ['request', 'response', 'both'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const isDirection = (v: unknown): v is Direction => typeof v === 'string' && (DIRECTIONS as readonly string[]).includes(v);

/** The join of two directions (`request` ⊔ `response` = `both`). */
export const joinDirections = (a: Direction | undefined, b: Direction | undefined): Direction | undefined =>
  a === undefined ? b : b === undefined || a === b ? a : 'both';

/** What a direction means, for reports. */
export const DIRECTION_MEANING: Readonly<Record<Direction, string>> = {
  request: 'client-submitted (request)',
  response: 'server-emitted (response)',
  both: 'sent both ways (request and response)',
};

/** The direction an entry states: its own `x-direction`, else its file root's. */
export function declaredDirection(entry: Pick<TypeInfo, 'schema' | 'file'>): Direction | undefined {
  const own = (entry.schema as JsonObject)[DIRECTION_KEYWORD];
  if (isDirection(own)) return own;
  const root = entry.file.schema[DIRECTION_KEYWORD];
  return isDirection(root) ? root : undefined;
}

/**
 * The effective direction of every root and `$defs` entry, keyed by `path#pointer`: the declared direction joined with
 * the effective direction of every entry that references it (a fixed point over the reference graph).
 */
export function effectiveDirections(r: Resolved): Map<string, Direction | undefined> {
  const key = (e: TypeInfo) => `${e.file.path}#${e.pointer}`;
  const out = new Map<string, Direction | undefined>();
  for (const e of r.entries.values()) out.set(key(e), declaredDirection(e));
  const graph = r.referenceGraph();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [from, targets] of graph)
      for (const to of targets) {
        const joined = joinDirections(out.get(key(to)), out.get(key(from)));
        if (joined !== out.get(key(to))) {
          out.set(key(to), joined);
          changed = true;
        }
      }
  }
  return out;
}
