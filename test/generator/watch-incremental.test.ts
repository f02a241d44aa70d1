/**
 * Watch mode's incremental emitters, in process on a scratch copy of the fixture corpus: after each edit, generated/
 * equals what a full emission writes (for the emitters of the loop), while the validators modules written are only
 * those of the edited file and of the files that reference it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scratchFixture } from './helpers.ts';
import { loadCorpus } from '../../generator/load.ts';
import { resolveCorpus } from '../../generator/resolve.ts';
import { emitAll } from '../../generator/emit.ts';
import { EMITTERS, emittersFor } from '../../generator/emitters.ts';
import { DEFAULT_CONFIG } from '../../generator/corpus-config.ts';
import { checkFiles } from '../../generator/write.ts';
import { SLOW_EMITTERS, WatchSession } from '../../generator/watch/session.ts';
import type { JsonObject } from '../../generator/model.ts';

const SCHEMAS = 'schemas/demo/v1';
const byPath = (root: string, file: string) => join(root, SCHEMAS, file);

describe('watch session, incremental emitters', () => {
  let root = '';
  let cleanup = () => {};
  let session: WatchSession;
  beforeAll(async () => {
    ({ root, cleanup } = scratchFixture());
    session = new WatchSession(root);
    expect((await session.run()).problems).toEqual([]);
  });
  afterAll(async () => {
    await session.close();
    cleanup();
  });

  /** Edit one schema file, run the session, and return the validators modules it wrote. */
  const edit = async (file: string, change: (s: JsonObject) => void): Promise<string[]> => {
    const schema = JSON.parse(readFileSync(byPath(root, file), 'utf8')) as JsonObject;
    change(schema);
    writeFileSync(byPath(root, file), `${JSON.stringify(schema, null, 2)}\n`);
    const report = await session.run();
    expect(report.problems).toEqual([]);
    const check = checkFiles(root, await emitAll(resolveCorpus(loadCorpus(root)), emittersFor(DEFAULT_CONFIG).filter((e) => !SLOW_EMITTERS.has(e.name))));
    expect(check, `generated/ after editing ${file}`).toMatchObject({ stale: [], missing: [], extra: [] });
    return report.written.filter((p) => p.startsWith('generated/validators/by-type/')).sort();
  };
  const defs = (s: JsonObject) => s['$defs'] as Record<string, JsonObject>;

  it('an edit of a majors table regenerates the translation between majors (and no validator module)', async () => {
    const table = join(root, 'schemas/demo/majors/event-names.json');
    mkdirSync(dirname(table), { recursive: true });
    const write = (v2: string) => writeFileSync(table, `${JSON.stringify({ rows: [{ v1: 'demo.created', v2, registered: true }] }, null, 2)}\n`);
    write('demo.created');
    const first = await session.run();
    expect(first.problems).toEqual([]);
    expect(first.written).toContain('generated/majors/demo.ts');
    write('demo-thing.created');
    const second = await session.run();
    expect(second.written).toEqual(['generated/majors/demo.ts']);
    expect(readFileSync(join(root, 'generated/majors/demo.ts'), 'utf8')).toContain('"demo-thing.created"');
    rmSync(dirname(table), { recursive: true, force: true });
    expect((await session.run()).removed).toContain('generated/majors/demo.ts');
  });

  it('an edit of a file nothing references writes its module only', async () => {
    const written = await edit('config.schema.json', (s) => {
      (s['properties'] as JsonObject)['reviewedBy'] = { description: 'Who reviewed it.', type: 'string', minLength: 2 };
    });
    expect(written.filter((p) => p.endsWith('.js'))).toEqual(['generated/validators/by-type/DemoConfig.js']);
  });

  it('renaming a type of a referenced file rewrites the modules that import it (transitively), and only those', async () => {
    const written = await edit('shared.schema.json', (s) => {
      defs(s)['Label']!['title'] = 'DemoTag';
    });
    expect(written.filter((p) => p.endsWith('.js'))).toEqual([
      // the renamed type's module (the old one goes: generated/ equals a full emission) and the types that $ref it
      'generated/validators/by-type/DemoConfig.js',
      'generated/validators/by-type/DemoStartedPayload.js',
      'generated/validators/by-type/DemoTag.js',
    ]);
  });

  it('the only reference to a file removed: its document changes too (referencedBy), generated/ equals a full emission', async () => {
    const unlink = (node: unknown): unknown =>
      Array.isArray(node) ? node.map(unlink)
      : typeof node === 'object' && node !== null ?
        String((node as JsonObject)['$ref'] ?? '').startsWith('./shared.schema.json') ? { description: 'No longer a reference.', type: 'string' }
        : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, unlink(v)]))
      : node;
    await edit('run-event-payloads.schema.json', (s) => {
      const unlinked = unlink(s) as JsonObject;
      for (const k of Object.keys(s)) delete s[k];
      Object.assign(s, unlinked);
    });
  });

  it('an edited example: its site-data document follows', async () => {
    const dir = join(root, SCHEMAS, 'examples/shared/valid');
    const name = readdirSync(dir).filter((n) => n.endsWith('.json')).sort()[0]!;
    writeFileSync(join(dir, `z-${name}`), readFileSync(join(dir, name), 'utf8'));
    const report = await session.run();
    expect(report.written).toEqual(['generated/site-data/demo/shared.json']);
    const check = checkFiles(root, await emitAll(resolveCorpus(loadCorpus(root)), emittersFor(DEFAULT_CONFIG).filter((e) => !SLOW_EMITTERS.has(e.name))));
    expect(check).toMatchObject({ stale: [], missing: [], extra: [] });
  });

  it('a tightened keyword inside a referenced type: generated/ still equals a full emission', async () => {
    await edit('shared.schema.json', (s) => {
      defs(s)['Label']!['maxLength'] = 12;
    });
    await edit('run-event-payloads.schema.json', (s) => {
      s['description'] = `${String(s['description'])} (edited)`;
    });
  });
});
