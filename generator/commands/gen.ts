/**
 * `wopkit gen [--all] [--skip <emitters>] [--check]`: load → resolve → lint (what gen needs) → emit → write, or compare
 * with disk; a progress line per stage (and per emitter). `--watch` hands over to generator/watch/.
 *
 * Which emitters run: those of the corpus's settings (corpus-config.ts), minus `--skip`. A slow emitter
 * (other-languages: quicktype, seconds per run) is left out of `gen` unless `--all`, except when the disk cache already
 * holds its files for this corpus; `gen --check` always includes it. With `--all` the slow emitter renders alongside the
 * others and the others' files are written first, without waiting for it.
 *
 * `gen --check` first asks the input hash (gen-hash.ts): when the inputs and every generated file are as the last
 * complete `gen` recorded them, it answers without loading a code generator or emitting anything (`fastPath: true` in
 * the JSON). Otherwise it runs the full emit and comparison, which names stale, missing and extra files. `gen` records
 * the hash when it emitted every emitter of the corpus.
 */
import { performance } from 'node:perf_hooks';
import { fastCheck, recordIsCurrent, recordOf, writeRecord, type FastCheckMiss } from '../gen-hash.ts';
import { UsageError, type Invocation, type Io } from './common.ts';
import { withProgress, type Progress } from './progress.ts';
import type { EmitterEntry } from '../emitters.ts';
import { isOwned } from '../owned.ts';

const MISS_TEXT: Record<FastCheckMiss, string> = {
  'no-record': 'no input hash recorded',
  'inputs-changed': 'inputs changed since the last gen',
  'generated-files-differ': 'generated files differ from the last gen',
};

/** The emitters named by `--skip a,b` (every name checked against the table). */
export function skippedEmitters(value: string | undefined, table: readonly EmitterEntry[]): Set<string> {
  if (value === undefined) return new Set();
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const known = table.map((e) => e.name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length || !names.length) throw new UsageError(`--skip takes emitter names separated by commas${unknown.length ? `, not "${unknown.join('", "')}"` : ''} (emitters: ${known.join(', ')})`);
  return new Set(names);
}

export async function gen(p: Invocation, io: Io): Promise<number> {
  if (p.flags.has('--watch')) return (await import('../watch/command.ts')).watchCommand(p, io);
  return withProgress(p, io, (progress) => generate(p, io, progress));
}

