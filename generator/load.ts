/**
 * Stage 1: read `schemas/<family>/<major>/*.schema.json`, their examples and the host's route tables
 * (`schemas/<family>/<major>/routes.json`, route-table.ts) into a {@link LoadedCorpus}, for the families and majors the
 * corpus settings name (corpus-config.ts; without them, every family folder and `v<N>` folder).
 * Throws {@link CorpusError} (file + position) on unreadable or malformed JSON and malformed invalid-example wrappers,
 * or, with `keepGoing`, records each such file as a problem and loads the rest (lint reports every file's findings).
 * An example's top-level `$schema` (for editors) is taken out of the instance before anything validates it.
 */
import { readdirSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Example, Json, LoadProblem, LoadedCorpus, MajorTableFile, RouteTableFile, SchemaFile } from './model.ts';
import { ROUTE_TABLE_FILE } from './route-table.ts';
import { CorpusError, escapePointer } from './errors.ts';
import { isObject, readJsonText } from './json.ts';
import { DRAFT_2020_12, createAjv } from './ajv.ts';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { EXAMPLES_DIR, MAJORS_DIR, SCHEMA_SUFFIX, SCHEMAS_DIR, examplePath, firstMajorOf, idBaseOf, isSchemaFileName, parseExampleTarget, schemaPath, schemaStem, type SchemaFolder } from './naming.ts';
import { metaSchemaMessages } from './meta-messages.ts';
import { MAJOR, SETTINGS_FILE, SETTINGS_KEY, corpusConfig, type CorpusConfig } from './corpus-config.ts';
import { withoutEditorSchema } from './example-instance.ts';
import { byCodeUnits } from './order.ts';

/** The sorted names in a directory; none when it does not exist or is no directory (one system call, not three). */
function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw e;
  }
}

export { EXAMPLE_SCHEMA_KEY } from './example-instance.ts';

