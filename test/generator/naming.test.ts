/** Every derived name comes from generator/naming.ts. */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  GENERATED, assertName, exampleTarget, importSpecifier, isName, parseExampleTarget, schemaStem, titleOfValidatorName, typesModulePath, validatorName,
} from '../../generator/naming.ts';
import { REPO } from './helpers.ts';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));

describe('naming', () => {
  it('names for a type, and their inverses', () => {
    expect([validatorName('MemoryEntry'), isName('MemoryEntry'), assertName('MemoryEntry')]).toEqual(['validateMemoryEntry', 'isMemoryEntry', 'assertMemoryEntry']);
    expect(titleOfValidatorName('validateMemoryEntry')).toBe('MemoryEntry');
    expect(titleOfValidatorName('validated')).toBe('validated');
    for (const [stem, def] of [['memory-entry', ''], ['capabilities', 'HostInfo'], ['inquirium.generate.request.v1', 'Part']] as const)
      expect(parseExampleTarget(exampleTarget(stem, def))).toEqual({ stem, defName: def });
    expect(exampleTarget('capabilities', 'HostInfo')).toBe('capabilities--HostInfo');
    expect(schemaStem('schemas/openwop/v1/memory-entry.schema.json')).toBe('memory-entry');
    expect(schemaStem('inquirium.generate.request.v1.schema.json')).toBe('inquirium.generate.request.v1');
  });

  it('import specifiers between generated modules', () => {
    expect(importSpecifier(GENERATED.guards, GENERATED.validators)).toBe('../validators/validators.js');
    expect(importSpecifier(GENERATED.runEvents, GENERATED.typesIndex)).toBe('../ts/index.ts');
    expect(importSpecifier(typesModulePath('config'), typesModulePath('shared'))).toBe('./shared.ts');
    expect(importSpecifier(GENERATED.typesIndex, typesModulePath('shared'))).toBe('./shared.ts');
  });

  it('no other generator module spells a generated path or builds a validator or guard name', () => {
    const code = (f: string) => readFileSync(f, 'utf8').split('\n').filter((l) => !/^\s*(\/\/|\/\*|\*)/.test(l)).join('\n');
    const offenders = sources(join(REPO, 'generator'))
      .filter((f) => !f.endsWith('/naming.ts'))
      .flatMap((f) => [/['`]generated\//, /`(validate|is|assert)\$\{/, /'\.schema\.json'/].filter((re) => re.test(code(f))).map((re) => `${f.slice(REPO.length + 1)}: ${re.source}`));
    expect(offenders).toEqual([]);
  });
});
