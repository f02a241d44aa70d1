/**
 * The OpenWOP v2 part of the corpus (`schemas/openwop/v2/`), read the way the loader reads a major: schema files and
 * their examples, straight from the folder (the loader reads it too, now that the settings list v2; these helpers also
 * read a scratch copy, as the upstream-acceptance test does). `oracleAjvWithV2` holds every corpus schema as well,
 * since v2 files reference v1 definitions; the given v2 schemas replace the corpus's own v2 files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { loadCorpus } from '../../generator/load.ts';
import { createAjv } from '../../generator/ajv.ts';

/** The repository root. */
export const REPO = resolve(import.meta.dirname, '../..');
export const V2_DIR = join(REPO, 'schemas', 'openwop', 'v2');
export const V1_DIR = join(REPO, 'schemas', 'openwop', 'v1');
export const MAJORS_DIR = join(REPO, 'schemas', 'openwop', 'majors');

export type JsonObject = { [k: string]: unknown };

export interface V2Schema {
  readonly fileName: string;
  readonly stem: string;
  readonly schema: JsonObject;
}

export interface V2Example {
  /** Path relative to the repository. */
  readonly path: string;
  /** `<stem>` or `<stem>--<DefName>`. */
  readonly target: string;
  readonly kind: 'valid' | 'invalid';
  /** The instance without its editor `$schema` key. */
  readonly instance: unknown;
  /** The `$schema` the example declared for editors, if any. */
  readonly declaredSchema?: unknown;
  readonly expect?: { readonly instancePath: string; readonly keyword: string };
  readonly description?: string;
}

const list = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8')) as unknown;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function splitSchemaKey(v: unknown): { instance: unknown; declaredSchema?: unknown } {
  if (!isObject(v) || !('$schema' in v)) return { instance: v };
  const { $schema: declaredSchema, ...rest } = v;
  return { instance: rest, declaredSchema };
}

export function loadV2Schemas(dir: string = V2_DIR): V2Schema[] {
  return list(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .map((fileName) => ({ fileName, stem: fileName.slice(0, -'.schema.json'.length), schema: readJson(join(dir, fileName)) as JsonObject }));
}

export function loadV2Examples(dir: string = V2_DIR): V2Example[] {
  const out: V2Example[] = [];
  const exDir = join(dir, 'examples');
  for (const target of list(exDir)) {
    for (const kind of ['valid', 'invalid'] as const) {
      for (const name of list(join(exDir, target, kind)).filter((n) => n.endsWith('.json'))) {
        const path = join('schemas', 'openwop', 'v2', 'examples', target, kind, name);
        const data = readJson(join(exDir, target, kind, name));
        if (kind === 'valid') {
          out.push({ path, target, kind, ...splitSchemaKey(data) });
          continue;
        }
        if (!isObject(data) || !isObject(data['expect']) || typeof data['description'] !== 'string' || !('instance' in data))
          throw new Error(`${path}: an invalid example must be a {description, expect: {instancePath, keyword}, instance} wrapper`);
        const expect = data['expect'];
        if (typeof expect['instancePath'] !== 'string' || typeof expect['keyword'] !== 'string')
          throw new Error(`${path}: expect needs instancePath and keyword strings`);
        out.push({
          path,
          target,
          kind,
          ...splitSchemaKey(data['instance']),
          description: data['description'],
          expect: { instancePath: expect['instancePath'], keyword: expect['keyword'] },
        });
      }
    }
  }
  return out;
}

/** The `$id` (with `#/$defs/Name` for a `$defs` target) an example's target names. */
export function targetRef(target: string, base = 'https://wopkit.dev/schemas/openwop/v2/'): string {
  const [stem, def] = target.split('--') as [string, string | undefined];
  return `${base}${stem}.schema.json${def === undefined ? '' : `#/$defs/${def}`}`;
}

/** Ajv configured as the corpus requires, holding every corpus schema (all v1 families) and every v2 schema. */
export function oracleAjvWithV2(v2: readonly V2Schema[] = loadV2Schemas()): Ajv2020 {
  const ajv = createAjv();
  for (const f of loadCorpus(REPO).schemas) if (f.major !== 'v2' || f.family !== 'openwop') ajv.addSchema(f.schema as object);
  for (const f of v2) ajv.addSchema(f.schema);
  return ajv;
}
