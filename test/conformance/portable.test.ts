/**
 * The conformance suite runs against any host over HTTP: from outside conformance/ it imports only the seam
 * catalogue (pure data) and the generated validators — never Fastify, the server, or a runtime module.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { importsOf, tsFiles } from '../host/sources.ts';

/** Every module a file imports, statically or dynamically. */
const specifiers = (text: string) => [...importsOf(text).map((i) => i.from), ...[...text.matchAll(/import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]!)];
const ALLOWED = [/^conformance\//, /^generated\/validators\//, /^runtime\/host\/seam-catalogue\.ts$/];

describe('the conformance suite is portable', () => {
  it('imports only node builtins, its own modules, the seam catalogue and the generated validators', () => {
    const files = tsFiles('conformance');
    expect(files.length).toBeGreaterThan(5);
    const bad = files.flatMap((f) => specifiers(readFileSync(f, 'utf8'))
      .filter((s) => !s.startsWith('node:'))
      .map((s) => ({ s, target: s.startsWith('.') ? normalize(relative('.', join(dirname(f), s))) : s }))
      .filter(({ target }) => !ALLOWED.some((re) => re.test(target)))
      .map(({ s }) => `${f}: ${s}`));
    expect(bad).toEqual([]);
  });
  it('the seam catalogue it imports names no framework and no runtime module', () => {
    const imports = specifiers(readFileSync('runtime/host/seam-catalogue.ts', 'utf8'));
    expect([...new Set(imports)]).toEqual(['../../generated/validators/validators.js', '../../generated/routes/routes.ts']);
    // The rows themselves are pure data (generated from the corpus route table): the module imports nothing.
    expect(specifiers(readFileSync('generated/routes/routes.ts', 'utf8'))).toEqual([]);
  });
});
