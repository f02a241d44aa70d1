/**
 * `wopkit validate <type> <file…|->`: validate JSON instances with the generated validators. Loads only what
 * `generated/` holds (validators, guards, run-event map) and the JSON reader: no corpus, no code generators.
 */
import { readFileSync, existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CorpusError } from '../errors.ts';
import { parseJson, readJsonFile } from '../json.ts';
import { GENERATED, isSchemaFileName, schemaStem, titleOfValidatorName } from '../naming.ts';
import { UsageError, type Invocation, type Io } from './common.ts';
import { NEEDS_A_HOST, upstreamDiscoveryFailures } from '../upstream-profile.ts';
import { validatedPart } from '../example-instance.ts';
import { corpusConfig } from '../corpus-config.ts';
import type { Json } from '../json-value.ts';

/** The type `--profile upstream` applies to: the discovery document. */
const UPSTREAM_PROFILE_TYPE = 'Capabilities';

/** The file argument that means "read one instance from standard input", and how results name it. */
export const STDIN = '-';
const STDIN_NAME = '<stdin>';

interface ValidatorLike {
  (data: unknown): boolean;
  errors?: { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }[] | null;
}
type Failure = { instancePath: string; message: string; keyword: string };

const importIfPresent = async <T>(path: string): Promise<T | undefined> => (existsSync(path) ? ((await import(pathToFileURL(path).href)) as T) : undefined);

