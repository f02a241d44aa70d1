/**
 * The assembled packages tree-shake as the generated tree does (test/validators/bundle-size.test.ts): esbuild
 * (`--bundle --minify`) resolving the packages by name from dist/, as an application bundling them would, honouring
 * `"sideEffects": false`. One validator from the barrel, from its `./validate/<Title>` subpath or from
 * `wopkit/validators/<Title>` is at most 8 KB gzip and a quarter of Ajv + ajv-formats + the schema; `validateRunEvent`
 * is at most half of the whole package.
 */
import { describe, expect, it } from 'vitest';
import { buildSync } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { ROOT, skipUnbuilt } from '../support/built-package.ts';

const skip = skipUnbuilt();

function bundle(page: string, resolveDir: string): { bytes: number; gzip: number; code: string } {
  const out = buildSync({ stdin: { contents: page, resolveDir, loader: 'js' }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
  const code = out.outputFiles[0]!.text;
  return { code, bytes: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length };
}

describe.skipIf(skip)('the assembled packages in a bundler', () => {
  const dist = join(ROOT, 'dist');
  const ajv = () =>
    bundle(
      "import Ajv2020 from 'ajv/dist/2020.js'; import addFormats from 'ajv-formats'; import schema from './schemas/openwop/v1/memory-entry.schema.json';\n" +
        'const ajv = new Ajv2020({ allErrors: true, strict: false }); addFormats(ajv); const v = ajv.compile(schema); console.log(v({}), v.errors);',
      ROOT,
    );

  it.each(['@wopkit/validators', '@wopkit/validators/validate/MemoryEntry', 'wopkit/validators/MemoryEntry'])(
    'validateMemoryEntry from %s: at most 8 KB gzip and a quarter of the Ajv peer',
    (specifier) => {
      const peer = ajv();
      const one = bundle(`import { validateMemoryEntry as v } from '${specifier}';\nconsole.log(v({}), v.errors, v['~standard'].validate({}));`, dist);
      expect(one.gzip).toBeLessThanOrEqual(8 * 1024);
      expect(one.gzip / peer.gzip, `gzip: ${one.gzip} B of ${peer.gzip} B`).toBeLessThanOrEqual(0.25);
      expect(one.bytes / peer.bytes, `minified: ${one.bytes} B of ${peer.bytes} B`).toBeLessThanOrEqual(0.25);
      expect(one.code.includes('capabilities.schema.json'), 'another type is left out').toBe(false);
    },
  );

  it('validateRunEvent from @wopkit/validators/run-events: at most half of the whole package', () => {
    const whole = bundle("export * from '@wopkit/validators'; export * from '@wopkit/validators/guards'; export * from '@wopkit/validators/run-events';", dist);
    const runEvent = bundle("import { validateRunEvent } from '@wopkit/validators/run-events';\nconsole.log(validateRunEvent({}));", dist);
    expect(runEvent.bytes / whole.bytes, `${runEvent.bytes} B of ${whole.bytes} B`).toBeLessThanOrEqual(0.5);
    expect(runEvent.code.includes('inquirium.'), 'no Inquirium validator is in').toBe(false);
  });
});
