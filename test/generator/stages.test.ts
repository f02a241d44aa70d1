/** The stages pass values forward: load → resolve → lint → emit → write, each taking the previous stage's value. */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { resolveCorpus, type Resolved } from '../../generator/resolve.ts';
import { emitAll } from '../../generator/emit.ts';
import type { EmitterEntry } from '../../generator/emitters.ts';
import type { Declarations } from '../../generator/emit/ts-declarations.ts';
import { CorpusError } from '../../generator/errors.ts';
import { FIXTURE, REPO } from './helpers.ts';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));

describe('generator stages', () => {
  const resolved = resolveCorpus(loadCorpus(FIXTURE));

  it('emit hands every emitter the same resolved corpus, and every one that reads declarations the same declarations, once each', async () => {
    const calls: { name: string; resolved: Resolved; declarations: Declarations }[] = [];
    const recorder = (name: string, readsDeclarations: boolean): EmitterEntry => ({
      name,
      owns: [`generated/${name}/`],
      readsDeclarations,
      emit: (r, declarations) => {
        calls.push({ name, resolved: r, declarations });
        return [{ path: `generated/${name}/x.txt`, contents: name }];
      },
    });
    const reported: string[] = [];
    const emission = await emitAll(resolved, [recorder('b', true), recorder('c', false), recorder('a', true)], { onEmitted: (name) => reported.push(name) });
    // the emitter that reads no declarations runs while they are compiled; results are reported in table order
    expect(calls.map((c) => c.name)).toEqual(['c', 'b', 'a']);
    expect(reported).toEqual(['b', 'c', 'a']);
    for (const c of calls) expect(c.resolved).toBe(resolved);
    expect(calls[1]!.declarations).toBe(calls[2]!.declarations);
    expect([...calls[1]!.declarations.keys()].sort()).toEqual(resolved.types.map((t) => t.title).sort());
    expect(calls[0]!.declarations.size).toBe(0);
    expect(emission.files.map((f) => f.path)).toEqual(['generated/a/x.txt', 'generated/b/x.txt', 'generated/c/x.txt']);
    expect(emission.owns).toEqual(['generated/b/', 'generated/c/', 'generated/a/']);
  });

  it('every emitter that shows TypeScript declarations says so in the table (it would get none otherwise)', async () => {
    const { EMITTERS } = await import('../../generator/emitters.ts');
    const { declareTypes } = await import('../../generator/emit/ts-declarations.ts');
    const declarations = await declareTypes(resolved);
    for (const e of EMITTERS.filter((x) => !x.slow)) {
      const withThem = JSON.stringify(await e.emit(resolved, declarations));
      const without = await Promise.resolve().then(() => e.emit(resolved, new Map())).then(JSON.stringify, (err: Error) => `failed: ${err.message}`);
      expect(withThem !== without, e.name).toBe(e.readsDeclarations === true);
    }
  }, 60_000);

  it('emit refuses a path produced twice or outside what the emitter owns', async () => {
    const entry = (name: string, path: string): EmitterEntry => ({ name, owns: ['generated/x/'], emit: () => [{ path, contents: '' }] });
    await expect(emitAll(resolved, [entry('one', 'generated/x/a'), entry('two', 'generated/x/a')])).rejects.toThrow(/two emitters produce generated\/x\/a/);
    await expect(emitAll(resolved, [entry('one', 'generated/y/a')])).rejects.toBeInstanceOf(CorpusError);
  });

  it('no emitter resolves the corpus itself or keeps module-level state', () => {
    const offenders = sources(join(REPO, 'generator/emit')).flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return [/\bresolveCorpus\(|\bnew Resolved\(/, /\bWeakMap\b/, /^let /m]
        .filter((re) => re.test(text))
        .map((re) => `${f.slice(REPO.length + 1)}: ${re.source}`);
    });
    expect(offenders).toEqual([]);
  });
});
