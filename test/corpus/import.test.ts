/** The validators module imports unchanged in Node (plain ESM), Vitest (this file) and a Vite build. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import * as V from '../../generated/validators/validators.js';
import { REPO } from '../generator/helpers.ts';

const MODULE = join(REPO, 'generated/validators/validators.js');
const NODE = join(REPO, 'node_modules/.bin/node');
const probe = (spec: string) => `import { validatorIndex } from ${JSON.stringify(spec)};
const v = validatorIndex.RunEvent.validator;
const base = { eventId: 'a', runId: 'b', type: 'x.y', payload: {}, sequence: 0 };
console.log(JSON.stringify({ n: Object.keys(validatorIndex).length, good: v({ ...base, timestamp: '2026-01-01T00:00:00Z' }), badFormat: v({ ...base, timestamp: 'nope' }), long: validatorIndex.EventTypeName.validator('a'.repeat(201)) }));
`;
const expected = { n: Object.keys(V.validatorIndex).length, good: true, badFormat: false, long: false };

describe('validators module portability', () => {
  it('Vitest', () => {
    const v = V.validatorIndex.RunEvent.validator;
    expect(v({ eventId: 'a', runId: 'b', type: 'x.y', payload: {}, sequence: 0, timestamp: 'nope' })).toBe(false);
    expect(v.errors?.[0]?.keyword).toBe('format');
  });

  it('plain Node ESM', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wopkit-node-'));
    try {
      writeFileSync(join(dir, 'probe.mjs'), probe(MODULE));
      const r = spawnSync(NODE, [join(dir, 'probe.mjs')], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a Vite build (Rollup/Rolldown CommonJS interop)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wopkit-vite-'));
    try {
      writeFileSync(join(dir, 'entry.js'), probe(MODULE));
      await build({
        root: dir,
        logLevel: 'silent',
        configFile: false,
        build: { outDir: join(dir, 'dist'), minify: false, lib: { entry: join(dir, 'entry.js'), formats: ['es'], fileName: 'out' } },
      });
      const r = spawnSync(NODE, [join(dir, 'dist/out.mjs')], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
