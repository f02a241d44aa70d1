/**
 * `wopkit lint` and `wopkit check-examples`: load → resolve → lint (or the example check) → findings. lint keeps going
 * past files that do not load (each is one finding, the others are checked); check-examples stops at the first (exit 2).
 */
import { loadCorpus } from '../load.ts';
import { resolveCorpus } from '../resolve.ts';
import { checkExamples as checkCorpusExamples, lintCorpus } from '../lint.ts';
import { printFindings, type Invocation, type Io } from './common.ts';

export function lint(p: Invocation, io: Io): number {
  const resolved = resolveCorpus(loadCorpus(p.root, { keepGoing: true }));
  return printFindings(io, p.format, 'lint', lintCorpus(resolved), { schemas: resolved.corpus.schemas.length, examples: resolved.corpus.examples.length });
}

export function checkExamples(p: Invocation, io: Io): number {
  const { findings, checked } = checkCorpusExamples(resolveCorpus(loadCorpus(p.root)));
  return printFindings(io, p.format, 'check-examples', findings, { examples: checked });
}
