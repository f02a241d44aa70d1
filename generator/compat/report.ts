/**
 * The compat report: every change between a baseline and the current corpus, with its type (the title of the root or
 * `$defs` entry holding it), the direction of that type, its classification, the RFCs it belongs to, and for a breaking
 * change what acknowledges it (or the message saying what to update). Pure over two resolved corpora plus the RFCs and
 * CHANGELOG; `compatReport(root, base)` loads them.
 */
import { loadCorpus } from '../load.ts';
import { resolveCorpus, type Resolved } from '../resolve.ts';
import { byCodeUnits } from '../order.ts';
import type { RawChange } from './changes.ts';
import { diffCorpora } from './diff.ts';
import { DIRECTION_MEANING, effectiveDirections, joinDirections, type Direction } from './direction.ts';
import { classify, whyBreaking, type Classification } from './classify.ts';
import { changelogEntryFor, nextBreakingVersion, readChangelog, readRfcs, rfcsFor, type ChangelogSection, type Rfc } from './acknowledge.ts';
import { resolveBaseline } from './baseline.ts';

export interface CompatChange extends RawChange {
  /** Title of the root or `$defs` entry the change is in (`''` when it has none). */
  readonly type: string;
  /** Effective direction of that entry (the join of the baseline's and the current one). */
  readonly direction: Direction | undefined;
  readonly classification: Classification;
  /** RFCs whose `affects` cover the change (number and file). */
  readonly rfcs: readonly { readonly number: string; readonly file: string; readonly compatibility?: string }[];
  /** For a breaking change: what acknowledges it (`RFC AM-1.1 (compatibility: breaking)`, `CHANGELOG 1.0.0`), if anything. */
  readonly acknowledgedBy?: string;
  /** For a breaking change nothing acknowledges: what to do, in one message. */
  readonly action?: string;
}

export interface CompatSummary {
  readonly breaking: number;
  readonly additive: number;
  readonly neutral: number;
  readonly unacknowledged: number;
}

export interface CompatReport {
  readonly base: { readonly label: string; readonly version?: string };
  readonly changes: readonly CompatChange[];
  readonly summary: CompatSummary;
}

/** What acknowledges breaking changes: the RFCs and CHANGELOG of the current tree, and the baseline's version. */
export interface Acknowledgements {
  readonly rfcs: readonly Rfc[];
  readonly changelog: readonly ChangelogSection[];
  readonly baseVersion?: string;
}


/** The words a CHANGELOG entry must contain to name a change: its type and subject, or its `file#pointer`. */
const namings = (c: Pick<CompatChange, 'type' | 'subject' | 'file' | 'pointer'>): string[][] => [
  [c.type, ...(c.subject !== undefined && c.subject !== c.type ? [c.subject] : [])].filter(Boolean),
  [`${c.file}#${c.pointer}`],
];

/** Classify, attribute and check acknowledgement of every change between two resolved corpora. */
export function compareCorpora(base: Resolved, cur: Resolved, ack: Acknowledgements): CompatChange[] {
  const dirBase = effectiveDirections(base);
  const dirCur = effectiveDirections(cur);
  const place = (r: Resolved, file: string, pointer: string) => {
    const f = r.corpus.schemas.find((s) => s.path === file);
    const owner = f ? r.ownerOf(f, pointer) : undefined;
    return owner ? { title: owner.title, key: `${owner.file.path}#${owner.pointer}` } : undefined;
  };
  return diffCorpora(base, cur)
    .map((raw): CompatChange => {
      const inCur = place(cur, raw.file, raw.pointer);
      // A removed file or definition lives only in the baseline; a renamed file under its old path there.
      const inBase = place(base, raw.previousFile ?? raw.file, raw.pointer);
      const direction = joinDirections(inCur ? dirCur.get(inCur.key) : undefined, inBase ? dirBase.get(inBase.key) : undefined);
      const type = inCur?.title || inBase?.title || raw.subject || '';
      const classification = classify(raw.effect, direction);
      const rfcs = rfcsFor(ack.rfcs, [raw.file, ...(raw.previousFile ? [raw.previousFile] : [])], raw.pointer).map((r) => ({ number: r.number, file: r.file, ...(r.compatibility ? { compatibility: r.compatibility } : {}) }));
      const change = { ...raw, type, direction, classification, rfcs };
      if (classification !== 'breaking') return change;
      const byRfc = rfcs.find((r) => r.compatibility === 'breaking');
      if (byRfc) return { ...change, acknowledgedBy: `RFC ${byRfc.number} (${byRfc.file}: compatibility: breaking)` };
      const version = changelogEntryFor(ack.changelog, ack.baseVersion, namings(change));
      if (version) return { ...change, acknowledgedBy: `CHANGELOG.md ${version}` };
      return { ...change, action: actionFor(change, ack.baseVersion) };
    })
    .sort((a, b) => byCodeUnits(a.file, b.file) || byCodeUnits(a.pointer, b.pointer) || byCodeUnits(a.kind, b.kind) || byCodeUnits(a.detail, b.detail));
}

/** The message for a breaking change nothing acknowledges: the type, the pointer, the direction, why, and what to update. */
function actionFor(c: Omit<CompatChange, 'acknowledgedBy' | 'action'>, baseVersion: string | undefined): string {
  const where = `${c.type || c.file} (${c.file}#${c.pointer})`;
  const direction = c.direction ? DIRECTION_MEANING[c.direction] : 'undirected (no x-direction: counted as both)';
  const rfc = c.rfcs.length
    ? `set "compatibility: breaking" in the front matter of ${c.rfcs.map((r) => `${r.file} (RFC ${r.number})`).join(' or ')}`
    : `add the schema to the "affects" of the RFC that changes it and set "compatibility: breaking" there (no RFC lists ${c.file})`;
  const words = [c.type, c.subject].filter((w, i, all) => w && all.indexOf(w) === i).join(' and ');
  return `${where}: ${c.detail} is breaking for a ${direction} shape (${whyBreaking(c.effect, c.direction)}). To acknowledge it, ${rfc}, or add a CHANGELOG.md entry under ## [${nextBreakingVersion(baseVersion)}] naming ${words || `${c.file}#${c.pointer}`}.`;
}

export const summarize = (changes: readonly CompatChange[]): CompatSummary => ({
  breaking: changes.filter((c) => c.classification === 'breaking').length,
  additive: changes.filter((c) => c.classification === 'additive').length,
  neutral: changes.filter((c) => c.classification === 'neutral').length,
  unacknowledged: changes.filter((c) => c.action !== undefined).length,
});

/** The report for the corpus at `root` against a baseline (`--base`: a git ref or directory; default: the last release). */
export function compatReport(root: string, baseSpec?: string): CompatReport {
  const baseline = resolveBaseline(root, baseSpec);
  try {
    // Both sides with the corpus's settings (its families and majors, its $id base); a major the baseline did not have yet is absent there.
    const cur = resolveCorpus(loadCorpus(root));
    const base = resolveCorpus(loadCorpus(baseline.dir, { config: cur.corpus.config, skipMissingFolders: true }));
    const changes = compareCorpora(base, cur, { rfcs: readRfcs(root), changelog: readChangelog(root), ...(baseline.version ? { baseVersion: baseline.version } : {}) });
    return { base: { label: baseline.label, ...(baseline.version ? { version: baseline.version } : {}) }, changes, summary: summarize(changes) };
  } finally {
    baseline.cleanup();
  }
}
