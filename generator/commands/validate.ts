/**
 * `wopkit validate <type> <file…|->`: validate JSON instances with the generated validators. Loads only what
 * `generated/` holds (validators, guards, run-event map) and the JSON reader: no corpus, no code generators.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CorpusError } from '../errors.ts';
import { parseJson, readJsonFile } from '../json.ts';
import { GENERATED, isSchemaFileName, majorLayout, schemaStem, titleOfValidatorName } from '../naming.ts';
import { UsageError, type Invocation, type Io } from './common.ts';
import { NEEDS_A_HOST, upstreamDiscoveryFailures } from '../upstream-profile.ts';
import { validatedPart } from '../example-instance.ts';
import { MAJOR, corpusConfig } from '../corpus-config.ts';
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

/** Stands for the first major, whatever its name (validate does not need it: its modules are at the folders themselves). */
const FIRST = 'first';

/**
 * The generated modules the CLI ships with: in the repository, its own generated/; in the installed package, the
 * validators package it depends on (its entry points by name, as the build maps them: scripts/package-layout.ts).
 */
const PACKAGED: Readonly<Record<string, string>> = {
  [GENERATED.validators]: '@wopkit/validators',
  [GENERATED.guards]: '@wopkit/validators/guards',
  [GENERATED.runEvents]: '@wopkit/validators/run-events',
  ...Object.fromEntries(
    (['v2'] as const).flatMap((major) => {
      const l = majorLayout(major, FIRST);
      const pkg = `@wopkit/validators-${major}`;
      return [[l.validators, pkg], [l.guards, `${pkg}/guards`], [l.runEvents, `${pkg}/run-events`]];
    }),
  ),
};

/** The later majors whose generated validators are at hand: folders `v<N>/` of generated/validators/ (in a checkout), or the packaged ones. */
function laterMajors(root: string, packaged: boolean): string[] {
  if (packaged) return Object.keys(PACKAGED).flatMap((rel) => /^generated\/validators\/(v[0-9]+)\/validators\.js$/.exec(rel)?.[1] ?? []);
  const dir = join(root, GENERATED.validatorsDir);
  return existsSync(dir) ? readdirSync(dir).filter((d) => MAJOR.test(d) && existsSync(join(dir, d, 'validators.js'))).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))) : [];
}

/**
 * Where a generated module lives: under `--root` (or the working directory) when that tree is a corpus checkout
 * (it has `schemas/` or generated validators), else the copy that came with this CLI.
 */
function generatedPaths(root: string): { at: (rel: string) => string; majors: string[] } {
  // A corpus checkout (it has schemas/) validates with its own generated modules, or says to generate them; its
  // settings are read as every command reads them (a malformed setting is the same one message everywhere).
  if (existsSync(join(root, GENERATED.validators)) || existsSync(join(root, 'schemas'))) {
    corpusConfig(root);
    return { at: (rel) => join(root, rel), majors: laterMajors(root, false) };
  }
  if (import.meta.url.endsWith('.ts')) {
    const own = fileURLToPath(new URL('../../', import.meta.url));
    return { at: (rel) => join(own, rel), majors: laterMajors(own, false) };
  }
  const resolvable = (rel: string) => {
    try {
      import.meta.resolve(PACKAGED[rel] ?? rel);
      return true;
    } catch {
      return false;
    }
  };
  return {
    at: (rel) => fileURLToPath(import.meta.resolve(PACKAGED[rel] ?? rel)),
    majors: laterMajors(root, true).filter((m) => resolvable(majorLayout(m, FIRST).validators)),
  };
}

type ValidatorIndex = Record<string, { validator: ValidatorLike; target: string; id: string }>;
/** One major's generated modules, as validate uses them. */
interface MajorModules {
  readonly major: string;
  readonly index: ValidatorIndex;
  readonly guards?: { toFailures: (e: unknown) => Failure[] };
  readonly runEvents?: { RUN_EVENT_ENVELOPE: string; validateRunEvent: (e: unknown) => { valid: boolean; known: boolean; failures: Failure[] } };
}

