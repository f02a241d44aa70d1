/**
 * Acceptance path as a user runs it: the host entry point (`npm start` = tsx runtime/host/main.ts) as a separate
 * process on loopback, then the conformance CLI against the URL it printed, strict: every scenario passes.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../conformance/cli.ts';
import { SCENARIOS } from '../../conformance/scenarios/index.ts';

const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

describe('npm start + conformance --base-url (separate process, strict)', () => {
  it('the started host prints its URL and token, and passes every scenario', async () => {
    const token = 'e2e-start-token-0123456789';
    // The default store (SQLite) in a fresh data directory, so no earlier run's data is read.
    const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-e2e-'));
    const child = spawn(process.execPath, [tsxCli, 'runtime/host/main.ts', '--data-dir', dataDir], { env: { ...process.env, PORT: '0', OPENWOP_HOST_TOKEN: token, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`host did not start: ${out}`)), 30_000);
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m && out.includes(`token:     ${token}`)) { clearTimeout(timer); resolve(m[1]!); }
        });
        child.on('exit', (code) => reject(new Error(`host exited ${code}: ${out}`)));
      });
      let out = '';
      const code = await main(['--base-url', url, '--api-key', token, '--strict', '--no-write'], {}, (s) => { out += s; }, () => {});
      expect(out).toContain(`${SCENARIOS.length} passed, 0 failed, 0 skipped`);
      expect(code).toBe(0);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
