/**
 * `wopkit lint` and `wopkit check-examples`: load → resolve → lint (or the example check) → findings. lint keeps going
 * past files that do not load (each is one finding, the others are checked) and also writes SARIF 2.1.0
 * (`--format sarif`); `lint --fix` repairs what it can (FIXES) and reports what is left. check-examples stops at the
 * first file that does not load (exit 2).
 */
import { loadCorpus } from '../load.ts';
import { resolveCorpus } from '../resolve.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINT_RULES, checkExamples as checkCorpusExamples, exampleSchemaOf, expectedId, lintCorpus, type Finding } from '../lint.ts';
import type { Resolved } from '../resolve.ts';
import { withExampleSchema, withStringMember } from '../fix-example-schema.ts';
import { toSarif } from '../sarif.ts';
import { cliVersion } from '../version.ts';
import { printFindings, type Invocation, type Io } from './common.ts';
import { withProgress } from './progress.ts';

/** Where the rules are documented (each SARIF rule's helpUri). */
const RULES_DOC = 'https://github.com/wopkit/wopkit/blob/main/docs/generator.md#lint-rules';

/**
 * The rules `lint --fix` repairs, and how: the files to rewrite (repository path → new text) for that rule's findings.
 * Only files with a finding are touched, and only where the finding is.
 */
const FIXES: Readonly<Record<string, (r: Resolved, findings: readonly Finding[]) => Map<string, string>>> = {
  'example-schema': (r, findings) => {
    const out = new Map<string, string>();
    for (const f of findings) {
      const ex = r.corpus.examples.find((e) => e.path === f.file);
      if (ex?.text === undefined || !ex.schemaId) continue;
      // The same $schema the rule asks for: the $id the id-base rule requires, not whatever $id the schema has now.
      const want = exampleSchemaOf(r.corpus, ex);
      if (want === undefined) continue;
      const next = withExampleSchema(ex.text, ex.kind === 'invalid' ? '/instance' : '', want);
      if (next !== undefined && next !== ex.text) out.set(ex.path, next);
    }
    return out;
  },
  'id-base': (r, findings) => {
    const out = new Map<string, string>();
    for (const f of findings) {
      const file = r.corpus.schemas.find((s) => s.path === f.file);
      const want = file && expectedId(r.corpus, file);
      if (file?.text === undefined || want === undefined) continue;
      const next = withStringMember(file.text, '', '$id', want);
      if (next !== undefined && next !== file.text) out.set(file.path, next);
    }
    return out;
  },
};

/** Apply every fix to its rule's findings; returns the repository paths written and the rules that wrote them. */
function fix(root: string, r: Resolved, findings: readonly Finding[]): { written: string[]; rules: string[] } {
  const written: string[] = [];
  const rules: string[] = [];
  for (const [rule, fixRule] of Object.entries(FIXES)) {
    const files = fixRule(r, findings.filter((f) => f.rule === rule));
    if (files.size) rules.push(rule);
    for (const [path, text] of files) {
      writeFileSync(join(root, path), text);
      written.push(path);
    }
  }
  return { written: written.sort(), rules };
}

export const lint = (p: Invocation, io: Io): number => withProgress(p, io, ({ step }) => {
  const load = () => step('load and resolve', () => resolveCorpus(loadCorpus(p.root, { keepGoing: true })));
  let resolved = load();
  let findings = step('check the rules', () => lintCorpus(resolved));
  const { written: fixed, rules: fixedRules } = p.flags.has('--fix') ? step('fix', () => fix(p.root, resolved, findings)) : { written: [], rules: [] };
  if (fixed.length) {
    if (p.format === 'text') io.out(`lint: fixed ${fixed.length} file${fixed.length === 1 ? '' : 's'} (${fixedRules.join(', ')}): ${fixed.join(', ')}`);
    resolved = load();
    findings = step('check the rules again', () => lintCorpus(resolved));
  }
  if (p.format === 'sarif') {
    io.out(JSON.stringify(toSarif({ findings, rules: LINT_RULES, root: p.root, version: cliVersion(), helpUri: RULES_DOC }), null, 2));
    return findings.length ? 1 : 0;
  }
  return printFindings(io, p.format, 'lint', findings, { schemas: resolved.corpus.schemas.length, examples: resolved.corpus.examples.length, ...(p.flags.has('--fix') && p.format === 'json' ? { fixed } : {}) });
});

export const checkExamples = (p: Invocation, io: Io): number => withProgress(p, io, ({ step }) => {
  const resolved = step('load and resolve', () => resolveCorpus(loadCorpus(p.root)));
  const { findings, checked } = step('validate the examples', () => checkCorpusExamples(resolved));
  return printFindings(io, p.format, 'check-examples', findings, { examples: checked });
});
