/**
 * `wopkit gen --watch` on a temporary copy of the fixture corpus, as a real process: an edit is regenerated, a
 * malformed save is reported with file and line and the loop keeps going, the fix is picked up, Ctrl-C (SIGINT) stops
 * it with exit 0, and generated/ then equals what gen writes. Plus the session's table of emitters that read examples.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE, REPO, scratchFixture } from './helpers.ts';
import { loadCorpus } from '../../generator/load.ts';
import { resolveCorpus } from '../../generator/resolve.ts';
import { emitAll } from '../../generator/emit.ts';
import { EMITTERS, emittersFor } from '../../generator/emitters.ts';
import { DEFAULT_CONFIG } from '../../generator/corpus-config.ts';
import { checkFiles } from '../../generator/write.ts';
import { EXAMPLE_READERS, SLOW_EMITTERS, WatchSession, type RunReport } from '../../generator/watch/session.ts';
import { reportLines } from '../../generator/watch/command.ts';

type Event = { event: string } & Partial<RunReport>;

/** A running `gen --watch --format json` and the events it printed. */
class WatchProcess {
  readonly events: Event[] = [];
  readonly child: ChildProcess;
  private buffer = '';
  stderr = '';

  /**
   * With `viaShell`, started the way `npm exec` starts a bin: through `sh -c`, which stays the watcher's parent (the
   * `; true` keeps any shell from replacing itself with the command).
   */
  constructor(root: string, options: { viaShell?: boolean } = {}) {
    const args = [join(REPO, 'generator/cli.ts'), 'gen', '--watch', '--root', root, '--format', 'json'];
    const node = join(REPO, 'node_modules/.bin/node');
    this.child = options.viaShell
      ? spawn('sh', ['-c', `${[node, ...args].map((a) => `'${a}'`).join(' ')}; true`], { cwd: REPO })
      : spawn(node, args, { cwd: REPO });
    this.child.stdout?.on('data', (d: Buffer) => {
      this.buffer += d.toString();
      const lines = this.buffer.split('\n');
      this.buffer = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) this.events.push(JSON.parse(l) as Event);
    });
    this.child.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString()));
  }

  /** The first event from index `from` on that matches, waiting for it. */
  async next(from: number, match: (e: Event) => boolean, what: string, ms = 90_000): Promise<Event> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`no ${what} event; got ${JSON.stringify(this.events)}; stderr: ${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  exited(): Promise<number | null> {
    return this.child.exitCode !== null ? Promise.resolve(this.child.exitCode) : new Promise((r) => this.child.once('exit', (code) => r(code)));
  }
}

describe('gen --watch', () => {
  let root = '';
  let cleanup = () => {};
  let proc: WatchProcess;
  beforeAll(() => {
    ({ root, cleanup } = scratchFixture());
    proc = new WatchProcess(root);
  });
  afterAll(() => {
    proc.child.kill('SIGKILL');
    cleanup();
  });

  const config = () => join(root, 'schemas/demo/v1/config.schema.json');
  const shared = () => join(root, 'schemas/demo/v1/shared.schema.json');

  it('regenerates an edit, reports a malformed save and keeps going, picks up the fix, stops on SIGINT with exit 0', async () => {
    const first = await proc.next(0, (e) => e.event === 'run', 'first run');
    expect(first.problems).toEqual([]);
    await proc.next(0, (e) => e.event === 'watching', 'watching');

    // 1. An edit: a new optional property shows up in the generated TypeScript.
    let mark = proc.events.length;
    const s = JSON.parse(readFileSync(config(), 'utf8'));
    s.properties.reviewedBy = { description: 'Who reviewed the config.', type: 'string' };
    writeFileSync(config(), JSON.stringify(s, null, 2));
    const edited = await proc.next(mark, (e) => e.event === 'run' && (e.changed ?? []).includes('schemas/demo/v1/config.schema.json'), 'edit');
    expect(edited.problems).toEqual([]);
    expect(edited.written).toEqual(expect.arrayContaining(['generated/ts/config.ts', 'generated/validators/by-type/DemoConfig.js']));
    expect(readFileSync(join(root, 'generated/ts/config.ts'), 'utf8')).toMatch(/reviewedBy\?: string;/);

    // 2. A malformed save: reported with file, line and column; nothing written.
    mark = proc.events.length;
    const original = readFileSync(shared(), 'utf8');
    writeFileSync(shared(), '{\n  "title": "X",\n  oops\n}\n');
    const broken = await proc.next(mark, (e) => e.event === 'run' && (e.problems ?? []).length > 0, 'malformed');
    expect(broken.problems).toEqual([expect.objectContaining({ file: 'schemas/demo/v1/shared.schema.json', rule: 'loads', line: 3, column: 3 })]);
    expect(broken.written).toEqual([]);
    expect(proc.child.exitCode).toBeNull();

    // 3. The fix: reported as a change, no problems, the corpus is checked again.
    mark = proc.events.length;
    writeFileSync(shared(), original);
    const fixed = await proc.next(mark, (e) => e.event === 'run', 'fix');
    expect(fixed.changed).toEqual(['schemas/demo/v1/shared.schema.json']);
    expect(fixed.problems).toEqual([]);
    expect(fixed.findings).toEqual([]);

    // 4. Ctrl-C.
    proc.child.kill('SIGINT');
    expect(await proc.exited()).toBe(0);
    expect(proc.events.at(-1)?.event).toBe('stopped');
    expect(proc.stderr).toBe('');

    // generated/ is what gen writes for the emitters of the loop (other-languages is left out without --all).
    const emitters = emittersFor(DEFAULT_CONFIG).filter((e) => !SLOW_EMITTERS.has(e.name));
    const check = checkFiles(root, await emitAll(resolveCorpus(loadCorpus(root)), emitters));
    expect(check).toMatchObject({ stale: [], missing: [], extra: [] });
  }, 240_000);
});

describe('gen --watch started through a shell (as npm exec and npx start a bin)', () => {
  it('stops, with exit 0 and a stopped event, when the shell that started it ends without passing a signal on', async () => {
    const { root, cleanup } = scratchFixture();
    const proc = new WatchProcess(root, { viaShell: true });
    try {
      await proc.next(0, (e) => e.event === 'watching', 'watching');
      // The shell goes (npm forwarded Ctrl-C to it alone; it does not pass it on): the watcher must notice on its own.
      proc.child.kill('SIGKILL');
      const deadline = Date.now() + 10_000;
      while (!proc.events.some((e) => e.event === 'stopped') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(proc.events.at(-1)?.event).toBe('stopped');
    } finally {
      cleanup();
    }
  }, 60_000);
});

describe('watch session: a save gen refuses', () => {
  it('reports every reason with its file, line and column, and writes nothing', async () => {
    const { root, cleanup } = scratchFixture();
    const session = new WatchSession(root);
    try {
      expect((await session.run()).problems).toEqual([]);
      const p = join(root, 'schemas/demo/v1/config.schema.json');
      const s = JSON.parse(readFileSync(p, 'utf8'));
      s.properties.label.$ref = './shared.schema.json#/$defs/Labl';
      s.properties.parts.minItems = 'one';
      writeFileSync(p, JSON.stringify(s, null, 2));
      const r = await session.run();
      expect(r.written).toEqual([]);
      expect(r.problems.map((f) => [f.rule, f.line, f.column])).toEqual([['meta-schema', 23, 7], ['ref-resolves', 11, 7]]);
      expect(reportLines(r, false)).toContain('schemas/demo/v1/config.schema.json:11:7: #/properties/label/$ref: "$ref" "./shared.schema.json#/$defs/Labl" does not resolve offline (did you mean "./shared.schema.json#/$defs/Label"?) [ref-resolves]');
    } finally {
      await session.close();
      cleanup();
    }
  });
});

describe('watch session data', () => {
  it('EXAMPLE_READERS names exactly the emitters whose output depends on the examples', async () => {
    const full = resolveCorpus(loadCorpus(FIXTURE));
    const bare = resolveCorpus({ ...loadCorpus(FIXTURE), examples: [] });
    const readers: string[] = [];
    // An emitter that fails without examples depends on them too (quicktype has no top-level type to emit then).
    const output = (r: typeof full, e: (typeof EMITTERS)[number]) => emitAll(r, [e]).then((x) => JSON.stringify(x.files), (err: Error) => `failed: ${err.message}`);
    for (const e of EMITTERS) if ((await output(full, e)) !== (await output(bare, e))) readers.push(e.name);
    expect(readers.sort()).toEqual([...EXAMPLE_READERS].sort());
  }, 120_000);

  it('text report lines: what changed, what was written, findings with file and line, a summary', () => {
    const report: RunReport = {
      changed: ['schemas/demo/v1/config.schema.json'],
      problems: [],
      written: ['generated/ts/config.ts'],
      removed: [],
      emitters: ['types'],
      generatedMs: 120,
      firstWrittenMs: 40,
      findings: [{ file: 'schemas/demo/v1/config.schema.json', pointer: '/properties/a', rule: 'property-description', message: 'property "a" has no description', line: 12, column: 5 }],
      examplesChecked: 3,
      totalMs: 900,
    };
    expect(reportLines(report, false)).toEqual([
      'watch: changed schemas/demo/v1/config.schema.json',
      'watch: generated/ up to date in 120 ms (types and site data in 40 ms): wrote generated/ts/config.ts',
      'schemas/demo/v1/config.schema.json:12:5: #/properties/a: property "a" has no description [property-description]',
      'watch: lint and 3 examples: 1 finding (run 900 ms)',
    ]);
    expect(reportLines({ ...report, changed: [] }, false)).toEqual([]);
  });
});
