import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import yaml from 'js-yaml';

const STATUSES = ['Draft', 'Active', 'Accepted', 'Withdrawn', 'Superseded', 'Rejected'];
const front = (file: string) => yaml.load(readFileSync(`RFCs/${file}`, 'utf8').split(/^---$/m)[1]!) as Record<string, any>;

describe('RFC files', () => {
  const files = readdirSync('RFCs').filter((f) => f.endsWith('.md'));
  it('are the five restated documents and the project drafts (WK-), each with machine-readable status and history', () => {
    expect(files.sort()).toEqual(['0012-memory-compaction.md', '0039-multi-agent-confidence-and-memory-lifecycle.md', '0068-memory-consolidation-and-commitments.md', 'AM-1.1-agent-memory.md', 'P066-inquirium-assistant-channel.md', 'WK-0001-openwop-memory-floor.md']);
    for (const f of files) {
      const d = front(f);
      expect(STATUSES, f).toContain(d.status);
      expect(d.statusHistory.at(-1).status, `${f}: last history entry is the current status`).toBe(d.status);
      expect(typeof d.title).toBe('string');
      for (const a of d.affects as string[]) if (a.startsWith('schemas/')) expect(existsSync(a.split('#')[0]!), `${f}: ${a}`).toBe(true);
    }
  });
  it('P066: every tracker row marked done names a test that exists', () => {
    const rows = front('P066-inquirium-assistant-channel.md').tracker as { id: string; project: { status: string; test?: string } }[];
    expect(rows.length).toBe(56);
    const done = rows.filter((r) => r.project.status === 'done');
    expect(done.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const r of done) {
      const [file, name] = r.project.test!.split(' › ');
      if (!existsSync(file!)) { problems.push(`${r.id}: no file ${file}`); continue; }
      const source = readFileSync(file!, 'utf8').replaceAll("\\'", "'");
      // Parameterised names (`${name}: …`) are matched on the literal part after the prefix.
      const literal = name!.replace(/ \(property\)$/, '');
      const found = source.includes(literal) || (literal.includes(': ') && source.includes(literal.slice(literal.indexOf(': ') + 2)));
      if (!found) problems.push(`${r.id}: test "${name}" not in ${file}`);
    }
    expect(problems).toEqual([]);
    for (const r of rows.filter((x) => x.project.status !== 'done')) expect(r.project.test, r.id).toBeUndefined();
  });
});
