#!/usr/bin/env -S npx tsx
/**
 * The OpenAPI document under the two linters issue 36 (part 6) accepts it with, each with its stock ruleset and
 * nothing else: Spectral (`@stoplight/spectral-cli`) with a ruleset that only says `extends: ["spectral:oas"]`,
 * written to a fresh temporary folder, and Redocly (`@redocly/cli`) with `lint --extends recommended`, started in
 * that folder so that no `redocly.yaml` and no `.redocly.lint-ignore.yaml` of the repository can reach it. No rule is
 * disabled, overridden or downgraded: the repository holds no ruleset file of either linter (`lintConfigFilesIn`,
 * which test/interop/openapi-lint.test.ts runs), and a finding of any severity counts.
 *
 *   npm run lint:openapi [-- FILE…]      (default: generated/openapi/openapi.json)
 *
 * Prints one line per finding and a total; exit 0 when both linters report nothing, 1 on a finding, 2 when a linter
 * could not run (its output was not the JSON report it prints).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

/** The whole Spectral ruleset: the stock OpenAPI ruleset (its recommended rules), as published. */
export const SPECTRAL_RULESET = 'extends: ["spectral:oas"]\n';
/** The Redocly ruleset `--extends` names: the stock recommended one. */
export const REDOCLY_RULESET = 'recommended';

/** The document the generator writes and the host serves (generator/naming.ts `GENERATED.openapi`). */
export const OPENAPI_DOCUMENT = join(REPO, 'generated/openapi/openapi.json');

export type Linter = 'spectral' | 'redocly';

/** One finding of either linter, whatever its severity. */
export interface LintFinding {
  readonly linter: Linter;
  readonly rule: string;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly message: string;
  /** The linted file, as given. */
  readonly file: string;
  /** Where in the file: a JSON pointer. */
  readonly pointer: string;
}

/** What a linter run cannot be read as a report: the linter failed to start or to load its ruleset. */
export class LinterFailed extends Error {
  constructor(linter: Linter, detail: string) {
    super(`${linter} did not produce its JSON report: ${detail}`);
  }
}

/** File names either linter reads a ruleset, an override or an ignore list from. */
export const LINT_CONFIG_NAMES: readonly RegExp[] = [/^\.?spectral\.(ya?ml|json|[cm]?js|ts)$/, /^\.?redocly\.ya?ml$/, /^\.redocly\.lint-ignore\.ya?ml$/];

/** The bin script of an installed package (its package.json `bin` entry), run with this Node. */
function binOf(pkg: string, name: string): string {
  const dir = join(REPO, 'node_modules', pkg);
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return join(dir, bin[name]!);
}

/** A linter's stdout; its exit status says only whether it found errors, so a report is read whatever the status. */
async function stdoutOf(linter: Linter, args: readonly string[], cwd: string): Promise<string> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  try {
    return (await run(process.execPath, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (e) {
    const failed = e as { stdout?: string; stderr?: string; code?: number };
    if (typeof failed.stdout === 'string' && failed.stdout.trim().length > 0) return failed.stdout;
    throw new LinterFailed(linter, `exit ${String(failed.code)}: ${failed.stderr ?? String(e)}`);
  }
}

/**
 * The JSON values a linter printed: Spectral prints one array; Redocly one pretty-printed object per file, back to
 * back (`}{` on one line between two: pretty-printed JSON never starts a line with it inside a string).
 */
function parsed<T>(linter: Linter, text: string): T[] {
  const start = text.search(/^[[{]/m);
  try {
    return JSON.parse(`[${text.slice(Math.max(start, 0)).replace(/^\}\s*\{/gm, '},{')}]`) as T[];
  } catch {
    throw new LinterFailed(linter, text.slice(0, 500));
  }
}

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

async function spectral(files: readonly string[], cwd: string): Promise<LintFinding[]> {
  const ruleset = join(cwd, '.spectral.yaml');
  writeFileSync(ruleset, SPECTRAL_RULESET);
  const out = await stdoutOf('spectral', [binOf('@stoplight/spectral-cli', 'spectral'), 'lint', '--ruleset', ruleset, '--format', 'json', '--quiet', ...files], cwd);
  const report = parsed<{ code: string | number; message: string; severity: number; source?: string; path: (string | number)[] }[]>('spectral', out).flat();
  return report.map((r) => ({
    linter: 'spectral',
    rule: String(r.code),
    severity: SPECTRAL_SEVERITY[r.severity] ?? 'error',
    message: r.message,
    file: r.source ?? '',
    pointer: `/${r.path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`,
  }));
}

async function redocly(files: readonly string[], cwd: string): Promise<LintFinding[]> {
  const out = await stdoutOf('redocly', [binOf('@redocly/cli', 'redocly'), 'lint', '--extends', REDOCLY_RULESET, '--format', 'json', ...files], cwd);
  const reports = parsed<{ totals: { ignored: number }; problems: { ruleId: string; severity: string; message: string; location: { source: { ref: string }; pointer: string }[] }[] }>('redocly', out);
  if (reports.length !== files.length) throw new LinterFailed('redocly', `${reports.length} reports for ${files.length} files`);
  const ignored = reports.reduce((n, r) => n + r.totals.ignored, 0);
  if (ignored !== 0) throw new LinterFailed('redocly', `${ignored} problems were ignored by an ignore file`);
  return reports.flatMap((r) => r.problems).map((p) => ({
    linter: 'redocly',
    rule: p.ruleId,
    severity: p.severity === 'error' ? 'error' : p.severity === 'warn' ? 'warning' : 'info',
    message: p.message,
    file: resolve(cwd, p.location[0]?.source.ref ?? ''),
    pointer: (p.location[0]?.pointer ?? '#').replace(/^#/, ''),
  }));
}

/** Both linters on `files` (absolute paths), each with its stock ruleset, run side by side: every finding. */
export async function lintOpenApi(files: readonly string[] = [OPENAPI_DOCUMENT]): Promise<LintFinding[]> {
  const cwd = mkdtempSync(join(tmpdir(), 'wopkit-openapi-lint-'));
  try {
    const abs = files.map((f) => resolve(f));
    return (await Promise.all([spectral(abs, cwd), redocly(abs, cwd)])).flat();
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** Files of the repository (tracked, or untracked and not ignored) that either linter would read rules from. */
export async function lintConfigFilesIn(root: string = REPO): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  return stdout.split('\0').filter((f) => f !== '' && LINT_CONFIG_NAMES.some((re) => re.test(basename(f))));
}

async function main(argv: readonly string[]): Promise<number> {
  const files = argv.length > 0 ? argv : [OPENAPI_DOCUMENT];
  let findings: LintFinding[];
  try {
    findings = await lintOpenApi(files);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    return 2;
  }
  for (const f of findings) console.log(`${f.file}#${f.pointer}: ${f.severity} ${f.linter}/${f.rule}: ${f.message}`);
  const count = (l: Linter, s: LintFinding['severity']) => findings.filter((f) => f.linter === l && f.severity === s).length;
  for (const l of ['spectral', 'redocly'] as const) console.log(`${l} (${l === 'spectral' ? 'spectral:oas' : REDOCLY_RULESET}): ${count(l, 'error')} errors, ${count(l, 'warning')} warnings, ${count(l, 'info') + count(l, 'hint')} other`);
  return findings.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
