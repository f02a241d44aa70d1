#!/usr/bin/env -S npx tsx
/**
 * `wopkit certify` against a fresh `npm start` takes at most 1.2× the plain suite run on the same host (issue 39).
 *
 * Starts one reference host the way an operator does (`npm start` on a fresh SQLite data directory, the conformance
 * fixtures seeded, a credentials file with an operator key and the published signing key), then runs, alternately
 * and each as a fresh process, the plain suite (`npm run conformance -- --strict --no-write`) and certify
 * (`npm run cli -- certify --strict …`, which runs the same suite, captures discovery, cuts, signs and writes the
 * bundle), ROUNDS times each; prints the medians and their ratio, and verifies the last bundle with
 * `certify verify` against the live host. Exit 1 when the ratio exceeds 1.2 or the bundle does not verify.
 *
 *   npx tsx bench/conformance/certify-vs-suite.ts        (ROUNDS=3 by default)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateKeyPairSync } from 'node:crypto';
import { signingKeyEntry } from '../../conformance/certify/keys.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TOKEN = `certify-bench-${Date.now()}-0123456789`;
const work = mkdtempSync(join(tmpdir(), 'wopkit-certify-bench-'));
const freePort = () => new Promise<number>((ok) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => ok(port)); }); });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const { privateKey } = generateKeyPairSync('ed25519');
const keyFile = join(work, 'key.pem');
writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
const credentials = join(work, 'credentials.json');
writeFileSync(credentials, JSON.stringify({ keys: [{ id: 'operator', role: 'operator', key: TOKEN }], signingKeys: [signingKeyEntry(privateKey)] }));

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const host = spawn('npm', ['start', '--', '--port', String(port), '--data-dir', join(work, 'data'), '--credentials', credentials], { env: { ...process.env, OPENWOP_CONFORMANCE_SEED: 'true', LOG_LEVEL: 'warn' }, detached: true, stdio: 'ignore' });
const stop = () => { try { if (host.pid !== undefined) process.kill(-host.pid, 'SIGTERM'); } catch { /* gone */ } };
let code = 1;
try {
  for (let i = 0; ; i++) {
    if (i > 240) throw new Error('the host did not become ready in 60 s');
    try { if ((await fetch(`${url}/readyz`)).status === 200) break; } catch { /* not yet */ }
    await sleep(250);
  }
  const timed = (args: string[]) => { const t0 = performance.now(); const r = spawnSync('npm', ['run', '-s', ...args], { encoding: 'utf8' }); const ms = performance.now() - t0; if (r.status !== 0) throw new Error(`npm run ${args.join(' ')} exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`); return ms; };
  const plain: number[] = [];
  const certify: number[] = [];
  const out = join(work, 'bundles');
  for (let r = 0; r < ROUNDS; r++) {
    plain.push(timed(['conformance', '--', '--base-url', url, '--api-key', TOKEN, '--strict', '--no-write']));
    certify.push(timed(['cli', '--', 'certify', '--base-url', url, '--api-key', TOKEN, '--strict', '--key', keyFile, '--out', out, '--build', 'commit:bench']));
  }
  const bundle = join(out, readdirSync(out).sort().at(-1)!);
  const verified = spawnSync('npm', ['run', '-s', 'cli', '--', 'certify', 'verify', bundle], { encoding: 'utf8' });
  const ratio = median(certify) / median(plain);
  process.stdout.write(`plain suite: ${plain.map((x) => x.toFixed(0)).join(', ')} ms (median ${median(plain).toFixed(0)})\ncertify:     ${certify.map((x) => x.toFixed(0)).join(', ')} ms (median ${median(certify).toFixed(0)})\nratio ${ratio.toFixed(2)} (bound 1.2); verify: ${verified.stdout.trim()}\n`);
  code = ratio <= 1.2 && verified.status === 0 ? 0 : 1;
} finally {
  stop();
  await sleep(500);
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
