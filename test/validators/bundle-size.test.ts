/**
 * The validators tree-shake: what a bundler (esbuild, `--bundle --minify`) keeps of the generated validators for a page
 * that imports one of them, against Ajv + ajv-formats compiling the same schema bundled the same way (measured here,
 * not remembered), and against the whole validators package. A module with a top-level side effect would be kept
 * whole by every bundle that reaches it, so the last test holds every generated module free of them.
 */
import { describe, expect, it } from 'vitest';
import { buildSync } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = process.cwd();
const VALIDATORS = join(ROOT, 'generated/validators');

interface Size {
  readonly bytes: number;
  readonly gzip: number;
}

/** esbuild's bundle of `page` (an ES module; imports resolve from the repository root), minified, and its gzip size. */
function bundle(page: string, loader: 'js' | 'ts' = 'js'): Size & { readonly code: string } {
  const out = buildSync({
    stdin: { contents: page, resolveDir: ROOT, loader, sourcefile: `page.${loader}` },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text;
  return { code, bytes: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length };
}

const USE = 'console.log(validateMemoryEntry({}), validateMemoryEntry.errors, validateMemoryEntry["~standard"].validate({}));';

/** Ajv 2020 + ajv-formats compiling the MemoryEntry schema at run time: the peer a user would otherwise bundle. */
const AJV_PAGE = `
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import schema from './schemas/openwop/v1/memory-entry.schema.json';
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validateMemoryEntry = ajv.compile(schema);
console.log(validateMemoryEntry({}), validateMemoryEntry.errors);
`;

describe('validators bundle only what a page imports', () => {
  const ajv = bundle(AJV_PAGE);

  it.each([
    ['the barrel', `import { validateMemoryEntry } from './generated/validators/validators.js';\n${USE}`],
    ['its own module (the ./validate/MemoryEntry subpath)', `import { validateMemoryEntry } from './generated/validators/by-type/MemoryEntry.js';\n${USE}`],
  ])('validateMemoryEntry from %s: at most 8 KB gzip and a quarter of Ajv + ajv-formats + the schema', (_from, page) => {
    const one = bundle(page);
    expect(ajv.bytes, 'the Ajv peer bundles (sanity)').toBeGreaterThan(50_000);
    expect(one.gzip).toBeLessThanOrEqual(8 * 1024);
    expect(one.gzip / ajv.gzip, `gzip: ours ${one.gzip} B, Ajv's ${ajv.gzip} B`).toBeLessThanOrEqual(0.25);
    expect(one.bytes / ajv.bytes, `minified: ours ${one.bytes} B, Ajv's ${ajv.bytes} B`).toBeLessThanOrEqual(0.25);
    // Only MemoryEntry's own checks: no other type's schema file name is in the bundle.
    expect(one.code.includes('memory-entry.schema.json'), 'its own schema file is named').toBe(true);
    expect(one.code.includes('capabilities.schema.json'), 'another type is left out').toBe(false);
  });

  it('validateRunEvent alone is at most half of the whole package (validators, guards and run events)', () => {
    const whole = bundle(
      ["export * from './generated/validators/validators.js';", "export * from './generated/guards/index.ts';", "export * from './generated/run-events/index.ts';"].join('\n'),
      'ts',
    );
    const runEvent = bundle("import { validateRunEvent } from './generated/run-events/index.ts';\nconsole.log(validateRunEvent({}));", 'ts');
    expect(runEvent.bytes / whole.bytes, `validateRunEvent ${runEvent.bytes} B of ${whole.bytes} B`).toBeLessThanOrEqual(0.5);
    // Its payload validators are there; a validator no run event uses is not.
    expect(runEvent.code.includes('run-event-payloads.schema.json'), 'its payloads are in').toBe(true);
    expect(runEvent.code.includes('inquirium.'), 'no Inquirium validator is in').toBe(false);
    expect(runEvent.code.includes('memory-entry.schema.json'), 'no MemoryEntry validator is in').toBe(false);
  });

  it('no generated validator, guard or run-event module has a top-level side effect (importing them all for effect bundles nothing)', () => {
    const modules = [
      ...readdirSync(VALIDATORS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js')).map((f) => `./generated/validators/${f}`),
      './generated/guards/index.ts',
      './generated/guards/failures.ts',
      './generated/run-events/index.ts',
    ];
    expect(modules.length).toBeGreaterThan(100);
    const page = modules.map((m) => `import ${JSON.stringify(m)};`).join('\n');
    const kept = bundle(page, 'ts').code;
    expect(kept.length, `kept: ${kept.slice(0, 300)}`).toBe(0);
  });
});
