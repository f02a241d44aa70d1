/**
 * `wopkit compat --majors`: what changed for every type two majors of a family share, read the way `compat` reads a
 * release — the earlier major is the baseline, the later one the current corpus. A type is shared when its schema file
 * has the same stem in both majors; it is compared definition by definition (root and `$defs` by name). To pair the
 * files, the earlier major's files are read as if they sat in the later major's folder (path and `$id` moved, nothing
 * else), so the compat diff (diff.ts) and its classification by direction (classify.ts) apply unchanged. Not reported:
 * the title suffix a later major's types carry (`MemoryEntry` → `MemoryEntryV2`), which only names the generated type,
 * and a definition the later file leaves out because it references the earlier major's (a shape written once).
 */
import type { LoadedCorpus, SchemaFile } from '../model.ts';
import { Resolved } from '../resolve.ts';
import { loadCorpus } from '../load.ts';
import { schemaStem } from '../naming.ts';
import { compareCorpora, type CompatChange, type CompatSummary } from './report.ts';

/** The comparison of two majors of one family. */
export interface MajorsReport {
  readonly family: string;
  readonly from: string;
  readonly to: string;
  /** The stems of the schema files both majors have, sorted. */
  readonly shared: readonly string[];
  /** Stems only the earlier major has, and only the later one. */
  readonly onlyFrom: readonly string[];
  readonly onlyTo: readonly string[];
  /** Every change of a shared file's definitions, in file and pointer order (acknowledgement does not apply). */
  readonly changes: readonly Omit<CompatChange, 'action' | 'acknowledgedBy' | 'rfcs'>[];
  readonly summary: Omit<CompatSummary, 'unacknowledged'>;
}

/** `schemas/<family>/<from>/…` read as `schemas/<family>/<to>/…` (path and `$id`). */
function moved(f: SchemaFile, from: string, to: string): SchemaFile {
  const path = f.path.replace(`/${f.family}/${from}/`, `/${f.family}/${to}/`);
  const id = f.id.replace(`/${f.family}/${from}/`, `/${f.family}/${to}/`);
  const { text: _text, ...rest } = f;
  return { ...rest, major: to, path, id, schema: { ...f.schema, $id: id } };
}

/** The title change that only adds the later major's suffix (`X` → `XV2`). */
const suffixOnly = (c: Pick<CompatChange, 'kind' | 'pointer' | 'detail'>, to: string): boolean =>
  c.kind === 'annotation-changed' && c.pointer.endsWith('/title') && new RegExp(`^title "([^"]+)" → "\\1${to.toUpperCase()}"`).test(c.detail);

/** Every pair of consecutive majors of every family the corpus loads (`openwop` v1 → v2). */
export function majorPairs(r: Resolved): { family: string; from: string; to: string }[] {
  const byFamily = new Map<string, Set<string>>();
  for (const f of r.corpus.schemas) byFamily.set(f.family, (byFamily.get(f.family) ?? new Set()).add(f.major));
  return [...byFamily].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([family, set]) => {
    const majors = [...set].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    return majors.slice(1).map((to, i) => ({ family, from: majors[i]!, to }));
  });
}

