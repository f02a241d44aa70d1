/**
 * Interim check for schema authors while the full `wopkit lint` is being built:
 * compiles every schema in strict mode and checks every example behaves as declared.
 * Usage: npx tsx scripts/quick-check.ts [family]
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createAjv } from '../generator/ajv.ts';

const only = process.argv[2];
const ajv = createAjv();
const files: { family: string; stem: string; id: string }[] = [];
for (const family of ['openwop', 'inquirium']) {
  const dir = join('schemas', family, 'v1');
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.schema.json'))) {
    const schema = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    ajv.addSchema(schema);
    files.push({ family, stem: f.replace(/\.schema\.json$/, ''), id: schema.$id });
  }
}
let failures = 0;
const fail = (m: string) => { failures++; console.log('FAIL ' + m); };
for (const f of files) {
  if (only && f.family !== only) continue;
  try { ajv.getSchema(f.id); } catch (e) { fail(`${f.family}/${f.stem}: ${(e as Error).message}`); }
}
let count = 0;
for (const family of ['openwop', 'inquirium']) {
  if (only && family !== only) continue;
  const exDir = join('schemas', family, 'v1', 'examples');
  if (!existsSync(exDir)) continue;
  for (const target of readdirSync(exDir)) {
    const [stem, def] = target.split('--');
    const file = files.find((x) => x.family === family && x.stem === stem);
    if (!file) { fail(`examples/${target}: no schema file ${stem}.schema.json`); continue; }
    const ref = def ? `${file.id}#/$defs/${def}` : file.id;
    let validate;
    try { validate = ajv.getSchema(ref); } catch (e) { fail(`${ref}: ${(e as Error).message}`); continue; }
    if (!validate) { fail(`${ref}: not found`); continue; }
    for (const kind of ['valid', 'invalid']) {
      const d = join(exDir, target, kind);
      if (!existsSync(d) || !statSync(d).isDirectory()) { fail(`${family}/${target}: no ${kind} examples`); continue; }
      for (const ex of readdirSync(d).filter((n) => n.endsWith('.json'))) {
        count++;
        const p = join(d, ex);
        let data;
        try { data = JSON.parse(readFileSync(p, 'utf8')); } catch (e) { fail(`${p}: bad JSON ${(e as Error).message}`); continue; }
        if (kind === 'valid') {
          if (!validate(data)) fail(`${p}: expected valid, got ${JSON.stringify(validate.errors?.slice(0, 3))}`);
        } else {
          const { expect, instance } = data;
          if (!expect || instance === undefined) { fail(`${p}: invalid example needs {description, expect, instance}`); continue; }
          if (validate(instance)) { fail(`${p}: expected invalid, but it validated`); continue; }
          const hit = validate.errors?.some((e) => e.instancePath === expect.instancePath && e.keyword === expect.keyword);
          if (!hit) fail(`${p}: expected ${expect.keyword} at "${expect.instancePath}", got ${JSON.stringify(validate.errors?.map((e) => [e.instancePath, e.keyword]))}`);
        }
      }
    }
  }
}
console.log(`${files.length} schemas, ${count} examples, ${failures} failures`);
process.exit(failures ? 1 : 0);
