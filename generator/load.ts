/**
 * Stage 1: read `schemas/<family>/v1/*.schema.json` and their examples into a {@link LoadedCorpus}.
 * Throws {@link CorpusError} (file + position) on unreadable or malformed JSON and malformed invalid-example wrappers.
 */
import { readdirSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Example, Json, LoadedCorpus, SchemaFile } from './model.ts';
import { CorpusError } from './errors.ts';
import { isObject, readJsonFile } from './json.ts';
import { DRAFT_2020_12, createAjv } from './ajv.ts';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { examplePath, isSchemaFileName, parseExampleTarget, schemaPath, schemaStem } from './naming.ts';

const listDir = (dir: string): string[] => (existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).sort() : []);

/** Load the corpus under `<root>/schemas`. */
export function loadCorpus(rootDir: string): LoadedCorpus {
  const root = resolve(rootDir);
  const schemasDir = join(root, 'schemas');
  if (!existsSync(schemasDir)) throw new CorpusError('directory not found (the corpus root given by --root must contain schemas/)', schemasDir);
  const schemas: SchemaFile[] = [];
  const examples: Example[] = [];
  for (const family of listDir(schemasDir)) {
    const dir = join(schemasDir, family, 'v1');
    for (const fileName of listDir(dir).filter(isSchemaFileName)) {
      const path = schemaPath(family, fileName);
      const schema = readJsonFile(join(dir, fileName), path);
      if (!isObject(schema)) throw new CorpusError('a schema file must contain a JSON object', path);
      const id = typeof schema['$id'] === 'string' ? schema['$id'] : '';
      schemas.push({ family, fileName, stem: schemaStem(fileName), path, id, schema });
    }
    const exDir = join(dir, 'examples');
    for (const target of listDir(exDir)) {
      const { stem, defName } = parseExampleTarget(target);
      const owner = schemas.find((s) => s.family === family && s.stem === stem);
      for (const kind of ['valid', 'invalid'] as const) {
        for (const name of listDir(join(exDir, target, kind)).filter((n) => n.endsWith('.json'))) {
          const path = examplePath(family, target, kind, name);
          const data = readJsonFile(join(exDir, target, kind, name), path);
          const base = { family, target, schemaId: owner?.id ?? '', defName, kind, path };
          if (kind === 'valid') {
            examples.push({ ...base, instance: data });
            continue;
          }
          if (!isObject(data)) throw new CorpusError('an invalid example must be a {description, expect, instance} wrapper', path);
          const expect = data['expect'];
          if (!('instance' in data)) throw new CorpusError('invalid example wrapper has no "instance"', path, '/instance');
          if (!isObject(expect) || typeof expect['instancePath'] !== 'string' || typeof expect['keyword'] !== 'string')
            throw new CorpusError('invalid example wrapper needs "expect": {"instancePath": string, "keyword": string}', path, '/expect');
          if (typeof data['description'] !== 'string')
            throw new CorpusError('invalid example wrapper needs a "description" string', path, '/description');
          examples.push({
            ...base,
            instance: data['instance'] as Json,
            description: data['description'],
            expect: { instancePath: expect['instancePath'], keyword: expect['keyword'] },
          });
        }
      }
    }
  }
  return { root, schemas, examples };
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
  const out: MetaViolation[] = [];
  const seen = new Set<string>();
  for (const e of ajv.errors ?? []) {
    const key = `${e.instancePath} ${e.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file: f.path, pointer: e.instancePath, message: `not a valid draft 2020-12 schema: ${e.message ?? e.keyword}` });
  }
  return out;
}

/** Validate every schema against the draft 2020-12 meta-schema. */
export function metaViolations(corpus: LoadedCorpus): MetaViolation[] {
  const ajv = createAjv();
  return corpus.schemas.flatMap((f) => metaViolationsOf(ajv, f));
}

/** Throw a CorpusError (file + pointer) for the first schema that is not a valid draft 2020-12 schema. */
export function assertMetaValid(corpus: LoadedCorpus): void {
  const v = metaViolations(corpus)[0];
  if (v) throw new CorpusError(v.message, v.file, v.pointer);
}