/** The changes from major `from` to major `to` of `family`, for the files both have. */
export function majorsReport(r: Resolved, family: string, from: string, to: string): MajorsReport {
  const of = (major: string) => r.corpus.schemas.filter((f) => f.family === family && f.major === major);
  const fromStems = new Set(of(from).map((f) => f.stem));
  const toStems = new Set(of(to).map((f) => f.stem));
  const shared = [...toStems].filter((s) => fromStems.has(s)).sort();
  // The baseline: the corpus with the earlier major's files moved into the later major's folder (the later major's
  // own files out of the way), so each shared file pairs with its later form by path.
  const base: LoadedCorpus = {
    ...r.corpus,
    schemas: r.corpus.schemas.filter((f) => !(f.family === family && f.major === to)).map((f) => (f.family === family && f.major === from ? moved(f, from, to) : f)),
    examples: [],
  };
  const sharedPaths = new Set(of(to).filter((f) => fromStems.has(f.stem)).map((f) => f.path));
  // A definition the later file no longer holds because it references the earlier major's (a shape written once) is
  // not removed: `<stem> <pointer>` of every earlier-major definition a later-major file references.
  const reused = new Set(
    r.refSites.flatMap((site) => {
      if (site.file.family !== family || site.file.major !== to) return [];
      const t = r.tryResolve(site.file, site.ref);
      return t && t.file.family === family && t.file.major === from ? [`${t.file.stem} ${t.pointer}`] : [];
    }),
  );
  const changes = compareCorpora(new Resolved(base), r, { rfcs: [], changelog: [] })
    .filter((c) => sharedPaths.has(c.file) && c.kind !== 'file-added' && c.kind !== 'file-removed' && !suffixOnly(c, to))
    .filter((c) => !(c.kind === 'definition-removed' && reused.has(`${schemaStem(c.file)} ${c.pointer}`)))
    .map(({ action: _a, acknowledgedBy: _b, rfcs: _c, ...c }) => c)
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
  const count = (k: CompatChange['classification']) => changes.filter((c) => c.classification === k).length;
  const summary = { breaking: count('breaking'), additive: count('additive'), neutral: count('neutral') };
  return {
    family,
    from,
    to,
    shared,
    onlyFrom: [...fromStems].filter((s) => !toStems.has(s)).sort(),
    onlyTo: [...toStems].filter((s) => !fromStems.has(s)).sort(),
    changes,
    summary,
  };
}

/** Every pair of consecutive majors of the corpus at `root`, compared (what `compat --majors` and the site's migration page show). */
export function majorsReportsAt(root: string): MajorsReport[] {
  const r = new Resolved(loadCorpus(root));
  return majorPairs(r).map(({ family, from, to }) => majorsReport(r, family, from, to));
}

/** The report as text: per pair of majors, a summary line, then one line per change grouped by type. */
export function renderMajorsText(reports: readonly MajorsReport[]): string {
  const lines: string[] = [];
  for (const m of reports) {
    lines.push(`compat --majors ${m.family} ${m.from} → ${m.to}: ${m.shared.length} shared schema files; ${m.summary.breaking} breaking, ${m.summary.additive} additive, ${m.summary.neutral} neutral changes`);
    if (m.onlyFrom.length) lines.push(`  only in ${m.from}: ${m.onlyFrom.join(', ')}`);
    if (m.onlyTo.length) lines.push(`  only in ${m.to}: ${m.onlyTo.join(', ')}`);
    let type: string | undefined;
    for (const c of m.changes) {
      if (c.type !== type) lines.push(`  ${(type = c.type) || '(no type)'}`);
      lines.push(`    ${c.classification.padEnd(8)} ${c.file}#${c.pointer}: ${c.detail}`);
    }
  }
  if (reports.length === 0) lines.push('compat --majors: the corpus loads one major per family: nothing to compare');
  return lines.join('\n');
}

/** The report as Markdown (the migration page renders the same data: site data `migration/`). */
export function renderMajorsMarkdown(reports: readonly MajorsReport[]): string {
  const out: string[] = [];
  for (const m of reports) {
    out.push(`## ${m.family} ${m.from} → ${m.to}`, '', `${m.summary.breaking} breaking, ${m.summary.additive} additive, ${m.summary.neutral} neutral changes in ${m.shared.length} shared schema files.`, '');
    out.push('| type | change | where | classification |', '|---|---|---|---|');
    for (const c of m.changes) out.push(`| ${c.type || '—'} | ${c.detail.replaceAll('|', '\\|')} | \`${c.file}#${c.pointer}\` | ${c.classification} |`);
    out.push('');
  }
  return out.join('\n');
}