export async function validate(p: Invocation, io: Io): Promise<number> {
  const [typeName, ...files] = p.args;
  if (!typeName) throw new UsageError('validate needs a type name and at least one file');
  if (!files.length) throw new UsageError(`validate ${typeName}: no files given`);
  if (files.filter((f) => f === STDIN).length > 1) throw new UsageError(`validate reads standard input ("${STDIN}") once`);
  const { at, majors: later } = generatedPaths(p.root);
  const modPath = at(GENERATED.validators);
  if (!existsSync(modPath)) throw new CorpusError('generated validators not found; run `npm run gen` first', relative(process.cwd(), modPath) || modPath);
  const wanted = p.values?.get('--major');
  // The first major's modules sit at the generated folders themselves; a later one's in its v<N>/ subfolder.
  const majorsAtHand = ['', ...later];
  // A major below every later one at hand is the first major (the default order already puts it first).
  const isFirst = (m: string) => MAJOR.test(m) && !later.some((x) => Number(x.slice(1)) <= Number(m.slice(1)));
  if (wanted !== undefined && !later.includes(wanted) && !isFirst(wanted))
    throw new UsageError(`--major ${wanted}: no generated validators for it (at hand: the first major${later.length ? `, ${later.join(', ')}` : ''})`);
  const loaded: MajorModules[] = [];
  for (const major of majorsAtHand) {
    // '' is the first major, whose modules are the generated folders themselves
    const l = major === '' ? majorLayout(FIRST, FIRST) : majorLayout(major, FIRST);
    const guards = await importIfPresent<NonNullable<MajorModules['guards']>>(at(l.guards));
    const runEvents = await importIfPresent<NonNullable<MajorModules['runEvents']>>(at(l.runEvents));
    const index = ((await import(pathToFileURL(at(l.validators)).href)) as { validatorIndex: ValidatorIndex }).validatorIndex;
    loaded.push({ major, index, ...(guards ? { guards } : {}), ...(runEvents ? { runEvents } : {}) });
  }
  // --major puts its modules first; the first major's come next otherwise (a shared target or file names its type).
  const order = wanted !== undefined && later.includes(wanted) ? [...loaded.filter((m) => m.major === wanted), ...loaded.filter((m) => m.major !== wanted)] : loaded;
  const name = titleOfValidatorName(typeName);
  // A schema file (name or path) names its root type: `memory-entry.schema.json` → target `memory-entry`.
  const fileTarget = isSchemaFileName(typeName) ? schemaStem(typeName) : undefined;
  const find = (index: ValidatorIndex) =>
    index[name] ??
    // A validator name of a lower-case title (`validateorderLine`, where the type-name setting allows one) names it too.
    (typeName.startsWith('validate') ? index[typeName.slice('validate'.length)] : undefined) ??
    Object.values(index).find((e) => e.target === typeName || e.id === typeName || (fileTarget !== undefined && e.target === fileTarget));
  const byTitle = order.find((m) => m.index[name] !== undefined);
  const found = byTitle ?? order.find((m) => find(m.index) !== undefined);
  const entry = found && find(found.index);
  if (!found || !entry) {
    const lower = typeName.toLowerCase();
    const close = order.flatMap((m) => Object.keys(m.index)).filter((t) => t.toLowerCase().includes(lower) || lower.includes(t.toLowerCase())).slice(0, 5);
    throw new UsageError(`unknown type "${typeName}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; a type is a schema title, an example target, a validator name, a schema file or a $id`);
  }
  const { index, guards, runEvents } = found;
  const profile = p.values?.get('--profile');
  const title0 = Object.keys(index).find((k) => index[k] === entry);
  if (profile !== undefined && profile !== 'upstream') throw new UsageError(`--profile must be "upstream", not "${profile}"`);
  if (profile === 'upstream' && title0 !== UPSTREAM_PROFILE_TYPE) throw new UsageError(`--profile upstream checks discovery documents: use it with type ${UPSTREAM_PROFILE_TYPE}, not ${title0 ?? typeName}`);
  const title = title0;
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
