/**
 * Peer: Ajv's standalone compile alone: every type of the corpus compiled by Ajv2020 (strict, the corpus's formats and
 * annotation keywords, discriminator) into one ESM module with standaloneCode. Prints the ms spent.
 * Run by bench/generator/run.ts: node ajv-standalone.ts <job.json>
 */
import { readFileSync } from 'node:fs';
import type { PeerJob } from './job.ts';

const t0 = performance.now();
const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as PeerJob;
const { Ajv2020 } = await import('ajv/dist/2020.js');
const standaloneCode = (await import('ajv/dist/standalone/index.js')).default as unknown as (ajv: unknown, refs: Record<string, string>) => string;
const addFormats = (await import('ajv-formats')).default as unknown as (ajv: unknown) => void;
const ajv = new Ajv2020({ strict: true, discriminator: true, code: { source: true, esm: true } });
addFormats(ajv);
for (const keyword of job.annotations) ajv.addKeyword({ keyword, schemaType: ['object', 'array', 'string'] });
for (const [, schema] of job.schemas) ajv.addSchema(schema as object);
const code = standaloneCode(ajv, { ...job.types });
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, types: Object.keys(job.types).length, chars: code.length }));
