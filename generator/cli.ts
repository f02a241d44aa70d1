#!/usr/bin/env -S npx tsx
/**
 * `wopkit` — the generator CLI. Subcommands: gen [--check], lint, check-examples, validate <type> <file…>.
 * Every subcommand takes --format text|json and --root <dir>. Exit 0 clean, 1 findings, 2 usage or I/O error.
 * Errors are printed as one clear message naming file and pointer, never as a stack trace.
 */
import { resolve, join, relative, isAbsolute } from 'node:path';
import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadCorpus, readJsonFile } from './load.ts';
import { assertGeneratable, lintCorpus, checkExamples, type Finding } from './lint.ts';
import { resolveCorpus } from './resolve.ts';
import { emitAll } from './emit.ts';
import { checkFiles, writeFiles } from './write.ts';
import { CorpusError } from './errors.ts';
import { GENERATED, isSchemaFileName, schemaStem, titleOfValidatorName } from './naming.ts';

type Format = 'text' | 'json';

/** Thrown for bad invocations (exit 2). */
export class UsageError extends Error {}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

interface Parsed {
  command: string;
  args: string[];
  format: Format;
  root: string;
  check: boolean;
}

const USAGE = `usage: wopkit <command> [options]

commands:
  gen [--check]                 write generated/ (with --check: compare only; exit 1 when out of date)
  lint                          check the corpus rules (docs/CONVENTIONS.md)
  check-examples                every valid example validates, every invalid one fails as declared
  validate <type> <file...>     validate JSON files with the generated validators
                                (<type>: a title like MemoryEntry, a target like memory-entry or capabilities--HostInfo,
                                 a validator name like validateMemoryEntry, a schema file like memory-entry.schema.json,
                                 or a $id, optionally with #/$defs/<Name>)

options:
  --format text|json            output format (default text)
  --root <dir>                  repository root (default: current directory)
  -h, --help                    this help`;

const COMMANDS = new Set(['gen', 'lint', 'check-examples', 'validate', 'help']);

