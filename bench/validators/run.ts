/**
 * Validator benchmarks (ratios measured in one run, interleaved rounds, median of ratios; not timed tests). Prints a
 * table and writes bench/results/validators.json. Run: npm run bench:validators
 *
 *  1. our generated validators vs Ajv in its fastest mode (Ajv2020 compiled at runtime, allErrors: false — it stops at
 *     the first failure, like ours — and messages: false, so a failure builds no message text; the same full formats as
 *     the corpus, so verdicts agree) and vs @exodus/schemasafe (default mode, no errors), on instances generated from the
 *     schemas: for every type, valid instances built from its schema (test/corpus/arbitrary.ts, a fixed seed) and
 *     invalid ones made from them by small edits (kept only when every contender rejects them). Goals: ≥ 1.5× Ajv on
 *     valid, ≥ 2× on invalid, ahead of schemasafe on both. The corpus's own examples are measured too (reported).
 *     Also reported: Ajv with allErrors: true (the project's earlier configuration), and, on invalid instances, the cost
 *     of reading `errors` after the verdict (ours computes them on that read, Ajv while validating).
 *  2. MemoryEntry: ours vs a hand-written check (bench/validators/hand-memory-entry.ts). Goal: within 2×.
 *  3. validateRunEvent (envelope + O(1) dispatch on type) vs Ajv's `discriminator` keyword over the same payload
 *     definitions, on valid events. Goal: ≥ 1.5×.
 *  4. OpenWOP v2: the generated v2 validators (generated/validators/v2/) vs Ajv's fastest mode, on instances generated
 *     from the v2 schemas the same way (rows `validGeneratedV2`, `invalidGeneratedV2`; goals as in 1).
 * Rows 1–3 measure the first major's types and examples. `BENCH_MAJOR=v2 npm run bench:validators` runs the v2 rows
 * only and writes them to bench/results/validators-v2.json (the full run writes every row to validators.json).
 */
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { validator as schemasafe } from '@exodus/schemasafe';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved, type TypeInfo } from '../../generator/resolve.ts';
import { validatorIndex } from '../../generated/validators/validators.js';
import { validatorIndex as v2ValidatorIndex } from '../../generated/validators/v2/validators.js';
import { validateRunEvent } from '../../generated/run-events/index.ts';
import { compare, type Comparison } from './measure.ts';
import { handMemoryEntry } from './hand-memory-entry.ts';
import { runEventFixtures } from '../run-event-fixtures.ts';
import { oracleAjv } from '../../test/corpus/oracle.ts';
import { applyEdits, arbitraryFor, editArbitrary } from '../../test/corpus/arbitrary.ts';
import { writeResult } from '../summary.ts';
import type { Json } from '../../generator/model.ts';

const ROOT = resolve(import.meta.dirname, '../..');
type V = ((d: unknown) => boolean) & { errors?: unknown[] | null };

const corpus = loadCorpus(ROOT);
const r = new Resolved(corpus);
/** Ajv's fastest mode for the same verdicts: first failure only, no message text. */
const ajv = oracleAjv(corpus, { allErrors: false, messages: false });
const ajvAll = oracleAjv(corpus);
const ssOptions = { schemas: corpus.schemas.map((f) => f.schema as object), mode: 'default' as const, allowUnusedKeywords: true, includeErrors: false };
const ssCache = new Map<string, V>();
const ssOf = (ref: string): V => {
  let v = ssCache.get(ref);
  if (!v) ssCache.set(ref, (v = schemasafe({ $ref: ref }, ssOptions) as unknown as V));
  return v;
};
const index = { ...validatorIndex, ...v2ValidatorIndex } as unknown as Record<string, { validator: V }>;
/** `v2`: only the v2 rows (section 4). */
const ONLY_MAJOR = process.env['BENCH_MAJOR'];
const firstMajor = (e: { readonly major: string }) => e.major === r.firstMajor;
const byTarget = new Map([...r.entries.values()].map((e) => [`${e.file.family}/${e.file.major}/${e.target}`, e]));

