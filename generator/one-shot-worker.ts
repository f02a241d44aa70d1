/**
 * A worker thread that does one job and answers once: the other-language renderer and the declarations compiler both
 * run so. The worker posts either `{ value }` or `{ error: { message, code? } }` (the code kept, so that a package the
 * worker could not load reads the same as on the main thread: the CLI names it and the install command).
 */
import { Worker } from 'node:worker_threads';

/** What a one-shot worker posts back. */
export type WorkerAnswer<T> = { readonly value: T } | { readonly error: { readonly message: string; readonly code?: string } };

/** A module beside `moduleUrl`, by its name without extension: `.ts` in the repository, compiled `.js` in the package. */
export const siblingModule = (moduleUrl: string, name: string): URL => new URL(`./${name}${moduleUrl.endsWith('.ts') ? '.ts' : '.js'}`, moduleUrl);

/** The answer a worker posts for `run(data)`: the value, or the error as data. */
export async function answerOf<T>(run: () => Promise<T>): Promise<WorkerAnswer<T>> {
  try {
    return { value: await run() };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return { error: { message: e instanceof Error ? e.message : String(e), ...(code === undefined ? {} : { code: String(code) }) } };
  }
}

/**
 * Start the worker module at `url` with `data` and resolve with the value it posts (reject with its error). `what`
 * names it in the error of a worker that exits without an answer. With `unref`, a process that is done does not wait
 * for it.
 */
export function runWorker<T>(url: URL, data: unknown, what: string, options: { readonly unref?: boolean } = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: data });
    if (options.unref) worker.unref();
    let settled = false;
    worker.once('message', (answer: WorkerAnswer<T>) => {
      settled = true;
      if ('value' in answer) resolve(answer.value);
      else reject(Object.assign(new Error(answer.error.message), answer.error.code === undefined ? {} : { code: answer.error.code }));
    });
    worker.once('error', (e) => {
      settled = true;
      reject(e);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the ${what} worker exited (code ${code}) without an answer`));
    });
  });
}
