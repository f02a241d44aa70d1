/**
 * What the editor shows behind the text: the lines a verdict points at, each marked, with the failures on that line
 * (keyword and message) written after it. Pure (strings in, HTML out), so the marks are tested without a browser.
 * The editor is a textarea over a <pre> "backdrop" with the same font and metrics; the textarea's own background is
 * transparent, so the backdrop's marks and notes show through at the right lines.
 */
import { pointerOffsets } from '../../../../generator/json-locate.ts';
import type { Failure, Verdict } from './check.ts';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** 0-based line of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 0;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The 0-based line a failure points at: its pointer's member (key) or value, or the nearest enclosing one that
 * exists (a missing member is reported on the object that lacks it).
 */
export function failureLine(text: string, offsets: ReadonlyMap<string, number>, f: Pick<Failure, 'instancePath'>): number {
  for (let p = f.instancePath; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const at = offsets.get(p);
    if (at !== undefined) return lineOf(text, at);
    if (p === '') return 0;
  }
}

/** Line → what to write after it. */
export function marks(text: string, verdict: Verdict): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const add = (line: number, note: string) => out.set(line, [...(out.get(line) ?? []), note]);
  if (verdict.kind === 'malformed') add(verdict.offset === undefined ? 0 : lineOf(text, verdict.offset), verdict.message);
  else if (verdict.kind === 'invalid') {
    const offsets = pointerOffsets(text);
    for (const f of verdict.failures) add(failureLine(text, offsets, f), `${f.keyword}: ${f.message}`);
  }
  return out;
}

/** The backdrop's HTML: every line (its text invisible, under the textarea's), marked lines highlighted and annotated. */
export function backdropHtml(text: string, verdict: Verdict): string {
  const m = marks(text, verdict);
  return text
    .split('\n')
    .map((line, i) => {
      const notes = m.get(i);
      if (notes === undefined) return `<span class="pg-line">${esc(line)}</span>`;
      return `<span class="pg-line pg-marked">${esc(line)}</span><span class="pg-note">  ◀ ${esc(notes.join(' · '))}</span>`;
    })
    .join('\n')
    .concat('\n');
}
