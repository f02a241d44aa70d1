import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// The rule → test tables in docs/ name tests as `file.test.ts` › describe › test. A renamed or moved test
// must break this check, not leave the table pointing at nothing.

const DOCS = ['docs/runtime-openwop.md', 'docs/runtime-inquirium.md'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}
const ALL = testFiles('test');

/** The literal part of a named segment: up to an ellipsis, without a trailing note, split at %s placeholders. */
export function literalPieces(segment: string): string[] {
  const cut = segment.split('…')[0]!.replace(/;\s*$/, '').trim();
  const noNote = cut.endsWith(')') && !/\(property\)$/.test(cut) ? cut.replace(/\s*\([^()]*\)$/, '') : cut;
  return noNote.split('%s').map((p) => p.trim()).filter((p) => p.length >= 4);
}

interface Reference { doc: string; file: string; segment: string }

function references(doc: string): Reference[] {
  const out: Reference[] = [];
  for (const line of readFileSync(doc, 'utf8').split('\n')) {
    if (!line.startsWith('|')) continue;
    const parts = line.split(/`([^`]+\.test\.ts)`/);
    for (let i = 1; i < parts.length; i += 2) {
      const file = parts[i]!;
      const text = parts[i + 1]!.split('|')[0]!;
      for (const seg of text.split('›').slice(1)) out.push({ doc, file, segment: seg.trim() });
    }
  }
  return out;
}

describe('docs rule → test tables', () => {
  for (const doc of DOCS) {
    it(`${doc}: every named test file exists and every named test is in it`, () => {
      const refs = references(doc);
      expect(refs.length, `${doc} names tests`).toBeGreaterThan(20);
      const problems: string[] = [];
      for (const r of refs) {
        const candidates = ALL.filter((f) => f === r.file || f.endsWith(`/${r.file}`));
        if (candidates.length === 0) { problems.push(`${r.file}: no such test file`); continue; }
        const sources = candidates.map((f) => readFileSync(f, 'utf8').replaceAll("\\'", "'"));
        for (const piece of literalPieces(r.segment)) {
          // A parameterised name (`${name}: …`) is matched on the literal part after the prefix.
          const literal = piece.includes(': ') ? piece.slice(piece.indexOf(': ') + 2) : piece;
          if (!sources.some((s) => s.includes(piece) || s.includes(literal))) problems.push(`${r.file} › "${piece}" not found`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