export function parseArgs(argv: readonly string[]): Parsed {
  let format: Format = 'text';
  let root = process.cwd();
  let check = false;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--format' || a.startsWith('--format=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v !== 'text' && v !== 'json') throw new UsageError(`--format must be "text" or "json"${v === undefined ? '' : `, not "${v}"`}`);
      format = v;
    } else if (a === '--root' || a.startsWith('--root=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!v) throw new UsageError('--root needs a directory');
      root = resolve(v);
    } else if (a === '--check') check = true;
    else if (a === '-h' || a === '--help') rest.unshift('help');
    else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option "${a}"`);
    else rest.push(a);
  }
  const command = rest.shift();
  if (!command) throw new UsageError('no command given');
  if (!COMMANDS.has(command)) throw new UsageError(`unknown command "${command}"`);
  if (check && command !== 'gen') throw new UsageError('--check only applies to gen');
  if (command !== 'validate' && command !== 'help' && rest.length) throw new UsageError(`unexpected argument "${rest[0]}" for ${command}`);
  return { command, args: rest, format, root, check };
}

const where = (file: string, pointer: string): string => (pointer ? `${file}#${pointer}` : file);

function printFindings(io: Io, format: Format, command: string, findings: Finding[], extra: Record<string, unknown> = {}): number {
  if (format === 'json') io.out(JSON.stringify({ command, ok: findings.length === 0, ...extra, findings }, null, 2));
  else {
    for (const f of findings) io.out(`${where(f.file, f.pointer)}: ${f.message} [${f.rule}]`);
    io.out(`${command}: ${findings.length === 0 ? 'clean' : `${findings.length} finding${findings.length === 1 ? '' : 's'}`}${Object.keys(extra).length ? ` (${Object.entries(extra).map(([k, v]) => `${k} ${String(v)}`).join(', ')})` : ''}`);
  }
  return findings.length ? 1 : 0;
}

async function gen(p: Parsed, io: Io): Promise<number> {
  const t0 = performance.now();
  const resolved = resolveCorpus(loadCorpus(p.root));
  assertGeneratable(resolved);
  const emission = await emitAll(resolved);
  const { files } = emission;
  if (p.check) {
    const { stale, missing, extra, staleAt } = checkFiles(p.root, emission);
    const ms = Math.round(performance.now() - t0);
    const ok = !stale.length && !missing.length && !extra.length;
    if (p.format === 'json') io.out(JSON.stringify({ command: 'gen --check', ok, files: files.length, stale, missing, extra, staleAt, ms }, null, 2));
    else {
      for (const f of stale) io.out(`stale:   ${f} (differs from line ${staleAt[f]})`);
      for (const f of missing) io.out(`missing: ${f}`);
      for (const f of extra) io.out(`extra:   ${f}`);
      io.out(ok ? `gen --check: generated/ is up to date (${files.length} files, ${ms} ms)` : `gen --check: generated/ is out of date (${stale.length} stale, ${missing.length} missing, ${extra.length} extra); run npm run gen`);
    }
    return ok ? 0 : 1;
  }
  const res = writeFiles(p.root, emission);
  const ms = Math.round(performance.now() - t0);
  if (p.format === 'json') io.out(JSON.stringify({ command: 'gen', ok: true, files: files.length, written: res.written, removed: res.removed, ms }, null, 2));
  else io.out(`gen: ${files.length} files (${res.written.length} written, ${res.unchanged} unchanged, ${res.removed.length} removed) in ${ms} ms`);
  return 0;
}

interface ValidatorLike {
  (data: unknown): boolean;
  errors?: { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }[] | null;
}

async function validate(p: Parsed, io: Io): Promise<number> {
  const [typeName, ...files] = p.args;
  if (!typeName) throw new UsageError('validate needs a type name and at least one file');
  if (!files.length) throw new UsageError(`validate ${typeName}: no files given`);
  const modPath = join(p.root, GENERATED.validators);
  if (!existsSync(modPath)) throw new CorpusError('generated validators not found; run `npm run gen` first', relative(process.cwd(), modPath) || modPath);
  const mod = (await import(pathToFileURL(modPath).href)) as {
    validatorIndex: Record<string, { validator: ValidatorLike; target: string; id: string }>;
  };
  const guardsPath = join(p.root, GENERATED.guards);
  const guards = existsSync(guardsPath)
    ? ((await import(pathToFileURL(guardsPath).href)) as { toFailures: (e: unknown) => { instancePath: string; message: string; keyword: string }[] })
    : undefined;
  const index = mod.validatorIndex;
  const name = titleOfValidatorName(typeName);
  // A schema file (name or path) names its root type: `memory-entry.schema.json` → target `memory-entry`.
  const fileTarget = isSchemaFileName(typeName) ? schemaStem(typeName) : undefined;
  const entry =
    index[name] ??
    Object.values(index).find((e) => e.target === typeName || e.id === typeName || (fileTarget !== undefined && e.target === fileTarget));
  if (!entry) {
    const lower = typeName.toLowerCase();
    const close = Object.keys(index).filter((t) => t.toLowerCase().includes(lower) || lower.includes(t.toLowerCase())).slice(0, 5);
    throw new UsageError(`unknown type "${typeName}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; a type is a schema title, an example target, a validator name, a schema file or a $id`);
  }
  const runEventsPath = join(p.root, GENERATED.runEvents);
  const runEvents = existsSync(runEventsPath)
    ? ((await import(pathToFileURL(runEventsPath).href)) as {
        RUN_EVENT_ENVELOPE: string;
        validateRunEvent: (e: unknown) => { valid: boolean; known: boolean; failures: { instancePath: string; message: string; keyword: string }[] };
      })
    : undefined;
  const title = Object.keys(index).find((k) => index[k] === entry);
  const dispatch = runEvents && title === runEvents.RUN_EVENT_ENVELOPE ? runEvents.validateRunEvent : undefined;
  type Failure = { instancePath: string; message: string; keyword: string };
  const results: { file: string; valid: boolean; failures: Failure[]; error?: { message: string } }[] = [];
  for (const file of files) {
    const abs = isAbsolute(file) ? file : resolve(process.cwd(), file);
    let data: unknown;
    try {
      data = readJsonFile(abs, file);
    } catch (e) {
      // An unreadable or malformed file is an I/O error (exit 2), but the other files are still validated.
      if (!(e instanceof CorpusError)) throw e;
      results.push({ file, valid: false, failures: [], error: { message: e.message } });
      continue;
    }
    if (dispatch) {
      const res = dispatch(data);
      results.push({ file, valid: res.valid, failures: res.failures });
      continue;
    }
    const ok = entry.validator(data);
    const errors = entry.validator.errors ?? [];
    const failures = ok ? [] : guards ? guards.toFailures(errors) : errors.map((e) => ({ instancePath: e.instancePath, message: e.message ?? e.keyword, keyword: e.keyword }));
    results.push({ file, valid: ok, failures });
  }
  const unreadable = results.filter((r) => r.error).length;
  const bad = results.filter((r) => !r.valid && !r.error).length;
  if (p.format === 'json') io.out(JSON.stringify({ command: 'validate', type: title ?? typeName, ok: bad === 0 && unreadable === 0, results }, null, 2));
  else {
    for (const r of results) {
      if (r.error) io.err(`wopkit: error: ${r.file}: ${r.error.message}`);
      else if (r.valid) io.out(`${r.file}: valid`);
      else for (const f of r.failures) io.out(`${r.file}#${f.instancePath}: ${f.message} [${f.keyword}]`);
    }
    io.out(`validate: ${results.length - bad - unreadable} valid, ${bad} invalid${unreadable ? `, ${unreadable} unreadable` : ''}`);
  }
  return unreadable ? 2 : bad ? 1 : 0;
}

/** Run the CLI; returns the exit code. Never throws. */
export async function main(argv: readonly string[], io: Io = { out: (s) => console.log(s), err: (s) => console.error(s) }): Promise<number> {
  // The requested format, known before parsing so that a usage error is reported in it too.
  let format: Format = argv.some((a, i) => a === '--format=json' || (a === '--format' && argv[i + 1] === 'json')) ? 'json' : 'text';
  const fail = (message: string, file?: string, pointer?: string): number => {
    if (format === 'json') io.out(JSON.stringify({ ok: false, error: { message, ...(file ? { file } : {}), ...(pointer !== undefined && file ? { pointer } : {}) } }, null, 2));
    else io.err(`wopkit: error: ${file ? `${where(file, pointer ?? '')}: ` : ''}${message}`);
    return 2;
  };
  try {
    const p = parseArgs(argv);
    format = p.format;
    switch (p.command) {
      case 'help':
        io.out(USAGE);
        return 0;
      case 'gen':
        return await gen(p, io);
      case 'lint': {
        const resolved = resolveCorpus(loadCorpus(p.root));
        return printFindings(io, p.format, 'lint', lintCorpus(resolved), { schemas: resolved.corpus.schemas.length, examples: resolved.corpus.examples.length });
      }
      case 'check-examples': {
        const { findings, checked } = checkExamples(resolveCorpus(loadCorpus(p.root)));
        return printFindings(io, p.format, 'check-examples', findings, { examples: checked });
      }
      case 'validate':
        return await validate(p, io);
    }
    return 2;
  } catch (e) {
    if (e instanceof UsageError) {
      const code = fail(e.message);
      if (format === 'text') io.err('run `wopkit --help` for usage');
      return code;
    }
    if (e instanceof CorpusError) return fail(e.message, e.file, e.pointer);
    return fail(`unexpected failure: ${(e as Error)?.message ?? String(e)}`);
  }
}

/** True when this file is the entry point, also when started through a symlink (an npm `bin` link). */
function isEntryPoint(): boolean {
  const arg = process.argv[1];
  if (arg === undefined) return false;
  try {
    return realpathSync(resolve(arg)) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}
const invokedDirectly = isEntryPoint();
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    () => (process.exitCode = 2),
  );
}
