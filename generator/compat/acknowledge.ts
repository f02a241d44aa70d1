/**
 * Where a breaking change is acknowledged, read from the repository: the RFCs whose front matter `affects` the schema
 * (an entry `schemas/<path>` or `schemas/<path>#<pointer>`) and their `compatibility`, and the CHANGELOG's version
 * sections. A breaking change is acknowledged when an RFC covering it says `compatibility: breaking`, or when a
 * CHANGELOG entry under a version that may break the baseline's users names its type and its subject (the property,
 * value or definition), or its `file#pointer`. Which versions may break follows semver: a higher major, and while the
 * major is 0 (initial development, where anything may change) a higher minor too — `0.3.0` may break `0.2.x`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorpusError } from '../errors.ts';

export interface Rfc {
  /** The RFC's number (`0012`, `AM-1.1`, `P066`). */
  readonly number: string;
  /** Repository path (`RFCs/0012-memory-compaction.md`). */
  readonly file: string;
  readonly compatibility?: string;
  /** The `schemas/` entries of `affects`: the file and the pointer inside it (`''` for the whole file). */
  readonly affects: readonly { readonly path: string; readonly pointer: string }[];
}

/** One YAML scalar as front matter writes it: plain, 'single-quoted' or "double-quoted". */
function scalar(raw: string): string {
  const t = raw.trim();
  const double = /^"((?:[^"\\]|\\.)*)"/.exec(t);
  if (double) return JSON.parse(double[0]) as string;
  const single = /^'((?:[^']|'')*)'/.exec(t);
  if (single) return (single[1] as string).replace(/''/g, "'");
  return t.replace(/\s+#.*$/, '');
}

/** The items of a flow sequence `[a, "b, c", 'd']`. */
function flowItems(raw: string): string[] {
  const items: string[] = [];
  let cur = '';
  let quote = '';
  for (const ch of raw.trim().slice(1, -1)) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") (quote = ch), (cur += ch);
    else if (ch === ',') items.push(cur), (cur = '');
    else cur += ch;
  }
  if (cur.trim()) items.push(cur);
  return items.map(scalar);
}

/**
 * The top-level keys of a front matter block whose value is a scalar or a sequence of scalars (block `- item` lines or
 * a flow `[a, b]`). Enough for what compat reads (number, compatibility, affects); nested mappings come back as text.
 */
export function frontMatterKeys(text: string): Map<string, string | string[]> {
  const block = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  const out = new Map<string, string | string[]>();
  let list: string[] | undefined;
  for (const line of block.split(/\r?\n/)) {
    const key = /^([A-Za-z][\w-]*):[ \t]*(.*)$/.exec(line);
    if (key) {
      const value = (key[2] as string).trim();
      list = undefined;
      if (value === '') out.set(key[1] as string, (list = []));
      else out.set(key[1] as string, value.startsWith('[') ? flowItems(value) : scalar(value));
      continue;
    }
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item && list) list.push(/^["']/.test((item[1] as string).trim()) || !(item[1] as string).trim().startsWith('{') ? scalar(item[1] as string) : (item[1] as string).trim());
  }
  return out;
}

/** Every RFC of `<root>/RFCs/*.md` with its front matter's `affects` and `compatibility`. */
export function readRfcs(root: string): Rfc[] {
  const dir = join(root, 'RFCs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.md'))
    .sort()
    .map((name): Rfc => {
      const file = `RFCs/${name}`;
      let front: Map<string, string | string[]>;
      try {
        front = frontMatterKeys(readFileSync(join(dir, name), 'utf8'));
      } catch (e) {
        throw new CorpusError(`cannot read the front matter: ${(e as Error).message}`, file);
      }
      const affects = [front.get('affects') ?? []]
        .flat()
        .filter((a) => a.startsWith('schemas/'))
        .map((a) => ({ path: a.split('#')[0] as string, pointer: a.includes('#') ? a.slice(a.indexOf('#') + 1) : '' }));
      const compatibility = front.get('compatibility');
      const number = front.get('number');
      return {
        number: typeof number === 'string' ? number : name.replace(/\.md$/, ''),
        file,
        ...(typeof compatibility === 'string' ? { compatibility } : {}),
        affects,
      };
    });
}

