/**
 * Add the `$schema` lint rule example-schema requires to every example that lacks it (or names another target): the
 * target's `$id`, with `#/$defs/<Name>` for a `$defs` target, as the first key of a valid example and of an invalid
 * example's instance. Files are rewritten as JSON with two-space indentation, the corpus's format.
 * Run: npx tsx scripts/add-example-schema.ts [root]   (default: the current directory)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCorpus } from '../generator/load.ts';
import { exampleSchemaRef } from '../generator/naming.ts';

const root = resolve(process.argv[2] ?? '.');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The object with `$schema` first, set to `ref`. */
const named = (v: unknown, ref: string): unknown => (isObject(v) ? { $schema: ref, ...Object.fromEntries(Object.entries(v).filter(([k]) => k !== '$schema')) } : v);

let updated = 0;
for (const ex of loadCorpus(root).examples) {
  if (!ex.schemaId) continue;
  const path = join(root, ex.path);
  const before = readFileSync(path, 'utf8');
  const data: unknown = JSON.parse(before);
  const ref = exampleSchemaRef(ex.schemaId, ex.defName);
  const after = `${JSON.stringify(ex.kind === 'valid' ? named(data, ref) : isObject(data) ? { ...data, instance: named(data['instance'], ref) } : data, null, 2)}\n`;
  if (after !== before) {
    writeFileSync(path, after);
    updated++;
  }
}
console.log(`${updated} example file${updated === 1 ? '' : 's'} updated`);
