/**
 * A corpus's own settings for the generator, in one format: the `"wopkit"` object of the package.json beside
 * `schemas/` (absent: every default). Every command reads them (`gen`, `gen --watch`, `lint`, `check-examples`,
 * `validate`, `compat`) through {@link corpusConfig}; docs/generator.md ("Corpus settings") lists them.
 *
 * - `idBase`: the one `$id` base (absolute, ends with `/`); absent: the base the corpus's own `$id`s share (load.ts
 *   infers it), so lint still requires one base without the corpus naming it.
 * - `families`: which folders are loaded, family → majors (`schemas/<family>/<major>/`); absent: every family folder
 *   and every `v<N>` folder in it. A folder on disk that the settings do not name is not loaded.
 * - `typeName`: the pattern every `title` must match (a type's name in every generated language); default PascalCase.
 * - `output`: the names the generated files carry (the corpus `name`, the command that regenerates, the module,
 *   package or namespace per other language); unset names derive from `name`.
 * - `editorSettings`: whether `gen` owns `.vscode/settings.json`; `openapi`: whether `gen` emits the reference host's
 *   OpenAPI document (both only for a corpus that asks).
 *
 * The settings are checked with a table of rows: an unknown key, or a value of the wrong shape, is a CorpusError naming
 * package.json and the JSON pointer of the setting.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CorpusError, escapePointer } from './errors.ts';
import { isObject, readJsonFile } from './json.ts';

/** The key of the package.json object that holds the settings. */
export const SETTINGS_KEY = 'wopkit';
/** Where the settings live, relative to the corpus root. */
export const SETTINGS_FILE = 'package.json';

/** A major's folder name: `v1`, `v2`, … */
export const MAJOR = /^v[0-9]+$/;
/** A family's folder name: lowercase words joined by `-`. */
export const FAMILY = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** The default type-name rule: PascalCase. */
export const PASCAL_CASE = '^[A-Z][A-Za-z0-9]*$';

/** The names generated files carry, per language (each defaults from `name`: see {@link outputNames}). */
export interface OutputSettings {
  /** The corpus's name, as the generated headers and README say it (default: the package name, else `corpus`). */
  readonly name?: string;
  /** The command that regenerates `generated/` (its README says to run it, and `<command> --check`). */
  readonly command?: string;
  /** Where the generated layout is documented (a sentence in the README; absent: no such sentence). */
  readonly docs?: string;
  readonly python?: { readonly module?: string };
  readonly go?: { readonly package?: string };
  readonly rust?: { readonly module?: string };
  readonly csharp?: { readonly namespace?: string; readonly file?: string };
  readonly kotlin?: { readonly package?: string; readonly file?: string };
  readonly swift?: { readonly file?: string };
}

export interface CorpusConfig {
  /** The `$id` base every schema's `$id` starts with (then `<family>/<major>/<file name>`); absent: inferred. */
  readonly idBase?: string;
  /** Family → majors to load, in order; absent: every family folder and its `v<N>` folders. */
  readonly families?: Readonly<Record<string, readonly string[]>>;
  /** The pattern (a JavaScript regular expression, matched whole) every type name (`title`) must match. */
  readonly typeName: string;
  readonly output: OutputSettings;
  /** `gen` writes `.vscode/settings.json` (schemas for discovery documents and examples), and `gen --check` checks it. */
  readonly editorSettings: boolean;
  /** `gen` emits the reference host's OpenAPI document (generated/openapi/), and `gen --check` checks it. */
  readonly openapi: boolean;
}

export const DEFAULT_CONFIG: CorpusConfig = { typeName: PASCAL_CASE, output: {}, editorSettings: false, openapi: false };

// ── The settings table ───────────────────────────────────────────────────────────────────────────────────────────

