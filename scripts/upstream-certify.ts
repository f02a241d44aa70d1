#!/usr/bin/env -S npx tsx
/**
 * Upstream OpenWOP's own bundle checks as the oracle of `wopkit certify verify` (issue 39).
 *
 * Bash here cannot download, so upstream's files live in a scratch folder OUTSIDE this repository, placed by hand
 * from openwop/openwop at the commits MANIFEST names (docs/certify.md, "Upstream's verifier as an oracle", says how).
 * This script checks that folder (every file present, with the length the manifest records: a transcription check)
 * and assembles a harness root beside it in which upstream's scripts/check-cut-gates.mjs runs unchanged:
 *
 *   <dir>/openwop/…                 upstream's files, by repository path (hand-placed)
 *   <dir>/harness/root/             scripts/check-cut-gates.mjs (copied), spec/v2/release.json, an empty
 *                                   conformance/scenario-majors.json (no v2 scenario files: this is a v1 bundle), and
 *                                   the INTEROP-MATRIX.md given per run
 *   <dir>/harness/bin/{node,bash}   stand-ins that exit 0 for the corpus gates the checker spawns: those gates judge
 *                                   upstream's own repository, not a host bundle, and their verdicts are not compared
 *
 * `cutGates()` runs the checker in host-bundle mode on one bundle and returns every check line it printed, by gate;
 * `bundleSchema()` compiles upstream's certification-bundle.schema.json (with ids.schema.json) in Ajv 2020.
 *
 *   npx tsx scripts/upstream-certify.ts [--dir DIR] <bundle.json> --discovery <discovery.json>
 *
 * DIR defaults to $WOPKIT_UPSTREAM_CERTIFY_DIR, then /tmp/upstream-certify. Exit 0 when the schema accepts the bundle
 * and every host-bundle check of the checker that applies to one v1 bundle passes; 1 otherwise; 2 when the folder is
 * missing or a file's length differs from the manifest.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export const DEFAULT_DIR = '/tmp/upstream-certify';
export const DIR_ENV = 'WOPKIT_UPSTREAM_CERTIFY_DIR';

/** One upstream file of the oracle: `<dir>/openwop/<path>` as read at `commit`, `chars` UTF-16 code units long. */
export interface ManifestFile { readonly repo: 'openwop/openwop'; readonly path: string; readonly commit: string; readonly chars: number }
export const MANIFEST: readonly ManifestFile[] = [
  { repo: 'openwop/openwop', path: 'scripts/check-cut-gates.mjs', commit: '35bd91f4d9e56e6acc371701d1b401c8a48cff8b', chars: 20294 },
  { repo: 'openwop/openwop', path: 'schemas/v2/certification-bundle.schema.json', commit: '0b577834da7ab351eb2e9aff20c594e4031476a8', chars: 21247 },
  { repo: 'openwop/openwop', path: 'schemas/v2/ids.schema.json', commit: '6809add4bca613656585baac2fa19618b7e1b9e9', chars: 7878 },
];

export const oracleDir = (env: NodeJS.ProcessEnv = process.env): string => resolve(env[DIR_ENV] || DEFAULT_DIR);

/** What is wrong with the folder (empty: usable). */
export function folderProblems(dir: string): string[] {
  return MANIFEST.flatMap((f) => {
    const p = join(dir, 'openwop', f.path);
    if (!existsSync(p)) return [`${p} is missing (openwop/openwop ${f.path} at ${f.commit.slice(0, 12)})`];
    const n = readFileSync(p, 'utf8').length;
    return n === f.chars ? [] : [`${p} is ${n} characters, the manifest says ${f.chars}: not the file at ${f.commit.slice(0, 12)}`];
  });
}

/** Assemble the harness root (idempotent); its path. Throws when the folder is not usable. */
export function assembleHarness(dir: string): string {
  const problems = folderProblems(dir);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const root = join(dir, 'harness', 'root');
  const bin = join(dir, 'harness', 'bin');
  for (const d of [join(root, 'scripts'), join(root, 'spec', 'v2'), join(root, 'conformance'), bin]) mkdirSync(d, { recursive: true });
  // Written only when they differ: checker runs going on meanwhile must never read a half-written file.
  writeIfChanged(join(root, 'scripts', 'check-cut-gates.mjs'), readFileSync(join(dir, 'openwop', 'scripts', 'check-cut-gates.mjs'), 'utf8'));
  writeIfChanged(join(root, 'spec', 'v2', 'release.json'), '{"version":"wopkit-oracle"}\n');
  writeIfChanged(join(root, 'conformance', 'scenario-majors.json'), '{"majors":{}}\n');
  for (const tool of ['node', 'bash']) {
    writeIfChanged(join(bin, tool), '#!/bin/sh\nexit 0\n', 0o755);
  }
  return root;
}

/** Write a file unless it already holds `text` (written to a temporary name, then renamed into place); whether it wrote. */
function writeIfChanged(path: string, text: string, mode = 0o644): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  chmodSync(tmp, mode);
  renameSync(tmp, path);
  return true;
}

/** One check line of the checker: its gate, verdict and evidence text. */
export interface CutGateCheck { readonly gate: string; readonly ok: boolean; readonly blocked: boolean; readonly evidence: string }

