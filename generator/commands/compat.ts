/**
 * `wopkit compat [--base <git-ref|dir>]`: compare the corpus with a baseline and classify every change (generator/compat/).
 * Text: a table and, for each breaking change nothing acknowledges, the message saying what to update; json: the
 * report; markdown: a section for a pull-request comment. Exit 1 when a breaking change is not acknowledged.
 * `--snapshot <version>` writes the current schemas as the committed baseline `compat/baseline/<version>/` instead.
 */
import { compatReport } from '../compat/report.ts';
import { writeSnapshot } from '../compat/baseline.ts';
import { loadCorpus } from '../load.ts';
import { headline, renderMarkdown, renderText } from '../compat/render.ts';
import type { Invocation, Io } from './common.ts';
import { withProgress } from './progress.ts';
import { majorsReportsAt, renderMajorsMarkdown, renderMajorsText } from '../compat/majors.ts';

export function compat(p: Invocation, io: Io): number {
  if (p.flags.has('--majors')) {
    // Informational: what changed between the majors the corpus loads (exit 0; nothing to acknowledge).
    const reports = majorsReportsAt(p.root);
    if (p.format === 'json') io.out(JSON.stringify({ command: 'compat --majors', ok: true, majors: reports }, null, 2));
    else if (p.format === 'markdown') io.out(renderMajorsMarkdown(reports));
    else io.out(renderMajorsText(reports));
    return 0;
  }
  const snapshot = p.values?.get('--snapshot');
  if (snapshot !== undefined) {
    const written = writeSnapshot(p.root, snapshot, loadCorpus(p.root).schemas.map((f) => f.path));
    if (p.format === 'json') io.out(JSON.stringify({ command: 'compat --snapshot', ok: true, written }, null, 2));
    else io.out(`compat: wrote ${written.length} schema files to ${written[0]?.split('/schemas/')[0] ?? 'the snapshot'}/`);
    return 0;
  }
  const report = withProgress(p, io, ({ step }) => step('compare with the baseline', () => compatReport(p.root, p.values?.get('--base'))));
  const ok = report.summary.unacknowledged === 0;
  if (p.format === 'json') io.out(JSON.stringify({ command: 'compat', ok, base: report.base, summary: report.summary, headline: headline(report), changes: report.changes }, null, 2));
  else if (p.format === 'markdown') io.out(renderMarkdown(report));
  else io.out(renderText(report));
  return ok ? 0 : 1;
}
