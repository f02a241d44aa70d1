/**
 * What the other-languages emitter hands its worker thread (render-worker.ts) and gets back, and the function that
 * runs one job there. Plain, structured-clonable data.
 */
import { availableParallelism } from 'node:os';
import type { Json } from '../../model.ts';
import type { LanguageTarget } from './languages.ts';
import { diskCache, type TextCache } from '../../work-cache.ts';
import { runWorker, siblingModule } from '../../one-shot-worker.ts';

export interface RenderJob {
  /** The corpus: `[$id, schema]` of every schema file. */
  readonly schemas: readonly (readonly [string, Json])[];
  /** The top-level types, by name and URI (`$id` or `$id#/$defs/Name`). */
  readonly tops: readonly { readonly name: string; readonly uri: string }[];
  /** The target languages, in order: quicktype language id and renderer options. */
  readonly targets: readonly { readonly lang: LanguageTarget['lang']; readonly options: Readonly<Record<string, string>> }[];
}


/**
 * Render `job` in worker threads: one per spare core (the main thread keeps one), at most three, each taking every
 * n-th target. Rejects with a worker's error (its message and code) when rendering fails.
 *
 * With a `cache`, a target is looked up first by the corpus, the top-level types and its own language and options
 * (the cache's salt holds render-worker.ts and quicktype's packages); only the misses are rendered, and no worker
 * starts when every target hits.
 */
export async function renderInWorkers(job: RenderJob, workers = Math.min(3, Math.max(1, availableParallelism() - 1)), cache?: TextCache): Promise<readonly string[]> {
  const keyOf = cacheKeys(job);
  const cached = job.targets.map((t) => cache?.get(keyOf(t)));
  const code = cached.map((c) => c ?? '');
  const missing = job.targets.map((t, i) => [t, i] as const).filter(([, i]) => cached[i] === undefined);
  const n = Math.min(workers, missing.length);
  const shares = Array.from({ length: n }, (_, w) => missing.filter((_m, k) => k % n === w));
  const rendered = await Promise.all(shares.map((share) => renderInWorker({ ...job, targets: share.map(([t]) => t) })));
  shares.forEach((share, w) =>
    share.forEach(([t, i], k) => {
      code[i] = rendered[w]![k]!;
      cache?.set(keyOf(t), code[i]);
    }),
  );
  return code;
}

/** The cache key of each target of a job: the corpus, the top-level types, the target's language and options. */
const cacheKeys = (job: RenderJob) => {
  const shared = JSON.stringify({ schemas: job.schemas, tops: job.tops });
  return (t: RenderJob['targets'][number]): string => `${shared}\0${JSON.stringify({ lang: t.lang, options: t.options })}`;
};

/** Every target's code from the cache, without rendering anything; undefined when any target is not cached. */
export function cachedRender(job: RenderJob, cache: TextCache | undefined): readonly string[] | undefined {
  if (cache === undefined) return undefined;
  const keyOf = cacheKeys(job);
  const code: string[] = [];
  for (const t of job.targets) {
    const hit = cache.get(keyOf(t));
    if (hit === undefined) return undefined;
    code.push(hit);
  }
  return code;
}

/** The disk cache of rendered targets (undefined when caching is off), salted with the worker module and quicktype's packages. */
export const renderDiskCache = (): TextCache | undefined => diskCache('other-languages', workerUrl().href, 60);

const workerUrl = (): URL => siblingModule(import.meta.url, 'render-worker');

/** Render `job` in one worker thread. */
const renderInWorker = (job: RenderJob): Promise<readonly string[]> => runWorker<readonly string[]>(workerUrl(), job, 'other-languages');