interface Case {
  readonly instance: unknown;
  readonly ours: V;
  readonly ajv: V;
  readonly ajvAll: V;
  readonly schemasafe: V;
}
const cases = (kind: 'valid' | 'invalid', target?: string): Case[] =>
  corpus.examples
    .filter((e) => firstMajor(e) && e.kind === kind && (target === undefined || e.target === target))
    .map((e) => {
      const t = byTarget.get(`${e.family}/${e.major}/${e.target}`);
      if (!t) throw new Error(`no type for ${e.path}`);
      return {
        instance: e.instance,
        ours: index[t.title]!.validator,
        ajv: ajv.getSchema(t.ajvRef) as unknown as V,
        ajvAll: ajvAll.getSchema(t.ajvRef) as unknown as V,
        schemasafe: ssOf(t.ajvRef),
      };
    });

// Every contender must give every instance its expected verdict, or the comparison means nothing.
const CONTENDERS = ['ours', 'ajv', 'ajvAll', 'schemasafe'] as const;
const checkVerdicts = (list: Case[], expected: boolean, what: string) => {
  for (const c of list)
    for (const k of CONTENDERS)
      if (c[k](c.instance) !== expected) throw new Error(`${k} gives ${!expected} on a ${expected ? 'valid' : 'invalid'} ${what}: ${JSON.stringify(c.instance).slice(0, 200)}`);
};
const exampleValid = cases('valid');
const exampleInvalid = cases('invalid');
checkVerdicts(exampleValid, true, 'example');
checkVerdicts(exampleInvalid, false, 'example');

// Instances generated from the schemas: per type, valid ones built from its schema, invalid ones by small edits of
// those that every contender rejects (an edit that keeps an instance valid, or that the contenders disagree on, is
// dropped; a valid instance the contenders disagree on fails the benchmark). if/then/not/contains are not modelled by
// the generator, so a built instance some schema still rejects is dropped too (reported as `droppedBuilt`).
const SEED = 2026;
const PER_TYPE = Number(process.env['BENCH_INSTANCES'] ?? 8);
function generate(types: readonly TypeInfo[]) {
  const out = { valid: [] as Case[], invalid: [] as Case[], droppedBuilt: 0, droppedEdits: 0 };
  for (const t of types) {
    const base = { ours: index[t.title]!.validator, ajv: ajv.getSchema(t.ajvRef) as unknown as V, ajvAll: ajvAll.getSchema(t.ajvRef) as unknown as V, schemasafe: ssOf(t.ajvRef) };
    let built: Json[];
    try {
      built = fc.sample(arbitraryFor(r, t.file, t.schema), { numRuns: PER_TYPE, seed: SEED });
    } catch {
      continue; // a shape the generator does not model
    }
    for (const [i, instance] of built.entries()) {
      const verdicts = CONTENDERS.map((k) => base[k](instance));
      if (verdicts.every((v) => v)) out.valid.push({ instance, ...base });
      else if (verdicts.some((v) => v)) throw new Error(`contenders disagree on a generated ${t.title}: ${CONTENDERS.map((k, j) => `${k} ${verdicts[j]}`).join(', ')}`);
      else out.droppedBuilt++;
      const edits = fc.sample(fc.array(editArbitrary, { minLength: 1, maxLength: 2 }), { numRuns: 1, seed: SEED + i })[0]!;
      const broken = applyEdits(instance, edits);
      const after = CONTENDERS.map((k) => base[k](broken));
      if (after.every((v) => !v)) out.invalid.push({ instance: broken, ...base });
      else out.droppedEdits++;
    }
  }
  checkVerdicts(out.valid, true, 'generated instance');
  checkVerdicts(out.invalid, false, 'generated instance');
  return out;
}
const v2Types = r.typesOf('v2');
if (v2Types.length === 0) throw new Error('no v2 types: the corpus settings must load openwop v2');
const verdicts = (list: Case[]) =>
  compare(list, {
    ours: (c) => c.ours(c.instance),
    ajv: (c) => c.ajv(c.instance),
    schemasafe: (c) => c.schemasafe(c.instance),
    ajvAllErrors: (c) => c.ajvAll(c.instance),
  });