async function generate(p: Invocation, io: Io, { step, stage, running }: Progress): Promise<number> {
  const t0 = performance.now();
  const check = p.flags.has('--check');
  const ms = () => Math.round(performance.now() - t0);
  // The emitter table (every emitter module) loads only when something must be emitted, or to check --skip's names.
  const skipValue = p.values?.get('--skip');
  const skip = skipValue === undefined ? new Set<string>() : skippedEmitters(skipValue, (await import('../emitters.ts')).EMITTERS);
  let miss: FastCheckMiss | undefined;
  if (check) {
    const fast = fastCheck(p.root);
    if ('files' in fast) {
      if (p.format === 'json') io.out(JSON.stringify({ command: 'gen --check', ok: true, files: fast.files, stale: [], missing: [], extra: [], staleAt: {}, ms: ms(), fastPath: true }, null, 2));
      else io.out(`gen --check: generated/ is up to date (${fast.files} files, ${ms()} ms; input hash unchanged, nothing emitted)`);
      return 0;
    }
    miss = fast.miss;
  }
  // The code generators load only when something must be emitted.
  const [{ emittersFor }, { loadCorpus }, { resolveCorpus }, { assertGeneratable }, { emitAll, mergeEmissions }, { declareTypes, declarationDiskCache, inWorkerThread }, { checkFiles, writeFiles }, { corpusConfig }] = await step('load the generator', () => Promise.all([
    import('../emitters.ts'),
    import('../load.ts'),
    import('../resolve.ts'),
    import('../lint.ts'),
    import('../emit.ts'),
    import('../emit/ts-declarations.ts'),
    import('../write.ts'),
    import('../corpus-config.ts'),
  ]));
  const resolved = step('load and resolve', () => resolveCorpus(loadCorpus(p.root)));
  // The declarations the cache lacks are compiled in a worker thread from now on, while this thread checks the corpus
  // and runs the emitters that do not read them (a corpus gen refuses leaves the worker's result unused).
  const declaring = step('compile TypeScript declarations', () => declareTypes(resolved, declarationDiskCache(), inWorkerThread));
  declaring.catch(() => undefined);
  step('check what gen needs', () => assertGeneratable(resolved));
  const corpusEmitters = emittersFor(corpusConfig(p.root));
  const chosen = corpusEmitters.filter((e) => !skip.has(e.name));
  // Slow emitters: rendered with --all (and always by --check), else served from the cache or left as they are.
  const leftOut: string[] = [];
  const slow: EmitterEntry[] = [];
  const quick: EmitterEntry[] = [];
  for (const e of chosen) {
    if (!e.slow) quick.push(e);
    else if (check || p.flags.has('--all')) slow.push(e);
    else {
      const files = await step(`${e.name} from the cache`, () => e.slow!.cached(resolved));
      if (files) quick.push({ ...e, slow: undefined, emit: () => files });
      else leftOut.push(e.name);
    }
  }
  const emitted = (name: string, ms: number) => stage(`emit ${name}`, ms);
  const slowDone = slow.length ? running(`emit ${slow.map((e) => e.name).join(', ')}`) : () => false;
  const pendingSlow = slow.length ? emitAll(resolved, slow, { declare: async () => new Map(), onEmitted: emitted }) : undefined;
  pendingSlow?.catch(() => undefined); // awaited below; an early failure is reported there, never as unhandled
  const quickEmission = await emitAll(resolved, quick, { declare: () => declaring, onEmitted: emitted });
  const complete = leftOut.length === 0 && skip.size === 0;
  if (check) {
    const emission = mergeEmissions([quickEmission, ...(pendingSlow ? [await pendingSlow.finally(slowDone)] : [])]);
    const { stale, missing, extra, staleAt } = step('compare with disk', () => checkFiles(p.root, emission));
    const ok = !stale.length && !missing.length && !extra.length;
    const recordCurrent = complete && recordIsCurrent(p.root, recordOf(p.root, emission));
    if (p.format === 'json') {
      io.out(JSON.stringify({ command: 'gen --check', ok, files: emission.files.length, stale, missing, extra, staleAt, skipped: [...skip], ms: ms(), fastPath: false, fastPathMiss: miss, hashRecordCurrent: recordCurrent }, null, 2));
    } else {
      for (const f of stale) io.out(`stale:   ${f} (differs from line ${staleAt[f]})`);
      for (const f of missing) io.out(`missing: ${f}`);
      for (const f of extra) io.out(`extra:   ${f}`);
      const skipped = skip.size ? `; not checked: ${[...skip].join(', ')}` : '';
      io.out(ok ? `gen --check: generated/ is up to date (${emission.files.length} files, ${ms()} ms; full emit: ${MISS_TEXT[miss!]}${skipped})` : `gen --check: generated/ is out of date (${stale.length} stale, ${missing.length} missing, ${extra.length} extra${skipped}); run ${stale.concat(missing).some((f) => slowOwned(corpusEmitters, f)) ? 'wopkit gen --all' : 'wopkit gen'}`);
      if (ok && complete && !recordCurrent) io.out('note: the input hash record is out of date; wopkit gen --all refreshes it, and gen --check then answers without emitting');
    }
    return ok ? 0 : 1;
  }
  // The quick emitters' files are written first: a slow emitter never holds them back.
  const written = [step('write', () => writeFiles(p.root, quickEmission))];
  let emission = quickEmission;
  if (pendingSlow) {
    const slowEmission = await pendingSlow.finally(slowDone);
    written.push(step('write the slow emitters\' files', () => writeFiles(p.root, slowEmission)));
    emission = mergeEmissions([quickEmission, slowEmission]);
  } else slowDone();
  const recordWritten = complete ? step('record the input hash', () => writeRecord(p.root, recordOf(p.root, emission))) : false;
  const res = { written: written.flatMap((w) => w.written), unchanged: written.reduce((n, w) => n + w.unchanged, 0), removed: written.flatMap((w) => w.removed) };
  if (p.format === 'json') io.out(JSON.stringify({ command: 'gen', ok: true, files: emission.files.length, written: res.written, removed: res.removed, leftOut, skipped: [...skip], hashRecordWritten: recordWritten, ms: ms() }, null, 2));
  else {
    io.out(`gen: ${emission.files.length} files (${res.written.length} written, ${res.unchanged} unchanged, ${res.removed.length} removed) in ${ms()} ms`);
    if (leftOut.length) io.out(`gen: ${leftOut.join(', ')} left as they were (the schemas changed since they were last rendered, which takes seconds): run wopkit gen --all before committing; gen --check covers them`);
  }
  return 0;
}

/** Whether a generated path belongs to a slow emitter. */
const slowOwned = (emitters: readonly EmitterEntry[], path: string): boolean => emitters.some((e) => e.slow && isOwned(path, e.owns));
