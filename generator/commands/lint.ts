/**
 * `wopkit lint` and `wopkit check-examples`: load → resolve → lint (or the example check) → findings. lint keeps going
 * past files that do not load (each is one finding, the others are checked) and also writes SARIF 2.1.0
 * (`--format sarif`); check-examples stops at the first file that does not load (exit 2).
 */
import { loadCorpus } from '../load.ts';
import { resolveCorpus } from '../resolve.ts';
import { LINT_RULES, checkExamples as checkCorpusExamples, lintCorpus } from '../lint.ts';
import { toSarif } from '../sarif.ts';
import { cliVersion } from '../version.ts';
import { printFindings, type Invocation, type Io } from './common.ts';
import { withProgress } from './progress.ts';

/** Where the rules are documented (each SARIF rule's helpUri). */
const RULES_DOC = 'https://github.com/wopkit/wopkit/blob/main/docs/generator.md#lint-rules';

export const lint = (p: Invocation, io: Io): number => withProgress(p, io, ({ step }) => {
  const resolved = step('load and resolve', () => resolveCorpus(loadCorpus(p.root, { keepGoing: true })));
  const findings = step('check the rules', () => lintCorpus(resolved));
  if (p.format === 'sarif') {
    io.out(JSON.stringify(toSarif({ findings, rules: LINT_RULES, root: p.root, version: cliVersion(), helpUri: RULES_DOC }), null, 2));
    return findings.length ? 1 : 0;
  }
  return printFindings(io, p.format, 'lint', findings, { schemas: resolved.corpus.schemas.length, examples: resolved.corpus.examples.length });
});

export const checkExamples = (p: Invocation, io: Io): number => withProgress(p, io, ({ step }) => {
  const resolved = step('load and resolve', () => resolveCorpus(loadCorpus(p.root)));
  const { findings, checked } = step('validate the examples', () => checkCorpusExamples(resolved));
  return printFindings(io, p.format, 'check-examples', findings, { examples: checked });
});
