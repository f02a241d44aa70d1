/**
 * The main thread's side of emit-worker.ts: one persistent worker, started after the first run (so the first run is as
 * fast as gen) and kept loaded. Falls back to running the emitters in the main thread when a worker cannot start (the
 * result is the same, only not in parallel).
 */
import { Worker } from 'node:worker_threads';
import type { LoadedCorpus } from '../model.ts';
import type { Emission } from '../emit.ts';
import { emitAll } from '../emit.ts';
import { EMITTERS } from '../emitters.ts';
import { resolveCorpus } from '../resolve.ts';
import { CorpusError } from '../errors.ts';
import type { EmitRequest, EmitResponse } from './emit-worker.ts';
import { siblingModule } from '../one-shot-worker.ts';

/** The worker module beside this one (`.ts` from source, `.js` in the package). */
const workerUrl = (): URL => siblingModule(import.meta.url, 'emit-worker');

export class EmitWorker {
  private worker: Worker | undefined;
  private next = 0;
  private readonly pending = new Map<number, (r: EmitResponse) => void>();

  /**
   * Start the worker and let it load its modules by running the emitters once on `corpus` (the result is dropped).
   * Until it has started, `emit` runs in the main thread; a worker that cannot start leaves it that way.
   */
  warmUp(corpus: LoadedCorpus, emitters: readonly string[]): void {
    if (this.worker) return;
    try {
      this.worker = new Worker(workerUrl());
      this.worker.unref();
      this.worker.on('message', (r: EmitResponse) => {
        this.pending.get(r.id)?.(r);
        this.pending.delete(r.id);
      });
      this.worker.on('error', () => this.fail());
      void this.emit(corpus, emitters).catch(() => {});
    } catch {
      this.worker = undefined;
    }
  }

  /** Run the named emitters on a corpus (in the worker when there is one). */
  async emit(corpus: LoadedCorpus, emitters: readonly string[]): Promise<Emission> {
    if (!this.worker) return emitAll(resolveCorpus(corpus), EMITTERS.filter((e) => emitters.includes(e.name)), { declare: async () => new Map() });
    const id = this.next++;
    // File texts are for locating findings; the emitters do not need them.
    const lean: LoadedCorpus = { root: corpus.root, config: corpus.config, ...(corpus.idBase !== undefined ? { idBase: corpus.idBase } : {}), schemas: corpus.schemas.map(({ text: _t, ...f }) => f), examples: corpus.examples.map(({ text: _t, ...e }) => e) };
    const response = await new Promise<EmitResponse>((resolveResponse) => {
      this.pending.set(id, resolveResponse);
      this.worker?.postMessage({ id, corpus: lean, emitters } satisfies EmitRequest);
    });
    if ('error' in response) throw new CorpusError(response.error.message, response.error.file ?? '', response.error.pointer ?? '');
    return { files: response.files, owns: response.owns };
  }

  /** A worker that died: answer what is pending with an error and run later requests in the main thread. */
  private fail(): void {
    this.worker = undefined;
    for (const [id, answer] of this.pending) answer({ id, error: { message: 'the emitter worker stopped' } });
    this.pending.clear();
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }
}
