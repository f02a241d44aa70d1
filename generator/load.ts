/**
 * Stage 1: read `schemas/<family>/v1/*.schema.json` and their examples into a {@link Corpus}.
 * Throws {@link CorpusError} (file + position) on unreadable or malformed JSON and malformed invalid-example wrappers.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Corpus, Example, Json, JsonObject, SchemaFile } from './model.ts';
import { CorpusError } from './errors.ts';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parse JSON text; on failure throw a CorpusError naming the file, line and column. */
export function parseJson(text: string, file: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (e) {
    const msg = (e as Error).message;
    let line = 0;
    let column = 0;
    const lc = /line (\d+) column (\d+)/.exec(msg);
    const pos = /position (\d+)/.exec(msg);
    if (lc) {
      line = Number(lc[1]);
      column = Number(lc[2]);
    } else if (pos) {
      const before = text.slice(0, Number(pos[1]));
      line = before.split('\n').length;
      column = before.length - before.lastIndexOf('\n');
    } else {
      const lines = text.split('\n');
      line = lines.length;
      column = (lines.at(-1)?.length ?? 0) + 1;
    }
    const reason = msg.replace(/^JSON\.parse: /, '').replace(/ in JSON at position.*$/, '').replace(/\s*\(line \d+ column \d+\)/, '');
    throw new CorpusError(`malformed JSON at line ${line}, column ${column}: ${reason}`, file);
  }
}

/** Read and parse a JSON file; I/O errors become CorpusErrors naming the file. */
export function readJsonFile(absPath: string, displayPath: string = absPath): Json {
  let text: string;
  try {
    text = readFileSync(absPath, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CorpusError(`cannot read file${code ? ` (${code})` : ''}`, displayPath);
  }
  return parseJson(text, displayPath);
}

const listDir = (dir: string): string[] => (existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).sort() : []);

/** Load the corpus under `<root>/schemas`. */
export function loadCorpus(rootDir: string): Corpus {
  const root = resolve(rootDir);
  const schemasDir = join(root, 'schemas');
  if (!existsSync(schemasDir)) throw new CorpusError('no schemas/ directory', 'schemas');
  const schemas: SchemaFile[] = [];
  const examples: Example[] = [];
  for (const family of listDir(schemasDir)) {
    const dir = join(schemasDir, family, 'v1');
    for (const fileName of listDir(dir).filter((n) => n.endsWith('.schema.json'))) {
      const path = `schemas/${family}/v1/${fileName}`;
      const schema = readJsonFile(join(dir, fileName), path);
      if (!isObject(schema)) throw new CorpusError('a schema file must contain a JSON object', path);
      const id = typeof schema['$id'] === 'string' ? schema['$id'] : '';
      schemas.push({ family, fileName, stem: fileName.slice(0, -'.schema.json'.length), path, id, schema });
    }
    const exDir = join(dir, 'examples');
    for (const target of listDir(exDir)) {
      const sep = target.indexOf('--');
      const stem = sep < 0 ? target : target.slice(0, sep);
      const defName = sep < 0 ? '' : target.slice(sep + 2);
      const owner = schemas.find((s) => s.family === family && s.stem === stem);
      for (const kind of ['valid', 'invalid'] as const) {
        for (const name of listDir(join(exDir, target, kind)).filter((n) => n.endsWith('.json'))) {
          const path = `schemas/${family}/v1/examples/${target}/${kind}/${name}`;
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