/** The checker's command line and environment for one bundle (the matrix file written first). */
function checkerRun(dir: string, bundleFile: string, discoveryFile: string, matrix: string) {
  const root = assembleHarness(dir);
  writeIfChanged(join(root, 'INTEROP-MATRIX.md'), matrix);
  const bin = join(dir, 'harness', 'bin');
  return {
    args: [join(root, 'scripts', 'check-cut-gates.mjs'), '--host-bundle', bundleFile, '--host-discovery', discoveryFile],
    options: { cwd: root, env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } },
  };
}

/** Run check-cut-gates.mjs in host-bundle mode on one bundle; every check it printed. */
export function cutGates(dir: string, bundleFile: string, discoveryFile: string, matrix: string): CutGateCheck[] {
  const { args, options } = checkerRun(dir, bundleFile, discoveryFile, matrix);
  const r = spawnSync(process.execPath, args, { ...options, encoding: 'utf8', timeout: 60_000 });
  return parseChecks(r.status, r.stdout, r.stderr);
}

/** The same, without blocking (several bundles checked at once); all runs share one INTEROP-MATRIX.md. */
export function cutGatesAsync(dir: string, bundleFile: string, discoveryFile: string, matrix: string): Promise<CutGateCheck[]> {
  const { args, options } = checkerRun(dir, bundleFile, discoveryFile, matrix);
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (status) => {
      try {
        ok(parseChecks(status, stdout, stderr));
      } catch (e) {
        fail(e);
      }
    });
  });
}

function parseChecks(status: number | null, stdout: string, stderr: string): CutGateCheck[] {
  if (status !== 0 && status !== 1) throw new Error(`check-cut-gates.mjs exited ${String(status)}: ${(stderr || stdout).trim().split('\n').slice(-3).join(' | ')}`);
  // Exit 1 is also how Node reports a crash: a run that printed no report is an error, not a verdict.
  if (!stdout.includes('=== check-cut-gates')) throw new Error(`check-cut-gates.mjs printed no report (exit ${String(status)}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const r = { stdout };
  const checks: CutGateCheck[] = [];
  let gate = '';
  for (const line of r.stdout.split('\n')) {
    const g = /^(PASS|FAIL|BLOCKED)\s+(.+)$/.exec(line);
    if (g !== null) gate = g[2]!;
    const c = /^ {3}(ok |XX |·· ) (.*)$/.exec(line);
    if (c !== null) checks.push({ gate, ok: c[1] === 'ok ', blocked: c[1] === '·· ', evidence: c[2]! });
  }
  return checks;
}

/**
 * The host-bundle checks of the checker that apply to one v1 bundle, as booleans: every non-pass row states a
 * reason (Witness), no executed failure (Front door totals), the signature attributed and verifying (Front door).
 * `undefined` when the checker printed no such line (it could not load the bundle).
 */
export function singleBundleVerdicts(checks: readonly CutGateCheck[]): { reason?: boolean; noFailure?: boolean; signature?: boolean } {
  const find = (gate: string, test: (evidence: string) => boolean) => checks.find((c) => c.gate === gate && test(c.evidence))?.ok;
  return {
    reason: find('Witness', (e) => e.includes('results.requirements[].detail')),
    noFailure: find('Front door', (e) => / results\.totals {2}—/.test(e)),
    signature: find('Front door', (e) => e.includes('signingKeys[') || e.includes(' signature  —')),
  };
}

/** upstream's bundle schema, compiled. */
export function bundleSchema(dir: string): ValidateFunction {
  const problems = folderProblems(dir);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => void;
  addFormats(ajv);
  ajv.addSchema(JSON.parse(readFileSync(join(dir, 'openwop', 'schemas', 'v2', 'ids.schema.json'), 'utf8')));
  return ajv.compile(JSON.parse(readFileSync(join(dir, 'openwop', 'schemas', 'v2', 'certification-bundle.schema.json'), 'utf8')));
}

const invokedDirectly = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();
if (invokedDirectly) {
  const { values, positionals } = parseArgs({ options: { dir: { type: 'string' }, discovery: { type: 'string' } }, allowPositionals: true });
  const dir = resolve(values.dir ?? oracleDir());
  const bundleFile = positionals[0];
  if (bundleFile === undefined || values.discovery === undefined) {
    process.stderr.write('usage: npx tsx scripts/upstream-certify.ts [--dir DIR] <bundle.json> --discovery <discovery.json>\n');
    process.exit(2);
  }
  const problems = folderProblems(dir);
  if (problems.length > 0) {
    process.stderr.write(`upstream-certify: the oracle folder ${dir} is not usable:\n${problems.join('\n')}\n`);
    process.exit(2);
  }
  const bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as { host?: { name?: string } };
  const validate = bundleSchema(dir);
  const schemaOk = validate(bundle) === true;
  const v = singleBundleVerdicts(cutGates(dir, resolve(bundleFile), resolve(values.discovery), `| ${bundle.host?.name ?? '?'} |\n`));
  process.stdout.write(`${JSON.stringify({ schema: schemaOk ? 'valid' : validate.errors, ...v }, null, 2)}\n`);
  process.exit(schemaOk && v.reason === true && v.noFailure === true && v.signature === true ? 0 : 1);
}
