/** Progress lines: a step line per stage with its time on stderr when it is a terminal and the format is text; --progress forces them. */
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../generator/cli.ts';
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
    const r = await runWith(['gen', '--root', root], true);
    expect(r.code).toBe(0);
    const stages = r.err.map((l) => /^gen › (.+) \d+(\.\d)? (ms|s)$/.exec(l)?.[1]);
    expect(stages).toEqual([
      'load the generator',
      'load and resolve',
      'check what gen needs',
      'compile TypeScript declarations',
      'emit types',
      'emit validators',
      'emit guards',
      'emit run-events',
      'emit site-data',
      'emit readme',
      'emit openapi',
      'emit other-languages',
      'write',
      'record the input hash',
    ]);
    expect(r.out).toMatch(/^gen: \d+ files/);
  });

  it('quiet when stderr is not a terminal, and for json output even on a terminal', async () => {
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
