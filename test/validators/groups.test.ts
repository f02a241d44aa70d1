/**
 * The validator emitter runs once per group of types (a family's major) into the group's own folder, with its own
 * Standard Schema vendor; a `$ref` to a type of another group imports that group's module. Here the corpus is split by
 * family into two groups written to a scratch folder: each group's validators give the same verdicts and errors as the
 * repository's one-group output, on every example, and name the group's vendor.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved, type TypeInfo } from '../../generator/resolve.ts';
import { emitSharedValidatorModules, emitValidatorGroup, type ValidatorGroup } from '../../generator/emit/validators.ts';
import { GENERATED } from '../../generator/naming.ts';
import { validatorIndex } from '../../generated/validators/validators.js';
import type { Validator } from '../../generated/validators/validators.js';

const corpus = loadCorpus(process.cwd());
const r = new Resolved(corpus);
const scratch = mkdtempSync(join(tmpdir(), 'wopkit-validator-groups-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const dirOfFamily = (family: string) => `${GENERATED.validatorsDir}${family}-v1/`;
const dirOf = (t: TypeInfo) => dirOfFamily(t.file.family);
const families = [...new Set(r.types.map((t) => t.file.family))].sort();
const groups: ValidatorGroup[] = families.map((family) => ({ types: r.typesOf(r.firstMajor).filter((t) => t.file.family === family), dir: dirOfFamily(family), vendor: `${family}-kit`, dirOf, sharedDir: GENERATED.validatorsDir }));

describe('validators emitted per group', () => {
  it('each group gets its own folder and barrel; a $ref across groups imports the other group\'s module', async () => {
    expect(families.length).toBeGreaterThan(1);
    const files = [...emitSharedValidatorModules(), ...groups.flatMap((g) => emitValidatorGroup(r, g)), { path: GENERATED.packageJson, contents: '{ "type": "module" }\n' }];
    for (const f of files) {
      mkdirSync(dirname(join(scratch, f.path)), { recursive: true });
      writeFileSync(join(scratch, f.path), f.contents);
    }
    for (const g of groups) {
      const barrel = files.find((f) => f.path === `${g.dir}validators.js`);
      expect(barrel, g.dir).toBeDefined();
      // a group's barrel lists its own types only
      for (const t of r.typesOf(r.firstMajor)) expect(barrel!.contents.includes(`validate${t.title} }`), t.title).toBe(g.types.includes(t));
    }
    // the corpus has such a $ref (an OpenWOP host sample holds Inquirium traces): its module imports the other folder
    expect(files.some((f) => f.path.startsWith(dirOfFamily('openwop')) && f.contents.includes("from '../../inquirium-v1/by-type/"))).toBe(true);
    const loaded = new Map<string, Record<string, Validator<unknown>>>();
    for (const g of groups) loaded.set(g.dir, (await import(pathToFileURL(join(scratch, g.dir, 'validators.js')).href)) as Record<string, Validator<unknown>>);

    const byTarget = new Map([...r.entries.values()].filter((e) => e.isType && e.title && e.file.major === r.firstMajor).map((e) => [`${e.file.family}/${e.target}`, e]));
    let compared = 0;
    for (const ex of corpus.examples.filter((e) => e.major === r.firstMajor)) {
      const t = byTarget.get(`${ex.family}/${ex.target}`);
      if (t === undefined) continue;
      const ours = loaded.get(dirOf(t))![`validate${t.title}`]!;
      const reference = validatorIndex[t.title as keyof typeof validatorIndex].validator as Validator<unknown>;
      expect(ours(ex.instance), ex.path).toBe(reference(ex.instance));
      expect(ours.errors, ex.path).toEqual(reference.errors);
      expect(ours['~standard'].vendor).toBe(`${t.file.family}-kit`);
      compared++;
    }
    expect(compared).toBeGreaterThan(500);
  });
});
