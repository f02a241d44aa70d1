/**
 * Every name the generator derives, in one place: schema file names, stems, ids and paths, example directories, the
 * names generated for a type (the type itself, its validator and guards), the names a title may not take, and the
 * paths and import specifiers of the generated modules. Every stage and emitter imports its names from here; nothing
 * else builds one. Pure string functions importing no other generator module, so any command (also `validate`) can use them.
 */
import { posix } from 'node:path';

// ── Schema files (input) ─────────────────────────────────────────────────────────────────────────────────────────

/** Every schema file ends with this. */
export const SCHEMA_SUFFIX = '.schema.json';
/** The directory of the corpus under its root. */
export const SCHEMAS_DIR = 'schemas';
/**
 * A schema file's stem: lowercase words joined by "-" or "." (kebab-case, or the wire schema id such as
 * `inquirium.generate.request.v1`).
 */
export const FILE_STEM = /^[a-z0-9]+([.-][a-z0-9]+)*$/;

export const isSchemaFileName = (name: string): boolean => name.endsWith(SCHEMA_SUFFIX);
/** `memory-entry.schema.json` → `memory-entry` (also from a path). */
export const schemaStem = (fileNameOrPath: string): string => (fileNameOrPath.split(/[\\/]/).pop() ?? '').slice(0, -SCHEMA_SUFFIX.length);
/** Where a schema file sits: its family and major (the folder `schemas/<family>/<major>/`). */
export interface SchemaFolder {
  readonly family: string;
  readonly major: string;
}
/** `openwop/v1`: a folder's path under `schemas/` (also how messages and keys name a family's major). */
export const folderName = (f: SchemaFolder): string => `${f.family}/${f.major}`;
/** Repository-relative path of a folder of schema files. */
export const folderPath = (f: SchemaFolder): string => `${SCHEMAS_DIR}/${folderName(f)}`;
/** Repository-relative path of a schema file. */
export const schemaPath = (f: SchemaFolder, fileName: string): string => `${folderPath(f)}/${fileName}`;
/** The `$id` a schema file must have: the corpus's `$id` base (ending with `/`), then its path under `schemas/`. */
export const schemaId = (idBase: string, f: SchemaFolder, fileName: string): string => `${idBase}${folderName(f)}/${fileName}`;
/** The `$id` base of an `$id` that ends with its file's path under `schemas/`; undefined when it does not. */
export function idBaseOf(id: string, f: SchemaFolder, fileName: string): string | undefined {
  const tail = `${folderName(f)}/${fileName}`;
  return id.endsWith(`/${tail}`) || id.endsWith(`:${tail}`) ? id.slice(0, -tail.length) : undefined;
}

/** A major's name: `v1`, `v2`, … (also a key of a majors table's rows). */
export const MAJOR_PATTERN = /^v[0-9]+$/;
/** The folder beside a family's majors holding what differs between them (`schemas/<family>/majors/`). */
export const MAJORS_DIR = 'majors';

/** Stems of the two files the run-event map is built from: the envelope, and the payloads with their `x-type-index`. */
export const RUN_EVENT_STEMS = { envelope: 'run-event', payloads: 'run-event-payloads' } as const;

// ── Example directories ──────────────────────────────────────────────────────────────────────────────────────────

const TARGET_SEPARATOR = '--';
/** Example directory of a schema's root (`memory-entry`) or of one of its `$defs` (`capabilities--HostInfo`). */
export const exampleTarget = (stem: string, defName: string): string => (defName ? `${stem}${TARGET_SEPARATOR}${defName}` : stem);
/** The inverse of {@link exampleTarget}. */
export function parseExampleTarget(target: string): { stem: string; defName: string } {
  const sep = target.indexOf(TARGET_SEPARATOR);
  return sep < 0 ? { stem: target, defName: '' } : { stem: target.slice(0, sep), defName: target.slice(sep + TARGET_SEPARATOR.length) };
}
/**
 * The `$schema` an example names for editors: its target's `$id`, with `#/$defs/<Name>` for a `$defs` target (the
 * loader removes it before validation; lint rule example-schema requires it).
 */
export const exampleSchemaRef = (schemaId: string, defName: string): string =>
  defName ? `${schemaId}#/$defs/${defName.replace(/~/g, '~0').replace(/\//g, '~1')}` : schemaId;
/** Repository-relative path of an example file (or, with a glob as `name`, of where examples go). */
export const examplePath = (f: SchemaFolder, target: string, kind: 'valid' | 'invalid', name: string): string =>
  `${schemaPath(f, EXAMPLES_DIR)}/${target}/${kind}/${name}`;