function readInstance(file: string, io: Io): unknown {
  if (file !== STDIN) return readJsonFile(isAbsolute(file) ? file : resolve(process.cwd(), file), file);
  let text: string;
  try {
    text = io.stdin ? io.stdin() : readFileSync(0, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CorpusError(`cannot read standard input${code ? ` (${code})` : ''}`, STDIN_NAME);
  }
  return parseJson(text, STDIN_NAME);
}

/**
 * The generated modules the CLI ships with: in the repository, its own generated/; in the installed package, the
 * validators package it depends on (its entry points by name, as the build maps them: scripts/package-layout.ts).
 */
const PACKAGED: Readonly<Record<string, string>> = {
  [GENERATED.validators]: '@wopkit/validators',
  [GENERATED.guards]: '@wopkit/validators/guards',
  [GENERATED.runEvents]: '@wopkit/validators/run-events',
};

/**
 * Where a generated module lives: under `--root` (or the working directory) when that tree is a corpus checkout
 * (it has `schemas/` or generated validators), else the copy that came with this CLI.
 */
function generatedPaths(root: string): (rel: string) => string {
  // A corpus checkout (it has schemas/) validates with its own generated modules, or says to generate them; its
  // settings are read as every command reads them (a malformed setting is the same one message everywhere).
  if (existsSync(join(root, GENERATED.validators)) || existsSync(join(root, 'schemas'))) {
    corpusConfig(root);
    return (rel) => join(root, rel);
  }
  if (import.meta.url.endsWith('.ts')) return (rel) => fileURLToPath(new URL(`../../${rel}`, import.meta.url));
  return (rel) => fileURLToPath(import.meta.resolve(PACKAGED[rel] ?? rel));
}

export async function validate(p: Invocation, io: Io): Promise<number> {
  const [typeName, ...files] = p.args;
  if (!typeName) throw new UsageError('validate needs a type name and at least one file');
  if (!files.length) throw new UsageError(`validate ${typeName}: no files given`);
  if (files.filter((f) => f === STDIN).length > 1) throw new UsageError(`validate reads standard input ("${STDIN}") once`);
  const at = generatedPaths(p.root);
  const modPath = at(GENERATED.validators);
  if (!existsSync(modPath)) throw new CorpusError('generated validators not found; run `npm run gen` first', relative(process.cwd(), modPath) || modPath);
  const mod = (await import(pathToFileURL(modPath).href)) as {
    validatorIndex: Record<string, { validator: ValidatorLike; target: string; id: string }>;
  };
  const guards = await importIfPresent<{ toFailures: (e: unknown) => Failure[] }>(at(GENERATED.guards));
  const index = mod.validatorIndex;
  const name = titleOfValidatorName(typeName);
  // A schema file (name or path) names its root type: `memory-entry.schema.json` → target `memory-entry`.
  const fileTarget = isSchemaFileName(typeName) ? schemaStem(typeName) : undefined;
  // A validator name of a lower-case title (`validateorderLine`, where the type-name setting allows one) names it too.
  const lowerTitle = typeName.startsWith('validate') ? index[typeName.slice('validate'.length)] : undefined;
  const entry =
    index[name] ??
    lowerTitle ??
    Object.values(index).find((e) => e.target === typeName || e.id === typeName || (fileTarget !== undefined && e.target === fileTarget));
  if (!entry) {
    const lower = typeName.toLowerCase();
    const close = Object.keys(index).filter((t) => t.toLowerCase().includes(lower) || lower.includes(t.toLowerCase())).slice(0, 5);
    throw new UsageError(`unknown type "${typeName}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; a type is a schema title, an example target, a validator name, a schema file or a $id`);
  }
  const profile = p.values?.get('--profile');
  const title0 = Object.keys(index).find((k) => index[k] === entry);
  if (profile !== undefined && profile !== 'upstream') throw new UsageError(`--profile must be "upstream", not "${profile}"`);
  if (profile === 'upstream' && title0 !== UPSTREAM_PROFILE_TYPE) throw new UsageError(`--profile upstream checks discovery documents: use it with type ${UPSTREAM_PROFILE_TYPE}, not ${title0 ?? typeName}`);
  const runEvents = await importIfPresent<{
    RUN_EVENT_ENVELOPE: string;
    validateRunEvent: (e: unknown) => { valid: boolean; known: boolean; failures: Failure[] };
  }>(at(GENERATED.runEvents));
  const title = Object.keys(index).find((k) => index[k] === entry);
  const dispatch = runEvents && title === runEvents.RUN_EVENT_ENVELOPE ? runEvents.validateRunEvent : undefined;
  const results: { file: string; valid: boolean; failures: Failure[]; error?: { message: string } }[] = [];
  for (const arg of files) {
    const file = arg === STDIN ? STDIN_NAME : arg;
    let data: unknown;
    try {
      // What check-examples validates of the same file: an invalid example's instance, never the editor $schema.
      data = validatedPart(readInstance(arg, io) as Json, arg);
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
    const profiled = profile === 'upstream' ? upstreamDiscoveryFailures(data) : [];
    results.push({ file, valid: ok && profiled.length === 0, failures: [...failures, ...profiled] });
  }
  const unreadable = results.filter((r) => r.error).length;
  const bad = results.filter((r) => !r.valid && !r.error).length;
  if (p.format === 'json') io.out(JSON.stringify({ command: 'validate', type: title ?? typeName, ...(profile !== undefined ? { profile, notCheckedWithoutAHost: NEEDS_A_HOST } : {}), ok: bad === 0 && unreadable === 0, results }, null, 2));
  else {
    for (const r of results) {
      if (r.error) io.err(`wopkit: error: ${r.file}: ${r.error.message}`);
      else if (r.valid) io.out(`${r.file}: valid`);
      else for (const f of r.failures) io.out(`${r.file}#${f.instancePath}: ${f.message} [${f.keyword}]`);
    }
    io.out(`validate: ${results.length - bad - unreadable} valid, ${bad} invalid${unreadable ? `, ${unreadable} unreadable` : ''}${profile === 'upstream' ? ' (profile upstream)' : ''}`);
    if (profile === 'upstream') io.out(`not checked without a host (run the conformance suite): ${NEEDS_A_HOST.join('; ')}`);
  }
  return unreadable ? 2 : bad ? 1 : 0;
}
