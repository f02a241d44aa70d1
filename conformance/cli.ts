#!/usr/bin/env -S npx tsx
/**
 * conformance --base-url <url> [--api-key <key>] [--strict] [--opt-out a,b] [--out <dir>] [--format text|json] [--only <id>]
 * Exit 0 when no scenario failed, 1 when one did, 2 on usage or connection errors.
 * Writes <out>/<host>-<timestamp>.json and <out>/<host>.latest.json (default out: conformance/results).
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, configFrom } from './config.ts';
import { DiscoveryError, formatSummary, runSuite, type SuiteResults } from './run.ts';

/** Where results files go by default: the interop matrix of the site reads them from here. */
export const RESULTS_DIR = 'conformance/results';

/**
 * Write one run's results as `<dir>/<host>-<timestamp>.json` (the history) and `<dir>/<host>.latest.json` (the
 * matrix column), the host name reduced to `[A-Za-z0-9._-]` (no leading or trailing dash). Returns the latest file's path.
 */
export function writeResults(dir: string, results: SuiteResults): string {
  mkdirSync(dir, { recursive: true });
  const slug = results.host.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  const body = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(join(dir, `${slug}-${results.finishedAt.replace(/[:.]/g, '-')}.json`), body);
  const latest = join(dir, `${slug}.latest.json`);
  writeFileSync(latest, body);
  return latest;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  let flags;
  try {
    flags = parseArgs({
      args: argv,
      options: {
        'base-url': { type: 'string' }, 'api-key': { type: 'string' }, strict: { type: 'boolean' }, 'opt-out': { type: 'string' },
        out: { type: 'string' }, format: { type: 'string' }, only: { type: 'string' }, 'no-write': { type: 'boolean' }, help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (e) {
    err(`conformance: ${(e as Error).message}\n`);
    return 2;
  }
  if (flags.help) {
    out('usage: conformance --base-url <url> [--api-key <key>] [--strict] [--opt-out a,b] [--out <dir>] [--format text|json] [--only <id>] [--no-write]\n');
    return 0;
  }
  const format = flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') {
    err(`conformance: --format must be text or json, got ${JSON.stringify(format)}\n`);
    return 2;
  }
  try {
    const config = configFrom(env, flags as Record<string, string | boolean>);
    const results = await runSuite(config);
    if (flags['no-write'] !== true) writeResults(flags.out ?? RESULTS_DIR, results);
    out(format === 'json' ? `${JSON.stringify(results, null, 2)}\n` : `${formatSummary(results)}\n`);
    return results.summary.fail > 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof DiscoveryError) {
      err(`conformance: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

/** Run as a program (also through a bin symlink), not when imported by tests. */
const invokedDirectly = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();
if (invokedDirectly) {
  main(process.argv.slice(2), process.env, (s) => process.stdout.write(s), (s) => process.stderr.write(s)).then((code) => process.exit(code));
}
