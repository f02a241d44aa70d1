/**
 * The generated translation between OpenWOP majors (generated/majors/openwop.ts, emitter generator/emit/majors.ts)
 * says what the tables of schemas/openwop/majors/ say, row by row; it follows an edit of a table (a renamed row, in a
 * scratch copy of the corpus, changes the generated module with it and nothing else); and a table the emitter does not
 * know is refused with its path.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { emitMajors, majorsModulePath } from '../../generator/emit/majors.ts';
import { CorpusError } from '../../generator/errors.ts';
import { EVENT_NAME_ROWS, ERROR_ROWS, errorIn, errorStatus, eventNameIn } from '../../generated/majors/openwop.ts';
import { REPO } from '../generator/helpers.ts';

interface EventRow { v1: string; v2: string; registered: boolean }
interface ErrorSide { code: string; status: number }
const table = <T>(name: string): { rows: T[] } => JSON.parse(readFileSync(join(REPO, 'schemas/openwop/majors', `${name}.json`), 'utf8')) as { rows: T[] };
const events = table<EventRow>('event-names').rows;
const errors = table<{ v1?: ErrorSide; v2?: ErrorSide }>('error-statuses').rows;

const scratch = mkdtempSync(join(tmpdir(), 'wopkit-majors-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('generated translation between OpenWOP majors', () => {
  it('has every row of both tables, in order', () => {
    expect(EVENT_NAME_ROWS).toEqual(events);
    expect(ERROR_ROWS).toEqual(errors);
  });

  it('translates every event name both ways, and knows no name the table lacks', () => {
    for (const row of events) {
      expect(eventNameIn(row.v1, 'v1', 'v2')).toBe(row.v2);
      expect(eventNameIn(row.v2, 'v2', 'v1')).toBe(row.v1);
      expect(eventNameIn(row.v1, 'v1', 'v1')).toBe(row.v1);
    }
    const known = new Set(events.flatMap((r) => [r.v1, r.v2]));
    fc.assert(fc.property(fc.string({ maxLength: 30 }), fc.constantFrom('v1' as const, 'v2' as const), (name, from) => {
      if (!known.has(name)) expect(eventNameIn(name, from, from === 'v1' ? 'v2' : 'v1')).toBeUndefined();
    }));
  });

  it('gives each error code its status under its major and the same failure\'s code and status under the other', () => {
    for (const row of errors) {
      for (const [from, to] of [['v1', 'v2'], ['v2', 'v1']] as const) {
        const side = row[from];
        if (side === undefined) continue;
        // one v2 code may stand for several v1 codes: the row keeping the code in both majors answers, else the first
        const rows = errors.filter((x) => x[from]?.code === side.code);
        const first = rows.find((x) => x.v1?.code === x.v2?.code) ?? rows[0]!;
        expect(errorStatus(from, side.code)).toBe(first[from]!.status);
        expect(errorIn(side.code, from, to)).toEqual(first[to]);
      }
    }
    expect(errorStatus('v1', 'no_such_code')).toBeUndefined();
    // a status the majors disagree on is data, not code: at least one row differs (the example among them)
    expect(errors.some((x) => x.v1 && x.v2 && x.v1.status !== x.v2.status)).toBe(true);
  });

  it('follows the table: renaming one row in a scratch copy changes the generated module with it, and nothing else', () => {
    cpSync(join(REPO, 'schemas'), join(scratch, 'schemas'), { recursive: true });
    cpSync(join(REPO, 'package.json'), join(scratch, 'package.json'));
    const file = join(scratch, 'schemas/openwop/majors/event-names.json');
    const data = JSON.parse(readFileSync(file, 'utf8')) as { rows: EventRow[] };
    const row = data.rows.find((x) => x.v1 !== x.v2)!;
    const before = row.v2;
    row.v2 = 'renamed-domain.renamed-happened';
    writeFileSync(file, JSON.stringify(data, null, 2));
    const [ours] = emitMajors(new Resolved(loadCorpus(scratch)));
    const committed = readFileSync(join(REPO, majorsModulePath('openwop')), 'utf8');
    expect(ours!.path).toBe(majorsModulePath('openwop'));
    expect(ours!.contents).toContain('"renamed-domain.renamed-happened"');
    expect(ours!.contents).not.toContain(JSON.stringify(before));
    expect(ours!.contents.replaceAll('"renamed-domain.renamed-happened"', JSON.stringify(before))).toBe(committed);
  });

  it('refuses a majors table it does not know, naming the file', () => {
    const corpus = loadCorpus(REPO);
    const extra = { ...corpus, majorTables: [...(corpus.majorTables ?? []), { path: 'schemas/openwop/majors/route-names.json', family: 'openwop', name: 'route-names', data: { rows: [] } }] };
    expect(() => emitMajors(new Resolved(extra))).toThrow(CorpusError);
    expect(() => emitMajors(new Resolved(extra))).toThrow(/unknown majors table "route-names"/);
  });
});
