/**
 * @wopkit/validators in a browser: the assembled package folder served as static files, its entry points imported as
 * plain ES modules by Chromium (no bundler), a valid and an invalid MemoryEntry validated, a guard's failure and a run
 * event dispatched. Proves the package needs nothing Node-only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { PACKAGES, manifestOf, packageDir, ROOT, skipUnbuilt } from '../support/built-package.ts';
import { toolchain } from '../support/toolchains.ts';
import { VALIDATORS_PACKAGE } from '../../scripts/package-layout.ts';
import { launchChromium, serveStatic } from '../site/serve.ts';

const chromium = toolchain('chromium');
const skip = skipUnbuilt() || chromium.skip;
const example = (rel: string) => {
  const { $schema: _editorsOnly, ...rest } = JSON.parse(readFileSync(join(ROOT, 'schemas/openwop/v1/examples', rel), 'utf8')) as Record<string, unknown>;
  return rest;
};

describe.skipIf(skip)('@wopkit/validators in Chromium', () => {
  let browser: Browser;
  let server: { base: string; close: () => void };
  beforeAll(async () => {
    chromium.assert();
    const p = PACKAGES.find((x) => x.name === VALIDATORS_PACKAGE)!;
    server = await serveStatic(packageDir(p));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('imports every entry point as an ES module and validates, guards and dispatches as in Node', async () => {
    const p = PACKAGES.find((x) => x.name === VALIDATORS_PACKAGE)!;
    const entry = (sub: string) => {
      // A pattern subpath (./validate/*) resolves as Node resolves it: its target with the star replaced.
      const [pattern, star] = sub.startsWith('./validate/') ? ['./validate/*', sub.slice('./validate/'.length)] : [sub, ''];
      const target = manifestOf(p).exports[pattern]!;
      return `${server.base}/${(typeof target === 'string' ? target : target.default).replace('*', star).replace(/^\.\//, '')}`;
    };
    const page = await browser.newPage();
    await page.goto(`${server.base}/package.json`);
    const args = {
      urls: { validators: entry('.'), guards: entry('./guards'), runEvents: entry('./run-events'), one: entry('./validate/MemoryEntry') },
      valid: example('memory-entry/valid/with-ttl.json'),
      invalid: example('memory-entry/invalid/bad-created-at.json')['instance'],
      event: example('run-event/valid/commitment-fired.json'),
    };
    // A string, so that the test runner's transform does not rewrite the browser's own import().
    const script = `(async ({ urls, valid, invalid, event }) => {
      const v = await import(urls.validators);
      const g = await import(urls.guards);
      const r = await import(urls.runEvents);
      const one = await import(urls.one);
      let thrown = '';
      try { g.assertMemoryEntry(invalid); } catch (e) { thrown = e.name + ': ' + e.failures[0].instancePath; }
      return {
        valid: v.validateMemoryEntry(valid),
        invalid: v.validateMemoryEntry(invalid),
        errors: (v.validateMemoryEntry.errors || []).map((e) => [e.instancePath, e.keyword]),
        thrown,
        event: r.validateRunEvent(event),
        count: Object.keys(v.validatorIndex).length,
        one: [one.validateMemoryEntry(valid), one.validateMemoryEntry['~standard'].validate(invalid).issues.map((i) => i.path)],
      };
    })(${JSON.stringify(args)})`;
    const result = (await page.evaluate(script)) as { count: number };
    expect(result).toMatchObject({ valid: true, invalid: false, errors: [['/createdAt', 'format']], thrown: 'ValidationError: /createdAt', event: { valid: true, known: true }, one: [true, [['createdAt']]] });
    expect(result.count).toBeGreaterThan(100);
  }, 120_000);
});