/** A name in a directory that is itself a directory. */
const isDir = (dir: string, name: string): boolean => {
  try {
    return statSync(join(dir, name)).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The folders to load: those the settings name (each must exist), else every family folder under `schemas/` and every
 * `v<N>` folder in it. Families in code-unit order whatever the settings' key order (the corpus order does not depend
 * on how the settings are written), each family's majors in the settings' order.
 */
export function corpusFolders(schemasDir: string, config: CorpusConfig, skipMissing = false): SchemaFolder[] {
  if (config.families === undefined)
    return listDir(schemasDir)
      .filter((family) => isDir(schemasDir, family))
      .flatMap((family) => listDir(join(schemasDir, family)).filter((major) => MAJOR.test(major) && isDir(join(schemasDir, family), major)).map((major) => ({ family, major })));
  return Object.entries(config.families).sort(([a], [b]) => byCodeUnits(a, b)).flatMap(([family, majors]) =>
    majors.flatMap((major, i) => {
      if (isDir(join(schemasDir, family), major)) return [{ family, major }];
      if (skipMissing) return [];
      throw new CorpusError(`the settings name ${SCHEMAS_DIR}/${family}/${major}/, which is not a directory`, SETTINGS_FILE, `/${SETTINGS_KEY}/families/${escapePointer(family)}/${i}`);
    }),
  );
}

/** The `$id` base most of the schemas' `$id`s share (the first in load order on a tie); undefined when none has one. */
function sharedIdBase(schemas: readonly SchemaFile[]): string | undefined {
  const counts = new Map<string, number>();
  for (const f of schemas) {
    const base = idBaseOf(f.id, f, f.fileName);
    if (base !== undefined) counts.set(base, (counts.get(base) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [base, n] of counts) if (best === undefined || n > counts.get(best)!) best = base;
  return best;
}

/** One example file read into an {@link Example}; throws a CorpusError for a malformed file or wrapper. */
function readExample(abs: string, base: Omit<Example, 'instance'>): Example {
  const { text, data } = readJsonText(abs, base.path);
  if (base.kind === 'valid') return { ...base, text, ...withoutEditorSchema(data) };
  const path = base.path;
  if (!isObject(data)) throw new CorpusError('an invalid example must be a {description, expect, instance} wrapper', path);
  const expect = data['expect'];
  if (!('instance' in data)) throw new CorpusError('invalid example wrapper has no "instance"', path, '/instance');
  if (!isObject(expect) || typeof expect['instancePath'] !== 'string' || typeof expect['keyword'] !== 'string')
    throw new CorpusError('invalid example wrapper needs "expect": {"instancePath": string, "keyword": string}', path, '/expect');
  if (typeof data['description'] !== 'string') throw new CorpusError('invalid example wrapper needs a "description" string', path, '/description');
  return {
    ...base,
    text,
    ...withoutEditorSchema(data['instance'] as Json),
    description: data['description'],
    expect: { instancePath: expect['instancePath'], keyword: expect['keyword'] },
  };
}

export interface LoadOptions {
  /** Record unusable files as `problems` and load the rest, instead of throwing at the first one. */
  readonly keepGoing?: boolean;
  /** The corpus settings (default: read from the package.json at the root). */
  readonly config?: CorpusConfig;
  /** A folder the settings name that does not exist is left out instead of refused (a baseline older than a major). */
  readonly skipMissingFolders?: boolean;
}

/** Load the corpus under `<root>/schemas`. */
export function loadCorpus(rootDir: string, options: LoadOptions = {}): LoadedCorpus {
  const root = resolve(rootDir);
  const schemasDir = join(root, SCHEMAS_DIR);
  if (!existsSync(schemasDir)) throw new CorpusError('directory not found (the corpus root given by --root must contain schemas/)', schemasDir);
  const config = options.config ?? corpusConfig(root);
  const schemas: SchemaFile[] = [];
  const examples: Example[] = [];
  const routeTables: RouteTableFile[] = [];
  const problems: LoadProblem[] = [];
  /** Run one file's read; with keepGoing a CorpusError becomes a problem and the file is skipped. */
  const attempt = (read: () => void): void => {
    try {
      read();
    } catch (e) {
      if (!options.keepGoing || !(e instanceof CorpusError)) throw e;
      problems.push({ file: e.file, pointer: e.pointer, message: e.message, ...(e.position ? { position: e.position } : {}) });
    }
  };
  const folders = corpusFolders(schemasDir, config, options.skipMissingFolders);
  for (const folder of folders) {
    const { family, major } = folder;
    const dir = join(schemasDir, family, major);
    /** Stems whose schema file could not be loaded: their examples cannot be checked and are left out silently. */
    const unusable = new Set<string>();
    for (const fileName of listDir(dir).filter(isSchemaFileName)) {
      const path = schemaPath(folder, fileName);
      unusable.add(schemaStem(fileName));
      attempt(() => {
        const { text, data: schema } = readJsonText(join(dir, fileName), path);
        if (!isObject(schema)) throw new CorpusError('a schema file must contain a JSON object', path);
        const id = typeof schema['$id'] === 'string' ? schema['$id'] : '';
        schemas.push({ family, major, fileName, stem: schemaStem(fileName), path, id, schema, text });
        unusable.delete(schemaStem(fileName));
      });
    }
    if (listDir(dir).includes(ROUTE_TABLE_FILE)) {
      const path = schemaPath(folder, ROUTE_TABLE_FILE);
      attempt(() => {
        const { text, data } = readJsonText(join(dir, ROUTE_TABLE_FILE), path);
        if (!isObject(data)) throw new CorpusError('a route table must contain a JSON object', path);
        routeTables.push({ path, family, data, text });
      });
    }
    const exDir = join(dir, EXAMPLES_DIR);
    for (const target of listDir(exDir)) {
      const { stem, defName } = parseExampleTarget(target);
      const owner = schemas.find((s) => s.family === family && s.major === major && s.stem === stem);
      if (unusable.has(stem)) continue;
      for (const kind of ['valid', 'invalid'] as const) {
        for (const name of listDir(join(exDir, target, kind)).filter((n) => n.endsWith('.json'))) {
          const base = { family, major, target, schemaId: owner?.id ?? '', defName, kind, path: examplePath(folder, target, kind, name) };
          attempt(() => examples.push(readExample(join(exDir, target, kind, name), base)));
        }
      }
    }
  }
  // The tables of what differs between a family's majors: schemas/<family>/majors/<name>.json (not their schemas).
  const majorTables: MajorTableFile[] = [];
  for (const family of [...new Set(folders.map((f) => f.family))]) {
    const dir = join(schemasDir, family, MAJORS_DIR);
    for (const file of listDir(dir).filter((n) => n.endsWith('.json') && !isSchemaFileName(n))) {
      const path = `${SCHEMAS_DIR}/${family}/${MAJORS_DIR}/${file}`;
      attempt(() => {
        const { text, data } = readJsonText(join(dir, file), path);
        if (!isObject(data)) throw new CorpusError('a majors table must contain a JSON object', path);
        const name = file.slice(0, -'.json'.length);
        const schemaFile = `${name}${SCHEMA_SUFFIX}`;
        const beside = listDir(dir).includes(schemaFile) ? readJsonText(join(dir, schemaFile), `${SCHEMAS_DIR}/${family}/${MAJORS_DIR}/${schemaFile}`).data : undefined;
        majorTables.push({ path, family, name, data, text, ...(isObject(beside) ? { schema: beside } : {}) });
      });
    }
  }
  const idBase = config.idBase ?? sharedIdBase(schemas);
  return { root, config, ...(idBase !== undefined ? { idBase } : {}), firstMajor: firstMajorOf(folders.map((f) => f.major)), schemas, examples, ...(routeTables.length > 0 ? { routeTables } : {}), ...(majorTables.length > 0 ? { majorTables } : {}), ...(options.keepGoing ? { problems } : {}) };
}

/** One meta-schema violation: the schema file is not a valid draft 2020-12 schema. */
export interface MetaViolation {
  file: string;
  pointer: string;
  message: string;
}

/** Validate one schema against the draft 2020-12 meta-schema with the given Ajv (pointers point into the schema file). */
export function metaViolationsOf(ajv: Ajv2020, f: SchemaFile): MetaViolation[] {
  let ok: boolean;
  try {
    ok = ajv.validate(DRAFT_2020_12, f.schema) as boolean;
  } catch (e) {
    return [{ file: f.path, pointer: '', message: `cannot meta-validate: ${(e as Error).message}` }];
  }
  if (ok) return [];
  return metaSchemaMessages(f.schema, ajv.errors ?? []).map((m) => ({ file: f.path, pointer: m.pointer, message: `not a valid draft 2020-12 schema: ${m.message}` }));
}

/**
 * Validate every schema against the draft 2020-12 meta-schema (with `ajv`, when given: it only validates, so one
 * instance can serve many runs and the meta-schema is compiled once).
 */
export function metaViolations(corpus: LoadedCorpus, ajv: Ajv2020 = createAjv()): MetaViolation[] {
  return corpus.schemas.flatMap((f) => metaViolationsOf(ajv, f));
}

