/** Progress lines: a step line per stage with its time on stderr when it is a terminal and the format is text; --progress forces them. */
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../generator/cli.ts';
import { DEFER_MS, HEARTBEAT_MS, progressFor } from '../../generator/commands/progress.ts';
import { scratchFixture } from './helpers.ts';

async function runWith(argv: string[], errIsTerminal: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), errIsTerminal });
  return { code, out: out.join('\n'), err };
}

describe('progress lines', () => {
  const scratch = scratchFixture();
  const root = scratch.root;
  afterAll(scratch.cleanup);

  it('gen on a terminal, text format: one line per stage and per emitter, each with its time', async () => {
    const stagesOf = (err: string[]) => err.map((l) => /^gen › (.+) \d+(\.\d)? (ms|s)$/.exec(l)?.[1]);
    // (no openapi: the fixture corpus's settings do not ask for the reference host's document)
    const quick = ['emit types', 'emit validators', 'emit guards', 'emit run-events', 'emit site-data', 'emit readme', 'emit routes', 'emit majors'];
    const all = await runWith(['gen', '--all', '--root', root], true);
    expect(all.code).toBe(0);
    const stages = stagesOf(all.err);
    // the declarations compile alongside the check and the first emitters: their line comes when they are ready
    expect(stages.filter((x) => x !== 'compile TypeScript declarations').slice(0, 3)).toEqual(['load the generator', 'load and resolve', 'check what gen needs']);
    expect(stages.filter((x) => x === 'compile TypeScript declarations')).toHaveLength(1);
    // other-languages renders alongside: its line comes when it ends, before or after the quick emitters' lines
    expect(stages.filter((s) => s?.startsWith('emit ') && s !== 'emit other-languages')).toEqual(quick);
    expect(stages).toContain('emit other-languages');
    expect(stages.slice(-3)).toEqual(['write', "write the slow emitters' files", 'record the input hash']);
    expect(all.out).toMatch(/^gen: \d+ files/);
    // gen alone takes the other-language types from the cache (filled just now): no rendering, nothing left out
    const plain = await runWith(['gen', '--root', root], true);
    expect(stagesOf(plain.err).filter((x) => x !== 'compile TypeScript declarations')).toEqual([
      'load the generator', 'load and resolve', 'check what gen needs', 'other-languages from the cache',
      ...quick, 'emit other-languages', 'write', 'record the input hash',
    ]);
    expect(stagesOf(plain.err)).toContain('compile TypeScript declarations');
  });

  it('quiet for a quick run when stderr is not a terminal, and for json output even on a terminal', async () => {
    expect((await runWith(['lint', '--root', root], false)).err).toEqual([]);
    const json = await runWith(['lint', '--root', root, '--format', 'json'], true);
    expect(json.err).toEqual([]);
    expect(JSON.parse(json.out).ok).toBe(true);
  });

  it('--progress forces the lines, also for json and off a terminal (stdout stays machine-readable)', async () => {
    const r = await runWith(['lint', '--root', root, '--format', 'json', '--progress'], false);
    expect(r.err).toEqual([expect.stringMatching(/^lint › load and resolve \d+ ms$/), expect.stringMatching(/^lint › check the rules \d+(\.\d)? m?s$/)]);
    expect(JSON.parse(r.out).ok).toBe(true);
  });
});

describe('progress off a terminal (piped text output)', () => {
  /** A clock the test moves by hand, with the interval the printer sets. */
  function fakeClock() {
    let now = 0;
    let tick: (() => void) | undefined;
    return {
      clock: { now: () => now, every: (_ms: number, fn: () => void) => ((tick = fn), { cancel: () => (tick = undefined) }) },
      advance: (ms: number) => {
        now += ms;
        tick?.();
      },
      ticking: () => tick !== undefined,
    };
  }
  const piped = (err: string[]) => ({ out: () => {}, err: (s: string) => err.push(s), errIsTerminal: false });
  const invocation = { command: 'gen', format: 'text' as const, flags: new Set<string>() };

  it('a run that ends within a second prints nothing', () => {
    const err: string[] = [];
    const t = fakeClock();
    const p = progressFor(invocation, piped(err), t.clock);
    p.step('load and resolve', () => t.advance(300));
    p.stage('emit types', 200);
    t.advance(400);
    p.done();
    expect(err).toEqual([]);
    expect(t.ticking()).toBe(false);
  });

  it('once a run has taken a second: the lines so far, then each as it ends, and a still-working line every few seconds', async () => {
    const err: string[] = [];
    const t = fakeClock();
    const p = progressFor(invocation, piped(err), t.clock);
    p.step('load and resolve', () => t.advance(400));
    expect(err).toEqual([]);
    const rendering = p.step('emit other-languages', () => new Promise<void>((resolve) => setTimeout(resolve, 0)));
    t.advance(DEFER_MS);
    expect(err).toEqual(['gen › load and resolve 400 ms']);
    t.advance(HEARTBEAT_MS);
    expect(err[1]).toBe('gen › still working: emit other-languages (6.4 s so far)');
    await rendering;
    expect(err[2]).toMatch(/^gen › emit other-languages \d/);
    p.done();
  });

  it('machine formats stay quiet off a terminal however long the run', () => {
    const err: string[] = [];
    const t = fakeClock();
    const p = progressFor({ ...invocation, format: 'json' }, piped(err), t.clock);
    p.step('load and resolve', () => t.advance(5000));
    t.advance(10_000);
    p.done();
    expect(err).toEqual([]);
  });
});
