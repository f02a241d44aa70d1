/** `wopkit certify` through the CLI's own parser: help, subcommands, exit codes and the error envelope. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../generator/cli.ts';
import { bundleOf, cleanResults, keyPair, MEMORY_DISCOVERY } from './support.ts';

const dir = mkdtempSync(join(tmpdir(), 'wopkit-certify-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('wopkit certify (CLI)', () => {
  it('is listed in the overview and has its own help', async () => {
    expect((await cli(['--help'])).out).toMatch(/certify \[keygen\|verify <bundle>\|matrix-row <bundle>\]/);
    const help = await cli(['certify', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--key <file>/);
    expect(help.out).toMatch(/--discovery <url\|file>/);
  });

  it('keygen, verify and matrix-row run from the command line; verify exits 1 and names a tampered member', async () => {
    const keyFile = join(dir, 'k.pem');
    expect((await cli(['certify', 'keygen', '--out', keyFile])).code).toBe(0);
    const host = keyPair();
    const b = bundleOf(cleanResults(), host.privateKey);
    const discovery = join(dir, 'discovery.json');
    writeFileSync(discovery, JSON.stringify({ ...MEMORY_DISCOVERY, signingKeys: [host.entry] }));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(b));
    const ok = await cli(['certify', 'verify', good, '--discovery', discovery]);
    expect(ok.code, ok.out + ok.err).toBe(0);
    expect(ok.out).toMatch(/verifies .*certified: openwop-discovery-core, openwop-memory/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...b, suite: { ...b.suite, version: `${b.suite.version}x` } }));
    const no = await cli(['certify', 'verify', bad, '--discovery', discovery, '--format', 'json']);
    expect(no.code).toBe(1);
    const verdict = JSON.parse(no.out) as { ok: boolean; failures: { predicate: string; member: string }[] };
    expect(verdict.ok).toBe(false);
    expect(verdict.failures).toEqual([expect.objectContaining({ predicate: 'signature-verifies', member: 'host.build | suite.version' })]);
    const row = await cli(['certify', 'matrix-row', good]);
    expect(row.code).toBe(0);
    const cells = row.out.split(' | ');
    expect(cells).toHaveLength(9);
    expect(cells[0]).toBe('| **`test-host@1.0.0`** (build `commit:0123456789ab`)');
    expect(cells[3]).toMatch(/^`openwop-discovery-core` \(witnessCount 1\), .*`openwop-memory` \(witnessCount 4\)$/);
    expect(cells[5]).toMatch(/^\d+ \/ 0 \/ 0 \/ 0 \/ 0 \(\d+ ledger rows, \d+ assertions\)$/);
    expect(cells[8]).toBe('**`openwop-discovery-core`, `openwop-memory`** |');
  });

  it('usage and I/O errors exit 2 with the error envelope', async () => {
    const unknown = await cli(['certify', 'frobnicate', '--format', 'json']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.out)).toMatchObject({ ok: false, error: { code: 'usage', message: expect.stringMatching(/unknown certify subcommand "frobnicate"/) } });
    const noKey = await cli(['certify', '--base-url', 'http://127.0.0.1:9']);
    expect(noKey.code).toBe(2);
    expect(noKey.err).toMatch(/certify needs --key FILE/);
    const keyFile = join(dir, 'k2.pem');
    await cli(['certify', 'keygen', '--out', keyFile]);
    const unreachable = await cli(['certify', '--base-url', 'http://127.0.0.1:9', '--key', keyFile, '--format', 'json']);
    expect(unreachable.code).toBe(2);
    expect(JSON.parse(unreachable.out)).toMatchObject({ ok: false, error: { code: 'discovery_unavailable' } });
    const badBuild = await cli(['certify', '--base-url', 'http://127.0.0.1:9', '--key', keyFile, '--build', 'sha:1']);
    expect(badBuild.code).toBe(2);
    expect(badBuild.err).toMatch(/--build must be KIND:ID with KIND one of image-digest, commit, artifact-sha256/);
    // A host serving only a major certify has no suite for: refused by name, nothing written.
    const v2 = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ protocolVersions: ['2.0'], preferredVersion: '2.0', host: { build: { kind: 'commit', id: 'x' } } })));
    await new Promise<void>((ok) => v2.listen(0, '127.0.0.1', ok));
    try {
      const refused = await cli(['certify', '--base-url', `http://127.0.0.1:${(v2.address() as AddressInfo).port}`, '--key', keyFile, '--out', join(dir, 'none'), '--format', 'json']);
      expect(refused.code).toBe(2);
      expect(JSON.parse(refused.out)).toMatchObject({ ok: false, error: { code: 'major_unsupported', message: expect.stringMatching(/advertises protocol version \["2\.0"\]; certify runs major 1/) } });
    } finally {
      v2.close();
    }
    const notABundle = join(dir, 'nb.json');
    writeFileSync(notABundle, '{"bundleVersion":"2"}');
    expect((await cli(['certify', 'matrix-row', notABundle])).code).toBe(2);
    expect((await cli(['certify', 'verify', join(dir, 'missing.json'), '--discovery', notABundle])).code).toBe(2);
  });
});
