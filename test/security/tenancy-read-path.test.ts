/**
 * CTI-1 is enforced once, in the shared read path, and a new view cannot forget it:
 * - the queries that return stored entries (live or as of a snapshot: runtime/storage/reads/memory.ts, reached as
 *   methods of the store's bound queries) are called only by `TenantReader` (runtime/memory/tenant-reader.ts) — plus the writer's existence check before it plans a
 *   deletion, which returns nothing to its caller;
 * - every one of those queries names its tenant in its WHERE clause, so even a ref that slipped past the reader's
 *   shape check could not reach another tenant's rows;
 * - no SQL outside runtime/storage/ names the tables that hold entries (entries, entry_tags, journal);
 * - the views are typed against tenant-bound readers (`TenantReaders`), not the store.
 * A module that reads entries around the reader fails here.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceOf, tsFilesUnder } from '../architecture/sources.ts';

const QUERIES = 'runtime/storage/reads/memory.ts';
/** The entry-returning queries of QUERIES. */
const ENTRY_QUERIES = ['entryPage', 'entryGet', 'entriesOldestFirst', 'snapshotPage', 'snapshotGet'] as const;
/** Who may call them, and which. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'runtime/memory/tenant-reader.ts': ['entryPage', 'entryGet', 'entriesOldestFirst', 'snapshotPage', 'snapshotGet'],
  // Whether the entry exists before a deletion is planned (tenant from the write's own CTI-1 check); nothing returned.
  'runtime/memory/writer.ts': ['entryGet'],
};

/**
 * The entry queries `file` calls: every query reaches runtime code as a method of the store's bound queries (`tx.read`,
 * `Reads`), so a call of one by name — `x.entryGet(…)` — is what a read around the reader would look like.
 */
function entryQueriesCalled(file: string): string[] {
  const out: string[] = [];
  const walk = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && (ENTRY_QUERIES as readonly string[]).includes(n.expression.name.text)) out.push(n.expression.name.text);
    ts.forEachChild(n, walk);
  };
  walk(sourceOf(file));
  return [...new Set(out)];
}

/** SQL text (string and template literals) of a file. */
function sqlOf(file: string): string[] {
  const out: string[] = [];
  const walk = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) out.push(n.text);
    else if (ts.isTemplateExpression(n)) out.push(n.getText());
    ts.forEachChild(n, walk);
  };
  walk(sourceOf(file));
  return out.filter((t) => /\b(SELECT|INSERT|UPDATE|DELETE)\b/.test(t));
}

describe('CTI-1: one read path', () => {
  const files = tsFilesUnder('runtime');

  it('the scans see what they look for (not vacuous)', () => {
    expect(entryQueriesCalled('runtime/memory/tenant-reader.ts')).toEqual(expect.arrayContaining([...ENTRY_QUERIES]));
    expect(sqlOf(QUERIES).length).toBeGreaterThan(5);
  });

  it('only TenantReader (and the writer\'s existence check) calls the queries that return entries', () => {
    const hits = files.filter((f) => !f.startsWith('runtime/storage/')).flatMap((f) => entryQueriesCalled(f).filter((name) => !(ALLOWED[f] ?? []).includes(name)).map((name) => `${f}: ${name}`));
    expect(hits).toEqual([]);
  });

  it('every query that reads entries or their before-images names its tenant', () => {
    const source = readFileSync(QUERIES, 'utf8');
    for (const name of ENTRY_QUERIES) expect(source, name).toMatch(new RegExp(`export async function ${name}\\b`));
    const reading = sqlOf(QUERIES).filter((sql) => /\bFROM (entries|entry_tags|journal)\b/.test(sql));
    expect(reading.length).toBeGreaterThanOrEqual(5);
    expect(reading.filter((sql) => !/\btenant = \?/.test(sql))).toEqual([]);
    // The page query builds its WHERE from parts: its conditions start with the tenant, and the documents it joins
    // are the tenant's too.
    expect(source).toMatch(/const conditions = \(x: string\) => \[`\$\{x\}tenant = \?`, `\$\{x\}memory_ref = \?`/);
    expect(source).toMatch(/JOIN entries e ON e\.tenant = \? AND e\.memory_ref = \? AND e\.id = k\.id/);
  });

  it('no SQL outside runtime/storage/ names the tables that hold entries', () => {
    const hits = files.filter((f) => !f.startsWith('runtime/storage/')).flatMap((f) => sqlOf(f).filter((sql) => /\b(entries|entry_tags|journal)\b/.test(sql)).map((sql) => `${f}: ${sql.slice(0, 80)}`));
    expect(hits).toEqual([]);
  });

  it('views are typed against tenant-bound readers, not the store', () => {
    const typedBy: [string, RegExp][] = [
      ['runtime/memory/adapter.ts', /constructor\(reader: TenantReader, clock: Clock/],
      ['runtime/compaction/compactor.ts', /readonly store: TenantReaders;/],
      ['runtime/distillation/distiller.ts', /readonly store: TenantReaders;/],
      ['runtime/consolidation/service.ts', /readonly store: TenantReaders;/],
      ['runtime/multi-agent/sub-run-memory.ts', /readonly store: TenantReaders;/],
    ];
    for (const [file, re] of typedBy) expect(readFileSync(file, 'utf8'), file).toMatch(re);
  });
});