/** The directory of a folder's examples. */
export const EXAMPLES_DIR = 'examples';
/**
 * Whether a path (any separators) is an invalid example of a corpus: `…/examples/<target>/invalid/<name>.json`. Such a
 * file is a `{description, expect, instance}` wrapper; the instance is what validates.
 */
export const isInvalidExamplePath = (path: string): boolean => /(^|[\\/])examples[\\/][^\\/]+[\\/]invalid[\\/][^\\/]+\.json$/.test(path);

// ── Types and what is generated for them ─────────────────────────────────────────────────────────────────────────

/**
 * A type is named by its schema's `title`, as it is: an identifier matching the corpus's type-name rule (default
 * PascalCase: corpus-config.ts), unique across the corpus, and not one of {@link RESERVED_TITLES}. The site's anchor
 * for a definition is the same title.
 */
export const TYPE_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The id of an `x-runtime-rules` entry (it anchors the rule on the site): kebab-case. */
export const RUNTIME_RULE_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** `MemoryEntry` → `validateMemoryEntry`. */
export const validatorName = (title: string): string => `validate${title}`;
/** `validateMemoryEntry` → `MemoryEntry`; any other name is returned unchanged. */
export const titleOfValidatorName = (name: string): string => name.replace(/^validate(?=[A-Z])/, '');
/** The fast check of a type, as its validators module exports it to the modules that `$ref` it: `__check_MemoryEntry`. */
export const checkExportName = (title: string): string => `__check_${title}`;
/** The diagnostic node of a type, as its validators module exports it (a function returning the node): `__node_MemoryEntry`. */
export const nodeExportName = (title: string): string => `__node_${title}`;
/** `MemoryEntry` → `isMemoryEntry`. */
export const isName = (title: string): string => `is${title}`;
/** `MemoryEntry` → `assertMemoryEntry`. */
export const assertName = (title: string): string => `assert${title}`;

/**
 * Titles a schema may not use: names the generated modules declare or import next to the corpus types (guards,
 * run-event map, validator declarations) and the TypeScript/JavaScript globals the generated code relies on.
 * A type with one of these names would shadow or collide with them.
 */
export const RESERVED_TITLES: ReadonlySet<string> = new Set([
  // generated/guards, generated/run-events, generated/validators
  'GuardFailure', 'ValidationError', 'toFailures', 'guards', 'T', 'V',
  'Validator', 'ValidatorError', 'RunEventPayloadMap', 'KnownRunEventType', 'KnownRunEvent', 'RunEventValidation',
  // globals used by generated code
  'Array', 'Boolean', 'Date', 'Error', 'Function', 'JSON', 'Map', 'Number', 'Object', 'Omit', 'Partial', 'Pick',
  'Promise', 'Readonly', 'ReadonlyMap', 'Record', 'RegExp', 'Required', 'Set', 'String', 'Symbol',
  // JavaScript and TypeScript words a declaration cannot take (reachable when the type-name rule allows lower case)
  'any', 'await', 'boolean', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'declare', 'default',
  'delete', 'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'implements',
  'import', 'in', 'instanceof', 'interface', 'let', 'never', 'new', 'null', 'number', 'object', 'package', 'private',
  'protected', 'public', 'return', 'static', 'string', 'super', 'switch', 'symbol', 'this', 'throw', 'true', 'try',
  'type', 'typeof', 'undefined', 'unknown', 'var', 'void', 'while', 'with', 'yield',
]);

// ── Generated files ──────────────────────────────────────────────────────────────────────────────────────────────

