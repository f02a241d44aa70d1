/**
 * Worker thread of the declarations step: compiles the TypeScript declarations that were not in the cache with
 * json-schema-to-typescript (and prettier), off the main thread, which meanwhile checks the corpus and runs the emitters
 * that do not read declarations. Plain data in (`{ title, schema }` per projection), the texts out in the same order
 * (generator/one-shot-worker.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileProjection, type DeclareJob } from './ts-declarations.ts';
import { answerOf } from '../one-shot-worker.ts';

async function compileAll(jobs: readonly DeclareJob[]): Promise<string[]> {
  const texts: string[] = [];
  for (const j of jobs) texts.push(await compileProjection(j.schema, j.title));
  return texts;
}

parentPort!.postMessage(await answerOf(() => compileAll(workerData as DeclareJob[])));
