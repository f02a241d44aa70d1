/**
 * Worker thread of the declarations step: compiles the TypeScript declarations that were not in the cache with
 * json-schema-to-typescript (and prettier), off the main thread, which meanwhile checks the corpus and runs the emitters
 * that do not read declarations. Plain data in (`{ title, schema }` per projection), the texts out in the same order; a
 * failure is posted as its message and code (so that "package not installed" reads the same as on the main thread).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileProjection, type DeclareJob, type DeclareResult } from './ts-declarations.ts';

async function compileAll(jobs: readonly DeclareJob[]): Promise<DeclareResult> {
  try {
    const texts: string[] = [];
    for (const j of jobs) texts.push(await compileProjection(j.schema, j.title));
    return { texts };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return { error: { message: e instanceof Error ? e.message : String(e), ...(code === undefined ? {} : { code: String(code) }) } };
  }
}

parentPort!.postMessage(await compileAll(workerData as DeclareJob[]));