/** Repository-relative paths of the generated modules and directories (directories end with `/`). */
export const GENERATED = {
  types: 'generated/ts/',
  typesIndex: 'generated/ts/index.ts',
  validatorsDir: 'generated/validators/',
  validators: 'generated/validators/validators.js',
  validatorsDts: 'generated/validators/validators.d.ts',
  /** The validators' shared runtime (helpers, formats, the diagnostic interpreter); the same for every corpus. */
  validatorsRuntime: 'generated/validators/runtime.js',
  validatorsRuntimeDts: 'generated/validators/runtime.d.ts',
  guardsDir: 'generated/guards/',
  guards: 'generated/guards/index.ts',
  runEventsDir: 'generated/run-events/',
  runEvents: 'generated/run-events/index.ts',
  siteData: 'generated/site-data/',
  otherLanguages: 'generated/other-languages/',
  openapiDir: 'generated/openapi/',
  /** The reference host's OpenAPI 3.1 document (emit/openapi.ts), served as GET /v1/openapi.json. */
  openapi: 'generated/openapi/openapi.json',
  routesDir: 'generated/routes/',
  /** The translation between a family's majors (emit/majors.ts), one module per family with a majors/ folder. */
  majorsDir: 'generated/majors/',
  /** The reference host's route tables as a typed module (emit/routes.ts). */
  routes: 'generated/routes/routes.ts',
  readme: 'generated/README.md',
  tsdoc: 'generated/tsdoc.json',
  /** Editors' schema mappings for the corpus (written only for a corpus that turns them on: corpus-config.ts). */
  editorSettings: '.vscode/settings.json',
  /** Declares the generated modules ESM (`"type": "module"`), whatever the corpus's own package.json says. */
  packageJson: 'generated/package.json',
  /** The input hash record of the last `gen` (gen-hash.ts), which lets `gen --check` answer without emitting. */
  genHash: 'generated/.gen-hash',
} as const;

// ── One major's generated modules ────────────────────────────────────────────────────────────────────────────────

/**
 * Where a major's modules go inside each generated folder: the corpus's first major (the lowest it loads, `v1` here)
 * at the folder itself, as before any second major existed; every later major in a subfolder named after it
 * (`generated/ts/v2/`, `generated/validators/v2/`, `generated/guards/v2/`, `generated/run-events/v2/`,
 * `generated/site-data/<family>/v2/`). Every emitter places a major's output through {@link majorLayout}; a later
 * major's modules are complete on their own (their validators folder carries its own runtime), so each major can ship
 * as its own package (docs/generator.md, "Majors").
 */
export const majorFolder = (major: string, firstMajor: string): string => (major === firstMajor ? '' : `${major}/`);

/** The lowest of the majors (`v1` < `v2` < `v10`); `v1` when there are none. */
export function firstMajorOf(majors: Iterable<string>): string {
  let best: string | undefined;
  for (const m of majors) if (best === undefined || Number(m.slice(1)) < Number(best.slice(1))) best = m;
  return best ?? 'v1';
}

/** The generated modules of one major (repository-relative; directories end with `/`). */
export interface MajorLayout {
  readonly major: string;
  /** `''` for the first major, else `<major>/`. */
  readonly folder: string;
  readonly types: string;
  readonly typesIndex: string;
  readonly validatorsDir: string;
  readonly validators: string;
  readonly guardsDir: string;
  readonly guards: string;
  readonly guardFailures: string;
  readonly runEventsDir: string;
  readonly runEvents: string;
}

/** The layout of `major` in a corpus whose first major is `firstMajor`. */
export function majorLayout(major: string, firstMajor: string): MajorLayout {
  const folder = majorFolder(major, firstMajor);
  const types = `${GENERATED.types}${folder}`;
  const validatorsDir = `${GENERATED.validatorsDir}${folder}`;
  const guardsDir = `${GENERATED.guardsDir}${folder}`;
  const runEventsDir = `${GENERATED.runEventsDir}${folder}`;
  return {
    major,
    folder,
    types,
    typesIndex: `${types}index.ts`,
    validatorsDir,
    validators: `${validatorsDir}validators.js`,
    guardsDir,
    guards: `${guardsDir}index.ts`,
    guardFailures: `${guardsDir}failures.ts`,
    runEventsDir,
    runEvents: `${runEventsDir}index.ts`,
  };
}

/** The declarations of a generated JavaScript module. */
export const declarationsPathOf = (jsPath: string): string => jsPath.replace(/\.js$/, '.d.ts');
/** The types module of one schema file (`folder`: its major's, see {@link majorFolder}). */
export const typesModulePath = (stem: string, folder = ''): string => `${GENERATED.types}${folder}${stem}.ts`;
/** The site-data document of one schema file, relative to `generated/site-data/` (the form links use). */
export const siteDataName = (family: string, stem: string, folder = ''): string => `${family}/${folder}${stem}.json`;
/** The site-data catalogue, relative to `generated/site-data/`. */
export const SITE_DATA_INDEX = 'index.json';

/** The specifier with which the generated module `from` imports the generated module `to` (both repository-relative). */
export function importSpecifier(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to);
  return rel.startsWith('../') ? rel : `./${rel}`;
}

/** The validator module of one type in a validators group folder (`dir` ends with `/`); its `.d.ts` sits beside it. */
export const typeValidatorModulePath = (dir: string, title: string): string => `${dir}by-type/${title}.js`;
