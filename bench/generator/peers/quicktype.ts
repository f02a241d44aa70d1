/**
 * Peer: quicktype alone: the corpus's top-level types rendered for the six target languages from one parsed input,
 * offline (a JSONSchemaStore serving the corpus by $id), one language after another. Prints the ms spent.
 * Run by bench/generator/run.ts: node quicktype.ts <job.json>
 */
import { readFileSync } from 'node:fs';
import type { JSONSchema } from 'quicktype-core';
import type { PeerJob } from './job.ts';

const t0 = performance.now();
const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as PeerJob;
const { InputData, JSONSchemaInput, JSONSchemaStore, quicktype } = await import('quicktype-core');
const byId = new Map(job.schemas);
class CorpusStore extends JSONSchemaStore {
  async fetch(address: string): Promise<JSONSchema | undefined> {
    return byId.get(address.split('#')[0]!) as JSONSchema | undefined;
  }
}
const input = new JSONSchemaInput(new CorpusStore());
for (const t of job.tops) await input.addSource({ name: t.name, uris: [t.uri] });
const data = new InputData();
data.addInput(input);
let lines = 0;
for (const t of job.targets) lines += (await quicktype({ inputData: data, lang: t.lang as Parameters<typeof quicktype>[0]['lang'], rendererOptions: t.options })).lines.length;
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, languages: job.targets.length, lines }));