/** Whether pointer `a` is `b` or lies inside it. */
const within = (a: string, b: string): boolean => b === '' || a === b || a.startsWith(`${b}/`);

/**
 * The RFCs a change at `file#pointer` belongs to: those whose `affects` names that place, a place inside it or one
 * containing it; when none does, every RFC that affects the file at all.
 */
export function rfcsFor(rfcs: readonly Rfc[], files: readonly string[], pointer: string): Rfc[] {
  const onFile = rfcs.filter((r) => r.affects.some((a) => files.includes(a.path)));
  const precise = onFile.filter((r) => r.affects.some((a) => files.includes(a.path) && (within(pointer, a.pointer) || within(a.pointer, pointer))));
  return precise.length ? precise : onFile;
}

export interface ChangelogSection {
  /** The version as the heading writes it (`1.0.0`). */
  readonly version: string;
  readonly major: number;
  readonly minor: number;
  /** Each list entry, with its continuation lines joined. */
  readonly entries: readonly string[];
}

/** The versioned sections of `<root>/CHANGELOG.md` (`## [1.0.0] - date`); `Unreleased` has no version and is skipped. */
export function readChangelog(root: string): ChangelogSection[] {
  const path = join(root, 'CHANGELOG.md');
  if (!existsSync(path)) return [];
  const sections: { version: string; major: number; minor: number; entries: string[] }[] = [];
  let current: { version: string; major: number; minor: number; entries: string[] } | undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const heading = /^## \[?v?(\d+)\.(\d+)\.(\d+)[^\]\s]*\]?/.exec(line);
    if (heading) {
      current = { version: `${heading[1]}.${heading[2]}.${heading[3]}`, major: Number(heading[1]), minor: Number(heading[2]), entries: [] };
      sections.push(current);
    } else if (/^## /.test(line)) current = undefined;
    else if (current && /^\s*[-*] /.test(line)) current.entries.push(line.replace(/^\s*[-*] /, ''));
    else if (current && /^\s+\S/.test(line) && current.entries.length) current.entries[current.entries.length - 1] += ` ${line.trim()}`;
  }
  return sections;
}

/** Whether `text` contains `word` as a whole word (`id` is not found in `identifiers`). */
const namesWord = (text: string, word: string): boolean =>
  new RegExp(`(^|[^A-Za-z0-9_$-])${word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}($|[^A-Za-z0-9_$-])`).test(text);

/** A version's major and minor (`0.2.0` → [0, 2]); an absent one counts as 0.0. */
const majorMinor = (version: string | undefined): [number, number] => {
  const [major = 0, minor = 0] = (version ?? '0.0.0').split('.').map(Number);
  return [major, minor];
};

/** Whether a release numbered `v` may break users of `base` (semver: a higher major; under major 0, a higher minor). */
export function breaksFrom(base: string | undefined, v: Pick<ChangelogSection, 'major' | 'minor'>): boolean {
  const [major, minor] = majorMinor(base);
  return v.major > major || (major === 0 && v.major === 0 && v.minor > minor);
}

/** The first version that may break users of `base` (`0.2.0` → `0.3.0`, `1.4.2` → `2.0.0`). */
export function nextBreakingVersion(base: string | undefined): string {
  const [major, minor] = majorMinor(base);
  return major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
}

/**
 * The version of the first CHANGELOG section that may break users of `baseVersion` with an entry that names every
 * word of one of the `alternatives` (as whole words), if any.
 */
export function changelogEntryFor(sections: readonly ChangelogSection[], baseVersion: string | undefined, alternatives: readonly (readonly string[])[]): string | undefined {
  for (const s of sections) {
    if (!breaksFrom(baseVersion, s)) continue;
    if (s.entries.some((e) => alternatives.some((words) => words.length > 0 && words.every((w) => namesWord(e, w))))) return s.version;
  }
  return undefined;
}
