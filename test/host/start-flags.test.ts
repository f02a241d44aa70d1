/**
 * Issue 24, item 6: `npm start` reads its settings from one table (runtime/host/start-flags.ts). Every environment
 * variable the runtime reads appears in `npm start -- --help` (found by scanning the sources for environment reads,
 * so a new variable that skips the table fails here), every variable the table names is read somewhere, an unknown
 * flag is refused with the list of every flag, and `--port` / `--host` exist. Also: the lower-case Bearer scheme over
 * HTTP.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { argsOf, listenOf, parseStartFlags, START_SETTINGS, startHelp, StartFlagError } from '../../runtime/host/start-flags.ts';
import { LIMIT_NAMES, LIMITS } from '../../runtime/host/limits.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { tsFiles } from './sources.ts';

/** Environment variable names the runtime's sources read: `process.env.X`, `env.X`, `env['X']`, and `env: 'X'` table entries. */
function envReads(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of tsFiles('runtime')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\benv(?:\.|\[\s*['"])([A-Z][A-Z0-9_]*)|\benv:\s*['"]([A-Z][A-Z0-9_]*)['"]/g)) found.set(m[1] ?? m[2]!, file);
  }
  return found;
}

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
function runMain(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsx, 'runtime/host/main.ts', ...args], { env: { ...process.env, OPENWOP_HOST_TOKEN: 'start-flags-token-0123456789', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('npm start settings: one table, one help', () => {
  const help = startHelp();

  it('every environment variable the runtime reads appears in --help (source scan)', () => {
    const reads = envReads();
    expect(reads.size).toBeGreaterThan(LIMIT_NAMES.length); // the limits table and the start settings at least
    const missing = [...reads].filter(([name]) => !help.includes(name)).map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
  });

  it('every variable the table names is read by the runtime (no stale entry)', () => {
    const reads = envReads();
    const stale = START_SETTINGS.flatMap((s) => ('env' in s ? [s.env] : [])).filter((e) => !reads.has(e));
    expect(stale).toEqual([]);
    for (const n of LIMIT_NAMES) expect(help).toContain(LIMITS[n].env);
  });

  it('every flag appears in --help with its environment variable', () => {
    for (const s of START_SETTINGS) {
      if ('flag' in s) expect(help).toMatch(new RegExp(`\\n  ${s.flag}${'value' in s ? ` ${s.value.replace(/\|/g, '\\|')}` : ''}${'env' in s ? `  \\[${s.env}\\]` : ''}\\n`));
      else expect(help).toContain(`${s.env} (environment only)`);
    }
  });

  it('parses every flag (both forms), refuses an unknown one with the list of every flag, and a repeated or empty one', () => {
    const f = parseStartFlags(['--port', '0', '--host=0.0.0.0', '--store', 'memory', '--data-dir=x', '--credentials', 'c.json', '--production']);
    expect(listenOf(f, {})).toEqual({ port: 0, host: '0.0.0.0' });
    expect(argsOf(f, 'storage')).toEqual(['--store=memory', '--data-dir=x']);
    expect(argsOf(f, 'credentials')).toEqual(['--credentials=c.json', '--production']);
    expect(listenOf(parseStartFlags([]), { PORT: '9999', HOST: '::1' })).toEqual({ port: 9999, host: '::1' });
    expect(listenOf(parseStartFlags(['--port', '1']), { PORT: '9999' }).port).toBe(1);
    let message = '';
    try {
      parseStartFlags(['--prot', '1']);
    } catch (e) {
      expect(e).toBeInstanceOf(StartFlagError);
      message = (e as Error).message;
    }
    for (const flag of ['--port', '--host', '--store', '--data-dir', '--credentials', '--production', '--help']) expect(message).toContain(flag);
    expect(() => parseStartFlags(['--port', '1', '--port=2'])).toThrow(/--port given twice/);
    expect(() => parseStartFlags(['--port'])).toThrow(/--port needs a value/);
    expect(() => parseStartFlags(['--port', '--host'])).toThrow(/--port needs a value/);
    for (const bad of ['-1', '65536', 'abc', '8.5', '']) expect(() => listenOf(parseStartFlags([]), { PORT: bad }), bad).toThrow(/0 to 65535/);
  });

  it('npm start -- --help prints the help and exits 0; an unknown flag exits 2 naming --store and --data-dir', async () => {
    const shown = await runMain(['--help']);
    expect(shown.code).toBe(0);
    expect(shown.out).toBe(help);
    const refused = await runMain(['--bogus']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/unknown argument "--bogus".*--store .*--data-dir/);
  }, 60_000);

  it('--port and --host decide where the host listens', async () => {
    const started = await runMain(['--store', 'memory', '--port', '0', '--host', '127.0.0.1'], { PORT: '1' });
    expect(started.out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(started.out).not.toMatch(/127\.0\.0\.1:1\b/);
  }, 60_000);
});

describe('the Bearer scheme over HTTP is case-insensitive', () => {
  it('bearer / BEARER authenticate like Bearer; another scheme is a 401', async () => {
    const token = 'scheme-case-token-0123456789';
    const { app } = await createHost({ token });
    try {
      const url = targetOf(ROUTES.runRead, { params: { runId: 'no-such-run' } });
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const r = await app.inject({ method: 'GET', url, headers: { authorization: `${scheme} ${token}` } });
        expect(r.statusCode, scheme).toBe(404); // authenticated, then: no such run
      }
      expect((await app.inject({ method: 'GET', url, headers: { authorization: `Basic ${token}` } })).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});
