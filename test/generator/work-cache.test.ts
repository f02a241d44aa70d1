/**
 * The generator's disk cache of slow pure steps (generator/work-cache.ts): entries are found by key and salt only,
 * the newest are kept, `WOPKIT_GEN_CACHE` turns it off or moves it, and `gen` writes the same files from a warm cache
 * as with the cache off.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskCache, cacheRoot } from '../../generator/work-cache.ts';
import { declareTypes } from '../../generator/emit/ts-declarations.ts';
import { loadCorpus } from '../../generator/load.ts';
import { resolveCorpus } from '../../generator/resolve.ts';
import { ownedFilesOnDisk } from '../../generator/write.ts';
import { EMITTERS } from '../../generator/emitters.ts';
import { FIXTURE, run, scratchFixture } from './helpers.ts';

const scratch: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'wopkit-work-cache-'));
  scratch.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
  delete process.env['WOPKIT_GEN_CACHE'];
});

describe('DiskCache', () => {
  it('finds an entry by key and salt, and nothing else', () => {
    const root = tempDir();
    const cache = new DiskCache(root, 'ns', 'salt-1');
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', 'value');
    expect(cache.get('k')).toBe('value');
    expect(cache.get('k2')).toBeUndefined();
    expect(new DiskCache(root, 'ns', 'salt-2').get('k')).toBeUndefined();
    expect(new DiskCache(root, 'other', 'salt-1').get('k')).toBeUndefined();
    expect(new DiskCache(root, 'ns', 'salt-1').get('k')).toBe('value');
  });

  it('keeps the newest entries of a namespace', () => {
    const root = tempDir();
    const cache = new DiskCache(root, 'ns', 'salt', 3);
    for (let i = 0; i < 52; i++) cache.set(`k${i}`, `v${i}`); // pruning runs on the 1st and the 51st write
    expect(readdirSync(join(root, 'ns')).length).toBeLessThanOrEqual(3 + 1);
    expect(cache.get('k51')).toBe('v51');
    expect(cache.get('k0')).toBeUndefined();
  });

  it('WOPKIT_GEN_CACHE: 0 or off turns it off, a path moves it, unset is node_modules/.cache', () => {
    expect(cacheRoot({ WOPKIT_GEN_CACHE: '0' })).toBeUndefined();
    expect(cacheRoot({ WOPKIT_GEN_CACHE: 'off' })).toBeUndefined();
    expect(cacheRoot({ WOPKIT_GEN_CACHE: '/somewhere/else' })).toBe('/somewhere/else');
    expect(cacheRoot({})).toMatch(/node_modules[\\/]\.cache[\\/]wopkit-gen$/);
  });
});

describe('declarations through a cache', () => {
  it('a hit is what the cache holds (the lookup is used); the key is the projection, so an edit misses', async () => {
    const r = resolveCorpus(loadCorpus(FIXTURE));
    const cache = new Map<string, string>();
    const plain = await declareTypes(r);
    const cached = await declareTypes(r, cache);
    expect([...cached].map(([t, d]) => [t, d.text])).toEqual([...plain].map(([t, d]) => [t, d.text]));
    expect(cache.size).toBe(r.types.length);
    for (const k of cache.keys()) cache.set(k, `// from the cache: ${k.split('\n')[0]}`);
    const poisoned = await declareTypes(r, cache);
    expect(poisoned.get(r.types[0]!.title)?.text).toBe(`// from the cache: ${r.types[0]!.title}`);
    const edited = loadCorpus(FIXTURE);
    const file = edited.schemas.find((f) => f.path === r.types[0]!.file.path)!;
    (file.schema as Record<string, unknown>)['description'] = 'Described differently.';
    const again = await declareTypes(resolveCorpus(edited), cache);
    expect(again.get(r.types[0]!.title)?.text).not.toMatch(/from the cache/);
  });
});

describe('gen with the cache', () => {
  it('writes the same files from a warm cache as with the cache off', async () => {
    const snapshot = (root: string) => {
      const owns = EMITTERS.flatMap((e) => e.owns);
      return Object.fromEntries(ownedFilesOnDisk(root, owns).map((p) => [p, readFileSync(join(root, p), 'utf8')]));
    };
    const off = scratchFixture();
    const warm = scratchFixture();
    scratch.push(off.root, warm.root);
    process.env['WOPKIT_GEN_CACHE'] = '0';
    expect((await run(['gen', '--all', '--root', off.root])).code).toBe(0);
    process.env['WOPKIT_GEN_CACHE'] = tempDir();
    expect((await run(['gen', '--all', '--root', warm.root])).code).toBe(0); // fills the cache
    rmSync(join(warm.root, 'generated'), { recursive: true, force: true });
    // gen without --all serves the other-language types from the cache: the same files as a full render
    expect((await run(['gen', '--root', warm.root])).code).toBe(0);
    expect(readdirSync(process.env['WOPKIT_GEN_CACHE']).sort()).toEqual(['declarations', 'other-languages']);
    expect(snapshot(warm.root)).toEqual(snapshot(off.root));
  }, 180_000);
});
