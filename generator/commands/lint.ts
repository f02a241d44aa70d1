/** `wopkit lint` and `wopkit check-examples`: load → resolve → lint (or the example check) → findings. */
import { loadCorpus } from '../load.ts';
import { resolveCorpus } from '../resolve.ts';
import { checkExamples as checkCorpusExamples, lintCorpus } from '../lint.ts';
import { printFindings, type Invocation, type Io } from './common.ts';

export function lint(p: Invocation, io: Io): number {
  const resolved = resolveCorpus(loadCorpus(p.root));
  return printFindings(io, p.format, 'lint', lintCorpus(resolved), { schemas: resolved.corpus.schemas.length, examples: resolved.corpus.examples.length });
}

export function checkExamples(p: Invocation, io: Io): number {
  const { findings, checked } = checkCorpusExamples(resolveCorpus(loadCorpus(p.root)));
  return printFindings(io, p.format, 'check-examples', findings, { examples: checked });
}
