/**
 * Watch sees every save, however the editor saves: 80 saves of four kinds — written in place, written to a temporary
 * file and renamed over (sed -i, safe-write editors), vim's sequence (the `4913` probe, a `.swp` file, the original
 * renamed to `file~`, a new file written, the backup removed), deleted then recreated — each regenerates, and after
 * each one generated/ shows that save's content; at the end generated/ is exactly what `gen` writes from the final
 * corpus. Plus a folder created while watching (a new example target) and a schema in it. On a corpus made by `init`.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryWatch, Watcher } from '../../generator/watch/watcher.ts';
import type { RunReport } from '../../generator/watch/session.ts';
import { run } from './helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Save = (path: string, text: string) => Promise<void>;

/** The four ways an editor saves a file. */
const SAVES: Readonly<Record<string, Save>> = {
  'write in place': async (path, text) => writeFileSync(path, text),
  'rename over': async (path, text) => {
    const tmp = `${path}.tmp${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  },
  'swap-file editor': async (path, text) => {
    const dir = join(path, '..');
    const swap = join(dir, `.${path.split('/').pop()}.swp`);
    writeFileSync(swap, 'swap');
    writeFileSync(join(dir, '4913'), ''); // vim's probe: can it create a file here?
    unlinkSync(join(dir, '4913'));
    renameSync(path, `${path}~`);
    writeFileSync(path, text);
    unlinkSync(`${path}~`);
    unlinkSync(swap);
  },
  'delete and recreate': async (path, text) => {
    unlinkSync(path);
    await sleep(60); // long enough for the watcher's debounce to end: a run may see the file gone
    writeFileSync(path, text);
  },
};

const SAVES_PER_KIND = 20;

describe('watch sees every save', () => {
  let root = '';
  let watcher: Watcher;
  const reports: RunReport[] = [];
  const errors: unknown[] = [];
  const schema = () => join(root, 'schemas/notes/v1/note.schema.json');
  const typesModule = () => join(root, 'generated/ts/note.ts');

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'watch-saves-'));
    expect((await run(['init', root, '--family', 'notes'])).code).toBe(0);
    watcher = new Watcher(root, { onReport: (r) => reports.push(r), onError: (e) => errors.push(e) });
    await watcher.start();
  });
  afterAll(async () => {
    await watcher?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** Wait until generated/ts/note.ts names `marker` (the save's content), or fail after `ms`. */
  async function shows(marker: string, ms = 10_000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      try {
        if (readFileSync(typesModule(), 'utf8').includes(marker)) return true;
      } catch {
        // removed for a moment (delete and recreate): wait for the next run
      }
      await sleep(20);
    }
    return false;
  }

  it(`regenerates each of ${Object.keys(SAVES).length * SAVES_PER_KIND} saves, and generated/ then is what gen writes`, async () => {
    const original = readFileSync(schema(), 'utf8');
    const missed: string[] = [];
    let n = 0;
    for (let i = 0; i < SAVES_PER_KIND; i++)
      for (const [kind, save] of Object.entries(SAVES)) {
        const marker = `save-${++n}-${kind.replace(/\W+/g, '-')}`;
        await save(schema(), original.replace('What the note says.', `What the note says (${marker}).`));
        if (!(await shows(marker))) missed.push(marker);
      }
    expect(missed).toEqual([]);
    expect(n).toBe(80);
    expect(errors).toEqual([]);
    // No run left over, then the files are exactly what gen writes from the final corpus (other languages aside: --all).
    await sleep(300);
    const check = await run(['gen', '--check', '--root', root, '--skip', 'other-languages', '--format', 'json']);
    expect(JSON.parse(check.out)).toMatchObject({ ok: true, stale: [], missing: [], extra: [] });
  }, 120_000);

  it('a folder created while watching (named with dots, its file written at once): a new schema and its example are picked up', async () => {
    const dir = join(root, 'schemas/notes/v1');
    const memo = JSON.parse(readFileSync(schema(), 'utf8')) as Record<string, unknown>;
    memo['$id'] = String(memo['$id']).replace('note.schema.json', 'notes.memo.v1.schema.json');
    memo['title'] = 'Memo';
    writeFileSync(join(dir, 'notes.memo.v1.schema.json'), JSON.stringify(memo, null, 2));
    await sleep(200); // the schema's run first: the example folder comes later, as an author would add it
    mkdirSync(join(dir, 'examples/notes.memo.v1/valid'), { recursive: true });
    writeFileSync(join(dir, 'examples/notes.memo.v1/valid/one.json'), JSON.stringify({ $schema: memo['$id'], id: 'm-1', text: 'folder-marker' }));
    const siteData = join(root, 'generated/site-data/notes/notes.memo.v1.json');
    const deadline = Date.now() + 10_000;
    let seen = false;
    while (!seen && Date.now() < deadline) {
      try {
        seen = readFileSync(siteData, 'utf8').includes('folder-marker');
      } catch {
        // not written yet
      }
      if (!seen) await sleep(20);
    }
    expect(seen).toBe(true);
    expect(watcher.session.root).toBe(root);
  }, 30_000);
});

describe('DirectoryWatch', () => {
  it('watches every folder as they come and go; an editor temporary causes no change, a removed folder does', async () => {
    const root = mkdtempSync(join(tmpdir(), 'dir-watch-'));
    let changes = 0;
    const w = new DirectoryWatch(root, () => changes++, (e) => {
      throw e;
    });
    try {
      mkdirSync(join(root, 'a/b'), { recursive: true });
      await sleep(100);
      expect(w.directories).toEqual([root, join(root, 'a'), join(root, 'a/b')]);
      const before = changes;
      writeFileSync(join(root, 'a/b/4913'), '');
      unlinkSync(join(root, 'a/b/4913'));
      writeFileSync(join(root, 'a/b/.x.json.swp'), '');
      await sleep(100);
      expect(changes).toBe(before);
      writeFileSync(join(root, 'a/b/x.json'), '{}');
      await sleep(100);
      expect(changes).toBeGreaterThan(before);
      const afterFile = changes;
      rmSync(join(root, 'a'), { recursive: true });
      await sleep(100);
      expect(changes).toBeGreaterThan(afterFile);
      expect(w.directories).toEqual([root]);
    } finally {
      w.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
