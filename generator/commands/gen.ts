/**
 * `wopkit gen [--check]`: load → resolve → lint (what gen needs) → emit → write, or compare with disk; a progress line
 * per stage (and per emitter). `--watch` hands over to generator/watch/.
 *
 * `gen --check` first asks the input hash (gen-hash.ts): when the inputs and every generated file are as the last
 * `gen` recorded them, it answers without loading a code generator or emitting anything (`fastPath: true` in the
 * JSON). Otherwise it runs the full emit and comparison, which names stale, missing and extra files. `gen` always
 * emits, and records the hash for the next check.
 */
import { performance } from 'node:perf_hooks';
import { fastCheck, recordIsCurrent, recordOf, writeRecord, type FastCheckMiss } from '../gen-hash.ts';
import { UsageError, type Invocation, type Io } from './common.ts';
import { stageReporter, stepsFor } from './progress.ts';

const MISS_TEXT: Record<FastCheckMiss, string> = {
  'no-record': 'no input hash recorded',
  'inputs-changed': 'inputs changed since the last gen',
  'generated-files-differ': 'generated files differ from the last gen',
};

export async function gen(p: Invocation, io: Io): Promise<number> {
  if (p.flags.has('--watch')) return (await import('../watch/command.ts')).watchCommand(p, io);
  if (p.flags.has('--all')) throw new UsageError('--all only applies with --watch');
  const t0 = performance.now();
  const check = p.flags.has('--check');
  const ms = () => Math.round(performance.now() - t0);
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
  const step = stepsFor(p, io);
  const [{ loadCorpus }, { resolveCorpus }, { assertGeneratable }, { emitAll }, { EMITTERS }, { declareTypes, declarationDiskCache }, { checkFiles, writeFiles }] = await step('load the generator', () => Promise.all([
    import('../load.ts'),
    import('../resolve.ts'),
    import('../lint.ts'),
    import('../emit.ts'),
    import('../emitters.ts'),
    import('../emit/ts-declarations.ts'),
    import('../write.ts'),
  ]));
  const resolved = step('load and resolve', () => resolveCorpus(loadCorpus(p.root)));
  step('check what gen needs', () => assertGeneratable(resolved));
  const stage = stageReporter(p, io);
  const emission = await emitAll(resolved, EMITTERS, {
    declare: (r) => step('compile TypeScript declarations', () => declareTypes(r, declarationDiskCache())),
    onEmitted: (name, ms) => stage(`emit ${name}`, ms),
  });
  const { files } = emission;
  if (check) {
    const { stale, missing, extra, staleAt } = step('compare with disk', () => checkFiles(p.root, emission));
    const ok = !stale.length && !missing.length && !extra.length;
    const recordCurrent = recordIsCurrent(p.root, recordOf(p.root, emission));
    if (p.format === 'json') {
      io.out(JSON.stringify({ command: 'gen --check', ok, files: files.length, stale, missing, extra, staleAt, ms: ms(), fastPath: false, fastPathMiss: miss, hashRecordCurrent: recordCurrent }, null, 2));
    } else {
      for (const f of stale) io.out(`stale:   ${f} (differs from line ${staleAt[f]})`);
      for (const f of missing) io.out(`missing: ${f}`);
      for (const f of extra) io.out(`extra:   ${f}`);
      io.out(ok ? `gen --check: generated/ is up to date (${files.length} files, ${ms()} ms; full emit: ${MISS_TEXT[miss!]})` : `gen --check: generated/ is out of date (${stale.length} stale, ${missing.length} missing, ${extra.length} extra); run npm run gen`);
      if (ok && !recordCurrent) io.out('note: the input hash record is out of date; npm run gen refreshes it, and gen --check then answers without emitting');
    }
    return ok ? 0 : 1;
  }
  const res = step('write', () => writeFiles(p.root, emission));
  const recordWritten = step('record the input hash', () => writeRecord(p.root, recordOf(p.root, emission)));
  if (p.format === 'json') io.out(JSON.stringify({ command: 'gen', ok: true, files: files.length, written: res.written, removed: res.removed, hashRecordWritten: recordWritten, ms: ms() }, null, 2));
  else io.out(`gen: ${files.length} files (${res.written.length} written, ${res.unchanged} unchanged, ${res.removed.length} removed) in ${ms()} ms`);
  return 0;
}
