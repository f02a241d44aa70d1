/**
 * `wopkit gen [--check]`: load → resolve → lint (what gen needs) → emit → write, or compare with disk.
 *
 * `gen --check` first asks the input hash (gen-hash.ts): when the inputs and every generated file are as the last
 * `gen` recorded them, it answers without loading a code generator or emitting anything (`fastPath: true` in the
 * JSON). Otherwise it runs the full emit and comparison, which names stale, missing and extra files. `gen` always
 * emits, and records the hash for the next check.
 */
import { performance } from 'node:perf_hooks';
import { fastCheck, recordIsCurrent, recordOf, writeRecord, type FastCheckMiss } from '../gen-hash.ts';
import type { Invocation, Io } from './common.ts';

const MISS_TEXT: Record<FastCheckMiss, string> = {
  'no-record': 'no input hash recorded',
  'inputs-changed': 'inputs changed since the last gen',
  'generated-files-differ': 'generated files differ from the last gen',
};

export async function gen(p: Invocation, io: Io): Promise<number> {
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
  const [{ loadCorpus }, { resolveCorpus }, { assertGeneratable }, { emitAll }, { checkFiles, writeFiles }] = await Promise.all([
    import('../load.ts'),
    import('../resolve.ts'),
    import('../lint.ts'),
    import('../emit.ts'),
    import('../write.ts'),
  ]);
  const resolved = resolveCorpus(loadCorpus(p.root));
  assertGeneratable(resolved);
  const emission = await emitAll(resolved);
  const { files } = emission;
  if (check) {
    const { stale, missing, extra, staleAt } = checkFiles(p.root, emission);
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
  const res = writeFiles(p.root, emission);
  const recordWritten = writeRecord(p.root, recordOf(p.root, emission));
  if (p.format === 'json') io.out(JSON.stringify({ command: 'gen', ok: true, files: files.length, written: res.written, removed: res.removed, hashRecordWritten: recordWritten, ms: ms() }, null, 2));
  else io.out(`gen: ${files.length} files (${res.written.length} written, ${res.unchanged} unchanged, ${res.removed.length} removed) in ${ms()} ms`);
  return 0;
}
