/**
 * `wopkit gen [--check]`: load → resolve → lint (what gen needs) → emit → write, or compare with disk; a progress line
 * per stage (and per emitter). `--watch` hands over to generator/watch/.
 */
import { performance } from 'node:perf_hooks';
import { loadCorpus } from '../load.ts';
import { resolveCorpus } from '../resolve.ts';
import { assertGeneratable } from '../lint.ts';
import { emitAll } from '../emit.ts';
import { EMITTERS } from '../emitters.ts';
import { declareTypes } from '../emit/ts-declarations.ts';
import { checkFiles, writeFiles } from '../write.ts';
import { UsageError, type Invocation, type Io } from './common.ts';
import { stepsFor } from './progress.ts';

export async function gen(p: Invocation, io: Io): Promise<number> {
  if (p.flags.has('--watch')) return (await import('../watch/command.ts')).watchCommand(p, io);
  if (p.flags.has('--all')) throw new UsageError('--all only applies with --watch');
  const t0 = performance.now();
  const step = stepsFor(p, io);
  const resolved = step('load and resolve', () => resolveCorpus(loadCorpus(p.root)));
  step('check what gen needs', () => assertGeneratable(resolved));
  const emitters = EMITTERS.map((e) => ({ ...e, emit: (...a: Parameters<typeof e.emit>) => step(`emit ${e.name}`, () => e.emit(...a)) }));
  const emission = await emitAll(resolved, emitters, { declare: (r) => step('compile TypeScript declarations', () => declareTypes(r)) });
  const { files } = emission;
  if (p.flags.has('--check')) {
    const { stale, missing, extra, staleAt } = step('compare with disk', () => checkFiles(p.root, emission));
    const ms = Math.round(performance.now() - t0);
    const ok = !stale.length && !missing.length && !extra.length;
    if (p.format === 'json') io.out(JSON.stringify({ command: 'gen --check', ok, files: files.length, stale, missing, extra, staleAt, ms }, null, 2));
    else {
      for (const f of stale) io.out(`stale:   ${f} (differs from line ${staleAt[f]})`);
      for (const f of missing) io.out(`missing: ${f}`);
      for (const f of extra) io.out(`extra:   ${f}`);
      io.out(ok ? `gen --check: generated/ is up to date (${files.length} files, ${ms} ms)` : `gen --check: generated/ is out of date (${stale.length} stale, ${missing.length} missing, ${extra.length} extra); run npm run gen`);
    }
    return ok ? 0 : 1;
  }
  const res = step('write', () => writeFiles(p.root, emission));
  const ms = Math.round(performance.now() - t0);
  if (p.format === 'json') io.out(JSON.stringify({ command: 'gen', ok: true, files: files.length, written: res.written, removed: res.removed, ms }, null, 2));
  else io.out(`gen: ${files.length} files (${res.written.length} written, ${res.unchanged} unchanged, ${res.removed.length} removed) in ${ms} ms`);
  return 0;
}
