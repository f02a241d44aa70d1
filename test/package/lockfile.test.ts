/**
 * `npm install` on a checkout leaves package-lock.json byte-identical: the lockfile's root entry records every
 * dependency exactly as package.json declares it (it once held `^7.12.7` for a dependency pinned `7.12.7`, and
 * every install rewrote it).
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { rootManifest, ROOT } from '../support/built-package.ts';
import { childEnv } from '../support/child-env.ts';

type Deps = Record<string, string>;

describe('package-lock.json', () => {
  it('records every dependency list of package.json exactly', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { name: string; version: string; packages: Record<string, Record<string, unknown>> };
    const root = lock.packages['']!;
    const pkg = rootManifest() as unknown as Record<string, unknown>;
    expect([lock.name, lock.version]).toEqual([pkg.name, pkg.version]);
    for (const list of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const) {
      expect(root[list] as Deps | undefined, list).toEqual(pkg[list] as Deps | undefined);
    }
  });

  it('npm install --package-lock-only on a copy of the checkout leaves it byte-identical', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wopkit-lock-'));
    try {
      for (const f of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(join(ROOT, f), join(dir, f));
      const r = spawnSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir, env: childEnv(), encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
