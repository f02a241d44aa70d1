/**
 * Every error the runtime throws on purpose is a WopkitError (runtime/shared/errors.ts), so the host maps errors
 * with one `instanceof` and each error says itself how it answers on the wire. Only WopkitError extends a built-in
 * error class; every other `…Error` class under runtime/ descends from it.
 */
import { describe, expect, it } from 'vitest';
import { declaredClasses, tsFilesUnder } from './sources.ts';

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
