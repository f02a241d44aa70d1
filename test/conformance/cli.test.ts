import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../conformance/cli.ts';
import { createHost } from '../../runtime/host/server.ts';

const run = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  let out = '';
  let err = '';
  const code = await main(argv, env, (s) => { out += s; }, (s) => { err += s; });
  return { code, out, err };
};

describe('conformance CLI', () => {
  it('exit 2 with a clear message for a missing base URL, bad flags, an unreachable host', async () => {
    expect(await run([])).toMatchObject({ code: 2, err: expect.stringContaining('base URL is required') });
    expect(await run(['--bogus'])).toMatchObject({ code: 2, err: expect.stringContaining('bogus') });
    expect(await run(['--base-url', 'ftp://x'])).toMatchObject({ code: 2 });
    expect(await run(['--base-url', 'http://127.0.0.1:9', '--no-write'])).toMatchObject({ code: 2, err: expect.stringContaining('cannot reach') });
    expect(await run(['--base-url', 'http://127.0.0.1:9', '--format', 'xml'])).toMatchObject({ code: 2 });
  });
  it('reads OPENWOP_* from the environment, writes the results files and exits 0 when all pass', async () => {
    const { app } = await createHost({ token: 'cli-test-token-0123456789' });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const out = mkdtempSync(join(tmpdir(), 'wopkit-conf-'));
    try {
      const r = await run(['--out', out, '--only', 'agent-memory-redaction'], { OPENWOP_BASE_URL: url, OPENWOP_API_KEY: 'cli-test-token-0123456789', OPENWOP_REQUIRE_BEHAVIOR: 'true' });
      expect(r.code).toBe(0);
      expect(r.out).toContain('1 passed, 0 failed, 0 skipped');
      const files = readdirSync(out).sort();
      expect(files).toHaveLength(2);
      expect(files).toContain('wopkit-reference-host.latest.json');
      expect(JSON.parse(readFileSync(join(out, 'wopkit-reference-host.latest.json'), 'utf8')).strict).toBe(true);
      const bad = await run(['--base-url', url, '--no-write', '--only', 'agent-memory-redaction']);
      expect(bad.code).toBe(1); // no API key: every call is 401 → the scenario fails
    } finally {
      await app.close();
    }
  });
});
