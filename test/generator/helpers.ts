import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../generator/cli.ts';

export const REPO = resolve(import.meta.dirname, '../..');
export const FIXTURE = join(REPO, 'test/fixtures/corpus');

/** A scratch copy of the fixture corpus (schemas only), removed by the returned cleanup. */
export function scratchFixture(): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'wopkit-'));
  cpSync(join(FIXTURE, 'schemas'), join(root, 'schemas'), { recursive: true });
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Run the CLI in-process, capturing output. */
export async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
