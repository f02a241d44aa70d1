/**
 * Worker thread of the other-languages emitter: quicktype-core renders every target language from one parsed input,
 * off the generator's main thread (which meanwhile emits the TypeScript types and validators). Plain data in
 * (`RenderJob`), the rendered code of each target out, in the job's order; a failure is posted as its message and
 * code (so that "package not installed" reads the same as on the main thread).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { JSONSchema } from 'quicktype-core';
import type { RenderJob } from './render-job.ts';
import { answerOf } from '../../one-shot-worker.ts';

async function render(job: RenderJob): Promise<string[]> {
  const { InputData, JSONSchemaInput, JSONSchemaStore, quicktype } = await import('quicktype-core');
  const byId = new Map(job.schemas);
  class CorpusStore extends JSONSchemaStore {
    async fetch(address: string): Promise<JSONSchema | undefined> {
      return byId.get(address.split('#')[0]!) as JSONSchema | undefined;
    }
  }
  // One parsed input serves every target language.
  const input = new JSONSchemaInput(new CorpusStore());
  for (const t of job.tops) await input.addSource({ name: t.name, uris: [t.uri] });
  const data = new InputData();
  data.addInput(input);
  const code: string[] = [];
  for (const target of job.targets) code.push((await quicktype({ inputData: data, lang: target.lang, rendererOptions: target.options })).lines.join('\n'));
  return code;
}

parentPort!.postMessage(await answerOf(() => render(workerData as RenderJob)));