const generatedV2 = generate(v2Types);
const v2Rows = {
  validGeneratedV2: { ...verdicts(generatedV2.valid), goals: { ajv: 1.5, schemasafe: 1.0 } as Record<string, number> },
  invalidGeneratedV2: { ...verdicts(generatedV2.invalid), goals: { ajv: 2.0, schemasafe: 1.0 } as Record<string, number> },
};
const v2Input = `schemas/openwop/v2/ (${v2Types.length} types): ${generatedV2.valid.length} valid and ${generatedV2.invalid.length} invalid instances generated from the schemas (seed ${SEED}, ${PER_TYPE} per type)`;
if (ONLY_MAJOR === 'v2') {
  const summary = Object.entries(v2Rows).flatMap(([name, v]) =>
    Object.entries(v.goals).map(([peer, goal]) => ({ row: `${name} vs ${peer}`, figure: `${v.opsPerSec['ours']} ops/s`, peer: `${peer}: ${v.opsPerSec[peer]} ops/s`, ratio: v.ratios[peer] as number, goal: `≥ ${goal}×` })),
  );
  for (const x of summary) console.log(`${x.row} | ${x.ratio}× | ${x.goal}${x.ratio >= Number(x.goal.slice(2, -1)) ? '' : '  NOT MET'}`);
  const instances = { seed: SEED, perType: PER_TYPE, valid: generatedV2.valid.length, invalid: generatedV2.invalid.length, droppedBuilt: generatedV2.droppedBuilt, droppedEdits: generatedV2.droppedEdits };
  console.log(`\nwritten ${writeResult('validators-v2', { generatedInstances: instances, ...v2Rows, summary }, v2Input)}`);
  process.exit(0);
}
const generated = generate(r.typesOf(r.firstMajor));
const valid = generated.valid;
const invalid = generated.invalid;
const validRow = verdicts(valid);
const invalidRow = verdicts(invalid);
const exampleValidRow = verdicts(exampleValid);
const exampleInvalidRow = verdicts(exampleInvalid);
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
  ajvMode: 'Ajv2020 compiled at runtime, allErrors: false, messages: false, full formats (ajv-formats), strict',
  corpus: { types: r.typesOf(r.firstMajor).length, v2Types: v2Types.length, validExamples: exampleValid.length, invalidExamples: exampleInvalid.length, events: events.length },
  generatedInstances: { seed: SEED, perType: PER_TYPE, valid: valid.length, invalid: invalid.length, droppedBuilt: generated.droppedBuilt, droppedEdits: generated.droppedEdits },
  validGenerated: row(validRow, { ajv: 1.5, schemasafe: 1.0 }),
  invalidGenerated: row(invalidRow, { ajv: 2.0, schemasafe: 1.0 }),
  validExamples: row(exampleValidRow, {}),
  invalidExamples: row(exampleInvalidRow, {}),
  invalidExamplesReadingFirstError: row(invalidWithErrors, {}),
  memoryEntryValid: row(handValid, { handWritten: 0.5 }),
  memoryEntryInvalid: row(handInvalid, { handWritten: 0.5 }),
  runEventDispatch: row(dispatchRow, { ajvDiscriminator: 1.5 }),
  ...v2Rows,
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
  validGenerated: 'validators, valid instances generated from the schemas', invalidGenerated: 'validators, invalid instances (generated, then edited)',
  memoryEntryValid: 'MemoryEntry, valid', memoryEntryInvalid: 'MemoryEntry, invalid', runEventDispatch: 'validateRunEvent dispatch',
  validGeneratedV2: 'v2 validators, valid instances generated from the v2 schemas', invalidGeneratedV2: 'v2 validators, invalid instances (generated from v2, then edited)',
};
const summaryRows = Object.entries(results).flatMap(([name, v]) => {
  if (typeof v !== 'object' || !('ratios' in v)) return [];
  return Object.entries(v.goals).map(([peer, goal]) => {
    const ratio = v.ratios[peer] as number;
    const peerName = peer === 'ajv' ? 'Ajv, fastest mode (allErrors: false, messages: false)' : peer === 'schemasafe' ? 'schemasafe, default mode' : peer;
    return { row: `${LABELS[name] ?? name} vs ${peer}`, figure: `${v.opsPerSec.ours} ops/s`, peer: `${peerName}: ${v.opsPerSec[peer]} ops/s`, ratio, goal: `≥ ${goal}×` };
  });
});
const input = `${v2Input}; first major: schemas/ (${r.typesOf(r.firstMajor).length} types): ${valid.length} valid and ${invalid.length} invalid instances generated from the schemas (seed ${SEED}, ${PER_TYPE} per type), and the corpus's ${exampleValid.length} valid and ${exampleInvalid.length} invalid examples`;
console.log(`\nwritten ${writeResult('validators', { ...results, summary: summaryRows }, input)}`);
