/**
 * Validator benchmarks (ratios measured in one run, interleaved rounds, median of ratios; not timed tests). Prints a
 * table and writes bench/results/validators.json. Run: npm run bench:validators
 *
 *  1. our generated validators vs Ajv compiled at runtime (allErrors: false, the same first-failure contract) vs
 *     @exodus/schemasafe (default mode, no errors), on every valid and every invalid example of the corpus, each with
 *     its own type's validator. Goals: ≥ 1.5× Ajv on valid, ≥ 2× on invalid, ahead of schemasafe on both.
 *     Also reported: Ajv with allErrors: true (the project's previous configuration) and, on invalid examples, the cost
 *     of reading `errors` after the verdict (ours computes them on that read, Ajv while validating).
 *  2. MemoryEntry: ours vs a hand-written check (bench/validators/hand-memory-entry.ts). Goal: within 2×.
 *  3. validateRunEvent (envelope + O(1) dispatch on type) vs Ajv's `discriminator` keyword over the same payload
 *     definitions, on valid events. Goal: ≥ 1.5×.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { validator as schemasafe } from '@exodus/schemasafe';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { validatorIndex } from '../../generated/validators/validators.js';
import { validateRunEvent } from '../../generated/run-events/index.ts';
import { compare, type Comparison } from './measure.ts';
import { handMemoryEntry } from './hand-memory-entry.ts';
import { runEventFixtures } from '../run-event-fixtures.ts';
import { oracleAjv } from '../../test/corpus/oracle.ts';

const ROOT = resolve(import.meta.dirname, '../..');
type V = ((d: unknown) => boolean) & { errors?: unknown[] | null };

const corpus = loadCorpus(ROOT);
const r = new Resolved(corpus);
const ajv = oracleAjv(corpus, { allErrors: false });
const ajvAll = oracleAjv(corpus);
const ssOptions = { schemas: corpus.schemas.map((f) => f.schema as object), mode: 'default' as const, allowUnusedKeywords: true, includeErrors: false };
const ssCache = new Map<string, V>();
const ssOf = (ref: string): V => {
  let v = ssCache.get(ref);
  if (!v) ssCache.set(ref, (v = schemasafe({ $ref: ref }, ssOptions) as unknown as V));
  return v;
};
const index = validatorIndex as unknown as Record<string, { validator: V }>;
const byTarget = new Map([...r.entries.values()].map((e) => [`${e.file.family}/${e.target}`, e]));

interface Case {
  readonly instance: unknown;
  readonly ours: V;
  readonly ajv: V;
  readonly ajvAll: V;
  readonly schemasafe: V;
}
const cases = (kind: 'valid' | 'invalid', target?: string): Case[] =>
  corpus.examples
    .filter((e) => e.kind === kind && (target === undefined || e.target === target))
    .map((e) => {
      const t = byTarget.get(`${e.family}/${e.target}`);
      if (!t) throw new Error(`no type for ${e.path}`);
      return {
        instance: e.instance,
        ours: index[t.title]!.validator,
        ajv: ajv.getSchema(t.ajvRef) as unknown as V,
        ajvAll: ajvAll.getSchema(t.ajvRef) as unknown as V,
        schemasafe: ssOf(t.ajvRef),
      };
    });

// Every contender must give every example its declared verdict, or the comparison means nothing.
const valid = cases('valid');
const invalid = cases('invalid');
for (const [list, expected] of [[valid, true], [invalid, false]] as const)
  for (const c of list)
    for (const k of ['ours', 'ajv', 'ajvAll', 'schemasafe'] as const)
      if (c[k](c.instance) !== expected) throw new Error(`${k} gives ${!expected} on a ${expected ? 'valid' : 'invalid'} example: ${JSON.stringify(c.instance).slice(0, 200)}`);

const verdicts = (list: Case[]) =>
  compare(list, {
    ours: (c) => c.ours(c.instance),
    ajv: (c) => c.ajv(c.instance),
    schemasafe: (c) => c.schemasafe(c.instance),
    ajvAllErrors: (c) => c.ajvAll(c.instance),
  });
const validRow = verdicts(valid);
const invalidRow = verdicts(invalid);
const firstErrorOf = (v: V, x: unknown) => !v(x) && (v.errors as unknown[])[0] !== undefined;
const invalidWithErrors = compare(invalid, {
  ours: (c) => firstErrorOf(c.ours, c.instance),
  ajv: (c) => firstErrorOf(c.ajv, c.instance),
  ajvAllErrors: (c) => firstErrorOf(c.ajvAll, c.instance),
});

// 2. one type against a hand-written check
const meValid = cases('valid', 'memory-entry');
const meInvalid = cases('invalid', 'memory-entry');
for (const c of [...meValid, ...meInvalid]) if (handMemoryEntry(c.instance) !== c.ours(c.instance)) throw new Error('hand-written MemoryEntry check disagrees');
const handRow = (list: Case[]) => compare(list, { ours: (c) => c.ours(c.instance), handWritten: (c) => handMemoryEntry(c.instance) });
const handValid = handRow(meValid);
const handInvalid = handRow(meInvalid);

// 3. dispatch vs Ajv's discriminator over the same payload definitions
const { payloadsFile, envelopeFile, typeIndex, events } = runEventFixtures(corpus);
const discriminated = ajv.compile({
  $id: 'https://wopkit.dev/bench/run-event-discriminator.json',
  type: 'object',
  allOf: [{ $ref: envelopeFile.id }],
  discriminator: { propertyName: 'type' },
  oneOf: Object.entries(typeIndex).map(([type, ref]) => ({
    properties: { type: { const: type }, payload: { $ref: `${payloadsFile.id}${ref}` } },
    required: ['type', 'payload'],
  })),
}) as V;
for (const e of events) if (!discriminated(e) || !validateRunEvent(e).valid) throw new Error('bench events must all be valid');
const dispatchRow = compare(events, { ours: (e) => validateRunEvent(e).valid, ajvDiscriminator: (e) => discriminated(e) });

const row = (c: Comparison, goals: Record<string, number>) => ({ ...c, goals });
const results = {
  machine: { cpus: cpus().length, node: process.version },
  method: 'interleaved rounds (rotating order), ratio = median over rounds of ours / peer',
  corpus: { types: r.types.length, validExamples: valid.length, invalidExamples: invalid.length, events: events.length },
  validExamples: row(validRow, { ajv: 1.5, schemasafe: 1.0 }),
  invalidExamples: row(invalidRow, { ajv: 2.0, schemasafe: 1.0 }),
  invalidExamplesReadingFirstError: row(invalidWithErrors, {}),
  memoryEntryValid: row(handValid, { handWritten: 0.5 }),
  memoryEntryInvalid: row(handInvalid, { handWritten: 0.5 }),
  runEventDispatch: row(dispatchRow, { ajvDiscriminator: 1.5 }),
};

const lines: string[][] = [['benchmark', 'peer', 'ours / peer', 'goal']];
for (const [name, v] of Object.entries(results)) {
  if (typeof v !== 'object' || !('ratios' in v)) continue;
  for (const [peer, ratio] of Object.entries(v.ratios)) {
    const goal = v.goals[peer];
    lines.push([name, peer, `${ratio}×`, goal === undefined ? '(info)' : `≥ ${goal}×${ratio >= goal ? '' : '  NOT MET'}`]);
  }
}
const w = [0, 1, 2, 3].map((i) => Math.max(...lines.map((l) => (l[i] as string).length)));
for (const l of lines) console.log(l.map((c, i) => c.padEnd(w[i] as number)).join(' | '));
/** The common summary rows (bench/README.md): one per benchmark and peer that has a goal. */
const LABELS: Record<string, string> = {
  validExamples: 'validators, valid corpus examples', invalidExamples: 'validators, invalid corpus examples',
  memoryEntryValid: 'MemoryEntry, valid', memoryEntryInvalid: 'MemoryEntry, invalid', runEventDispatch: 'validateRunEvent dispatch',
};
const summaryRows = Object.entries(results).flatMap(([name, v]) => {
  if (typeof v !== 'object' || !('ratios' in v)) return [];
  return Object.entries(v.goals).map(([peer, goal]) => {
    const ratio = v.ratios[peer] as number;
    return { row: `${LABELS[name] ?? name} vs ${peer}`, figure: `${v.opsPerSec.ours} ops/s`, peer: `${peer} (${v.opsPerSec[peer]} ops/s)`, ratio, goal: `≥ ${goal}×`, met: ratio >= goal };
  });
});
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/validators.json'), JSON.stringify({ ...results, summary: summaryRows }, null, 2) + '\n');
console.log('\nwritten bench/results/validators.json');
