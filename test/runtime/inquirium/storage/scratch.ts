/** Fresh directories under one root per test file, removed after the file's tests. */
import { afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function scratchDirs(name: string): () => string {
  const root = mkdtempSync(join(tmpdir(), `wopkit-${name}-`));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return () => mkdtempSync(join(root, 'd-'));
}

/** A path `log.jsonl` in a fresh directory. */
export function scratchLogs(name: string): () => string {
  const dir = scratchDirs(name);
  return () => join(dir(), 'log.jsonl');
}
