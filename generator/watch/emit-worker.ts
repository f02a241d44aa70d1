/**
 * A worker thread that runs the whole-corpus emitters (other-languages, with --all) for the watch session, so they
 * render while the main thread writes the per-schema emitters' files. It keeps its modules loaded between runs.
 * Message in: `{ id, corpus, emitters }` (a LoadedCorpus without file texts, emitter names); out: `{ id, files, owns }`
 * or `{ id, error }`. These emitters do not read the TypeScript declarations.
 */
import { parentPort } from 'node:worker_threads';
import type { LoadedCorpus } from '../model.ts';
import { resolveCorpus } from '../resolve.ts';
import { emitAll } from '../emit.ts';
import { EMITTERS } from '../emitters.ts';
import { CorpusError } from '../errors.ts';

export interface EmitRequest {
  readonly id: number;
  readonly corpus: LoadedCorpus;
  readonly emitters: readonly string[];
}
export type EmitResponse =
  | { readonly id: number; readonly files: { path: string; contents: string }[]; readonly owns: readonly string[] }
  | { readonly id: number; readonly error: { readonly message: string; readonly file?: string; readonly pointer?: string } };

parentPort?.on('message', async (req: EmitRequest) => {
  try {
    const emission = await emitAll(resolveCorpus(req.corpus), EMITTERS.filter((e) => req.emitters.includes(e.name)), { declare: async () => new Map() });
    parentPort?.postMessage({ id: req.id, files: [...emission.files], owns: emission.owns } satisfies EmitResponse);
  } catch (e) {
    const error = e instanceof CorpusError ? { message: e.message, file: e.file, pointer: e.pointer } : { message: e instanceof Error ? e.message : String(e) };
    parentPort?.postMessage({ id: req.id, error } satisfies EmitResponse);
  }
});