/** One setting: what it accepts (in words, for the error) and the check; `fields` for an object of further settings. */
interface Row {
  readonly expected: string;
  readonly valid: (v: unknown) => boolean;
  readonly fields?: Readonly<Record<string, Row>>;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const matching = (re: RegExp, expected: string): Row => ({ expected, valid: (v) => isString(v) && re.test(v) });
const object = (fields: Readonly<Record<string, Row>>, expected = 'an object'): Row => ({ expected, valid: isObject, fields });

/** A regular expression source that compiles (with the `u` flag). */
function compiles(v: unknown): boolean {
  if (!isString(v)) return false;
  try {
    new RegExp(v, 'u');
    return true;
  } catch {
    return false;
  }
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DOTTED = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const identifier = matching(IDENTIFIER, 'an identifier (letters, digits, "_"; not starting with a digit)');
const lowerIdentifier = matching(/^[a-z_][a-z0-9_]*$/, 'a lower-case identifier (letters a-z, digits, "_")');
const dotted = matching(DOTTED, 'a dotted name of identifiers (e.g. "Acme.Generated")');
const fileName = matching(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a file name without extension (letters, digits, "_")');
const text = matching(/^[^\n]+$/, 'a one-line non-empty string');

const SETTINGS: Readonly<Record<string, Row>> = {
  idBase: matching(/^(https?:\/\/[^\s#?]+\/|urn:[^\s#?]+[:/])$/, 'an absolute http(s) or urn base ending with "/" (e.g. "https://example.org/schemas/")'),
  families: {
    expected: 'an object of family → non-empty array of distinct majors (e.g. {"acme": ["v1"]})',
    valid: (v) =>
      isObject(v) &&
      Object.keys(v).length > 0 &&
      Object.entries(v).every(([family, majors]) => FAMILY.test(family) && Array.isArray(majors) && majors.length > 0 && majors.every((m) => isString(m) && MAJOR.test(m)) && new Set(majors).size === majors.length),
  },
  typeName: { expected: 'a regular expression (a string that compiles; it is matched against the whole title)', valid: compiles },
  output: object({
    name: text,
    command: text,
    docs: text,
    python: object({ module: lowerIdentifier }),
    go: object({ package: lowerIdentifier }),
    rust: object({ module: lowerIdentifier }),
    csharp: object({ namespace: dotted, file: fileName }),
    kotlin: object({ package: matching(/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/, 'a lower-case dotted package name'), file: fileName }),
    swift: object({ file: fileName }),
  }),
  editorSettings: { expected: 'true or false', valid: (v) => typeof v === 'boolean' },
  openapi: { expected: 'true or false', valid: (v) => typeof v === 'boolean' },
};

/** Check `value` against `rows`, throwing a CorpusError at the first unknown key or wrong value (pointer under `at`). */
function checkRows(value: Record<string, unknown>, rows: Readonly<Record<string, Row>>, at: string): void {
  for (const [key, v] of Object.entries(value)) {
    const row = rows[key];
    const pointer = `${at}/${escapePointer(key)}`;
    if (row === undefined) throw new CorpusError(`unknown generator setting "${key}" (known: ${Object.keys(rows).join(', ')})`, SETTINGS_FILE, pointer);
    if (!row.valid(v)) throw new CorpusError(`"${key}" must be ${row.expected}, not ${JSON.stringify(v)}`, SETTINGS_FILE, pointer);
    if (row.fields && isObject(v)) checkRows(v, row.fields, pointer);
  }
}

/** The settings an object of settings (as found at `/wopkit` of package.json) says, over the defaults; throws a CorpusError. */
export function parseCorpusConfig(own: unknown, packageName?: string): CorpusConfig {
  const at = `/${SETTINGS_KEY}`;
  if (own === undefined) return withPackageName(DEFAULT_CONFIG, packageName);
  if (!isObject(own)) throw new CorpusError(`"${SETTINGS_KEY}" must be an object of generator settings`, SETTINGS_FILE, at);
  checkRows(own, SETTINGS, at);
  return withPackageName({ ...DEFAULT_CONFIG, ...(own as Partial<CorpusConfig>) }, packageName);
}

/** The package's name (without its scope) as the output name, when the settings name none. */
function withPackageName(config: CorpusConfig, packageName: string | undefined): CorpusConfig {
  if (config.output.name !== undefined || packageName === undefined) return config;
  const bare = packageName.replace(/^@[^/]+\//, '');
  return bare ? { ...config, output: { ...config.output, name: bare } } : config;
}

/** The corpus settings at `root`; a malformed package.json or setting is a CorpusError naming the file and pointer. */
export function corpusConfig(root: string): CorpusConfig {
  const file = join(root, SETTINGS_FILE);
  if (!existsSync(file)) return DEFAULT_CONFIG;
  const manifest = readJsonFile(file, SETTINGS_FILE);
  if (!isObject(manifest)) throw new CorpusError('package.json must hold a JSON object', SETTINGS_FILE);
  const name = manifest['name'];
  return parseCorpusConfig(manifest[SETTINGS_KEY], isString(name) ? name : undefined);
}

// ── What the settings imply ──────────────────────────────────────────────────────────────────────────────────────

/** The type-name rule as a whole-string regular expression. */
export const typeNamePattern = (config: Pick<CorpusConfig, 'typeName'>): RegExp => new RegExp(`^(?:${config.typeName})$`, 'u');

/** Every generated name, each from its setting or derived from the corpus name. */
export interface OutputNames {
  readonly name: string;
  readonly command: string;
  readonly docs?: string;
  readonly pythonModule: string;
  readonly goPackage: string;
  readonly rustModule: string;
  readonly csharpNamespace: string;
  readonly csharpFile: string;
  readonly kotlinPackage: string;
  readonly kotlinFile: string;
  readonly swiftFile: string;
}

/** The words of a name (`acme-spec`, `AcmeSpec`, `acme_spec` → acme, spec); `corpus` when it has none. */
function words(name: string): string[] {
  const found = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const all = found.length ? found : ['corpus'];
  return /^[0-9]/.test(all[0]!) ? ['corpus', ...all] : all;
}

/** The generated names for these settings: a name given wins, else it derives from `output.name` (default `corpus`). */
export function outputNames(config: Pick<CorpusConfig, 'output'>): OutputNames {
  const o = config.output;
  const name = o.name ?? 'corpus';
  const w = words(name);
  const pascal = w.map((x) => x[0]!.toUpperCase() + x.slice(1)).join('');
  const lower = w.join('');
  return {
    name,
    command: o.command ?? 'npm run gen',
    ...(o.docs !== undefined ? { docs: o.docs } : {}),
    pythonModule: o.python?.module ?? `${w.join('_')}_types`,
    goPackage: o.go?.package ?? lower,
    rustModule: o.rust?.module ?? 'types',
    csharpNamespace: o.csharp?.namespace ?? `${pascal}.Generated`,
    csharpFile: o.csharp?.file ?? `${pascal}Types`,
    kotlinPackage: o.kotlin?.package ?? lower,
    kotlinFile: o.kotlin?.file ?? `${pascal}Types`,
    swiftFile: o.swift?.file ?? `${pascal}Types`,
  };
}
