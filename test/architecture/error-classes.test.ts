/**
 * Every error the runtime throws on purpose is a WopkitError (runtime/shared/errors.ts), so the host maps errors
 * with one `instanceof` and each error says itself how it answers on the wire. Only WopkitError extends a built-in
 * error class; every other `…Error` class under runtime/ descends from it.
 *
 * A store refusal made without a wire answer (`new StoreRefusal(code, message)`) would reach a client as a 500: it
 * is control flow, and some runtime module outside the store's operations must handle it by its code (retry a stale
 * read, map a lost claim to its domain error). A code nothing handles is listed below with why a 500 is right.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { declaredClasses, tsFilesUnder } from './sources.ts';

/** Wire-less refusal codes that are programming errors (a 500 is the right answer), with why. */
const UNHANDLED_BY_DESIGN: Readonly<Record<string, string>> = {
  run_unknown: 'an event appended to a run that does not exist: the runtime checked the run before planning it, so this is a bug',
  duplicate_item: 'a second append of an item by a caller that did not declare its look for it (doc.append readAbsent, which makes it stale_read and re-runs the request): a fresh id repeated (crisis candidates) is a bug of the id source',
};

const BUILT_IN = new Set(['Error', 'RangeError', 'TypeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);
const classes = tsFilesUnder('runtime').flatMap(declaredClasses);
const byName = new Map(classes.map((c) => [c.name, c]));

/** Whether `name` reaches WopkitError through `extends` links declared under runtime/. */
function descendsFromWopkitError(name: string, seen = new Set<string>()): boolean {
  if (name === 'WopkitError') return true;
  const c = byName.get(name);
  if (c?.extends === undefined || seen.has(name)) return false;
  seen.add(name);
  return descendsFromWopkitError(c.extends.replace(/<.*$/s, ''), seen);
}

describe('runtime error classes', () => {
  it('finds the error classes (the check is not vacuous)', () => {
    expect(classes.filter((c) => c.name.endsWith('Error')).length).toBeGreaterThan(15);
  });

  it('only WopkitError extends a built-in error class', () => {
    const direct = classes.filter((c) => c.extends !== undefined && BUILT_IN.has(c.extends)).map((c) => `${c.file}: ${c.name} extends ${c.extends}`);
    expect(direct).toEqual(['runtime/shared/errors.ts: WopkitError extends Error']);
  });

  it('every …Error class descends from WopkitError', () => {
    const strays = classes.filter((c) => c.name.endsWith('Error') && !descendsFromWopkitError(c.name)).map((c) => `${c.file}: ${c.name}`);
    expect(strays).toEqual([]);
  });
});

describe('store refusals without a wire answer', () => {
  const files = tsFilesUnder('runtime');
  const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
  const codes = [...new Set(files.filter((f) => f.startsWith('runtime/storage/')).flatMap((f) => [...text.get(f)!.matchAll(/new StoreRefusal\('([a-z_]+)', [^,)]+\)/g)].map((m) => m[1]!)))].sort();

  it('finds them (not vacuous)', () => {
    expect(codes).toEqual(expect.arrayContaining(['claim_taken', 'stale_read']));
  });

  it('each is handled by its code outside the store\'s operations, or listed as a programming error', () => {
    const handled = (code: string) => files.some((f) => !f.startsWith('runtime/storage/ops/') && text.get(f)!.includes(`=== '${code}'`));
    expect(codes.filter((c) => !handled(c) && UNHANDLED_BY_DESIGN[c] === undefined)).toEqual([]);
    expect(Object.keys(UNHANDLED_BY_DESIGN).filter((c) => !codes.includes(c) || handled(c)), 'stale entries').toEqual([]);
  });
});
