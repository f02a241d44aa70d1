/**
 * Stage 1: read `schemas/<family>/v1/*.schema.json`, their examples and the host's route tables
 * (`schemas/<family>/v1/routes.json`, route-table.ts) into a {@link LoadedCorpus}.
 * Throws {@link CorpusError} (file + position) on unreadable or malformed JSON and malformed invalid-example wrappers,
 * or, with `keepGoing`, records each such file as a problem and loads the rest (lint reports every file's findings).
 * An example's top-level `$schema` (for editors) is taken out of the instance before anything validates it.
 */
import { readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Example, Json, LoadProblem, LoadedCorpus, RouteTableFile, SchemaFile } from './model.ts';
import { ROUTE_TABLE_FILE } from './route-table.ts';
import { CorpusError } from './errors.ts';
import { isObject, readJsonText } from './json.ts';
import { DRAFT_2020_12, createAjv } from './ajv.ts';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { examplePath, isSchemaFileName, parseExampleTarget, schemaPath, schemaStem } from './naming.ts';
import { metaSchemaMessages } from './meta-messages.ts';

/** The sorted names in a directory; none when it does not exist or is no directory (one system call, not three). */
function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw e;
  }
}

/** The key an example file uses to name its schema for editors; the loader removes it before validation. */
export const EXAMPLE_SCHEMA_KEY = '$schema';

/** An instance without its top-level `$schema`, and the value it had. */
function withoutSchemaKey(instance: Json): { instance: Json; declaredSchema?: Json } {
  if (!isObject(instance) || !(EXAMPLE_SCHEMA_KEY in instance)) return { instance };
  const { [EXAMPLE_SCHEMA_KEY]: declaredSchema, ...rest } = instance;
  return { instance: rest, declaredSchema: declaredSchema as Json };
}

/** One example file read into an {@link Example}; throws a CorpusError for a malformed file or wrapper. */
function readExample(abs: string, base: Omit<Example, 'instance'>): Example {
  const { text, data } = readJsonText(abs, base.path);
  if (base.kind === 'valid') return { ...base, text, ...withoutSchemaKey(data) };
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
    ...withoutSchemaKey(data['instance'] as Json),
    description: data['description'],
    expect: { instancePath: expect['instancePath'], keyword: expect['keyword'] },
  };
}

export interface LoadOptions {
  /** Record unusable files as `problems` and load the rest, instead of throwing at the first one. */
  readonly keepGoing?: boolean;
}

/** Load the corpus under `<root>/schemas`. */
export function loadCorpus(rootDir: string, options: LoadOptions = {}): LoadedCorpus {
  const root = resolve(rootDir);
  const schemasDir = join(root, 'schemas');
  if (!existsSync(schemasDir)) throw new CorpusError('directory not found (the corpus root given by --root must contain schemas/)', schemasDir);
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
  for (const family of listDir(schemasDir)) {
    const dir = join(schemasDir, family, 'v1');
    /** Stems whose schema file could not be loaded: their examples cannot be checked and are left out silently. */
    const unusable = new Set<string>();
    for (const fileName of listDir(dir).filter(isSchemaFileName)) {
      const path = schemaPath(family, fileName);
      unusable.add(schemaStem(fileName));
      attempt(() => {
        const { text, data: schema } = readJsonText(join(dir, fileName), path);
        if (!isObject(schema)) throw new CorpusError('a schema file must contain a JSON object', path);
        const id = typeof schema['$id'] === 'string' ? schema['$id'] : '';
        schemas.push({ family, fileName, stem: schemaStem(fileName), path, id, schema, text });
        unusable.delete(schemaStem(fileName));
      });
    }
    if (listDir(dir).includes(ROUTE_TABLE_FILE)) {
      const path = `schemas/${family}/v1/${ROUTE_TABLE_FILE}`;
      attempt(() => {
        const { text, data } = readJsonText(join(dir, ROUTE_TABLE_FILE), path);
        if (!isObject(data)) throw new CorpusError('a route table must contain a JSON object', path);
        routeTables.push({ path, family, data, text });
      });
    }
    const exDir = join(dir, 'examples');
    for (const target of listDir(exDir)) {
      const { stem, defName } = parseExampleTarget(target);
      const owner = schemas.find((s) => s.family === family && s.stem === stem);
      if (unusable.has(stem)) continue;
      for (const kind of ['valid', 'invalid'] as const) {
        for (const name of listDir(join(exDir, target, kind)).filter((n) => n.endsWith('.json'))) {
          const base = { family, target, schemaId: owner?.id ?? '', defName, kind, path: examplePath(family, target, kind, name) };
          attempt(() => examples.push(readExample(join(exDir, target, kind, name), base)));
        }
      }
    }
  }
  return { root, schemas, examples, ...(routeTables.length > 0 ? { routeTables } : {}), ...(options.keepGoing ? { problems } : {}) };
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

