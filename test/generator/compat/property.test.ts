/**
 * Soundness of compat against Ajv (fast-check): random mutations of the real corpus's schemas — add or remove a
 * property, add or drop a `required` name, open or close an object, narrow or widen a `type`, add or remove an `enum`
 * value, move a bound — are classified by compat, and whenever compat calls every change additive or neutral, every
 * previously valid example of the mutated shapes still validates (Ajv2020, strict, as the corpus is checked). Run for
 * server-emitted shapes (the brief's property) and for client-submitted ones. `FC_RUNS` scales the runs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadCorpus } from '../../../generator/load.ts';
import { resolveCorpus, type TypeInfo } from '../../../generator/resolve.ts';
import { createAjv } from '../../../generator/ajv.ts';
import { compareCorpora } from '../../../generator/compat/report.ts';
import { effectiveDirections } from '../../../generator/compat/direction.ts';
import { forEachSubschema } from '../../../generator/meta-messages.ts';
import type { Json, JsonObject, LoadedCorpus } from '../../../generator/model.ts';
import { REPO } from '../helpers.ts';

const NUM_RUNS = Number(process.env['FC_RUNS'] ?? 60);
const corpus = loadCorpus(REPO);
const resolved = resolveCorpus(corpus);
const directions = effectiveDirections(resolved);
const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Types (root or `$defs` entry) of one direction that have valid examples. */
function typesOf(direction: 'response' | 'request'): TypeInfo[] {
  return resolved.types.filter((t) => {
    const d = directions.get(`${t.file.path}#${t.pointer}`);
    const ok = direction === 'response' ? d === 'response' || d === 'both' : d === 'request';
    return ok && corpus.examples.some((e) => e.kind === 'valid' && e.family === t.file.family && e.major === t.file.major && e.target === t.target);
  });
}

type Mutation = (node: JsonObject, pick: number) => boolean;
const keysOf = (o: Json | undefined): string[] => (isObj(o) ? Object.keys(o) : []);
const at = <T>(xs: readonly T[], i: number): T | undefined => (xs.length ? xs[i % xs.length] : undefined);

/** Mutations of one subschema; each returns false when it does not apply to the node. */
const MUTATIONS: Record<string, Mutation> = {
  'add optional property': (n, i) => {
    if (!isObj(n['properties'])) return false;
    n['properties'][`fcExtra${i % 7}`] = at([{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }, { type: 'string', maxLength: 2 }], i) as Json;
    return true;
  },
  'remove property': (n, i) => {
    const name = at(keysOf(n['properties']), i);
    if (name === undefined) return false;
    delete (n['properties'] as JsonObject)[name];
    if (Array.isArray(n['required'])) n['required'] = n['required'].filter((r) => r !== name);
    return true;
  },
  'add required': (n, i) => {
    const name = at(keysOf(n['properties']).filter((k) => !(Array.isArray(n['required']) && n['required'].includes(k))), i);
    if (name === undefined) return false;
    n['required'] = [...(Array.isArray(n['required']) ? n['required'] : []), name];
    return true;
  },
  'drop required': (n, i) => {
    const name = at(Array.isArray(n['required']) ? n['required'] : [], i);
    if (name === undefined) return false;
    n['required'] = (n['required'] as Json[]).filter((r) => r !== name);
    return true;
  },
  'close object': (n) => (isObj(n['properties']) && n['additionalProperties'] !== false ? ((n['additionalProperties'] = false), true) : false),
  'open object': (n) => (isObj(n['properties']) && n['additionalProperties'] === false ? ((n['additionalProperties'] = true), true) : false),
  'narrow type': (n) => {
    if (n['type'] === 'number') return (n['type'] = 'integer'), true;
    if (Array.isArray(n['type']) && n['type'].length > 1) return (n['type'] = n['type'].slice(1)), true;
    return false;
  },
  'widen type': (n) => {
    if (n['type'] === 'integer') return (n['type'] = 'number'), true;
    if (typeof n['type'] === 'string' && n['type'] !== 'null') return (n['type'] = [n['type'], 'null']), true;
    return false;
  },
  'add enum value': (n) => {
    if (!Array.isArray(n['enum'])) return false;
    n['enum'] = [...n['enum'], 'fc-extra'];
    return true;
  },
  'remove enum value': (n, i) => {
    const values = n['enum'];
    if (!Array.isArray(values) || values.length < 2) return false;
    n['enum'] = values.filter((_, k) => k !== i % values.length);
    return true;
  },
  'move a bound': (n, i) => {
    const bound = at(['maxLength', 'minLength', 'maxItems', 'minItems', 'maximum', 'minimum'].filter((b) => typeof n[b] === 'number'), i);
    if (bound === undefined) return false;
    n[bound] = Math.max(0, (n[bound] as number) + (i % 2 ? 1 : -1) * (1 + (i % 3)));
    return true;
  },
};
const KINDS = Object.keys(MUTATIONS);

/** The subschemas of a type's own schema (not of nested `$defs`), in a stable order. */
function nodesOf(entry: JsonObject): JsonObject[] {
  const nodes: JsonObject[] = [];
  forEachSubschema(entry, '', (n, pointer) => {
    if (!pointer.includes('/$defs/')) nodes.push(n);
  });
  return nodes;
}
const entryOf = (schema: JsonObject, t: TypeInfo): JsonObject => (t.defName ? (schema['$defs'] as JsonObject)[t.defName] : schema) as JsonObject;

/** A mutation that applies: the type, which of its subschemas, which kind. */
interface Candidate {
  readonly t: TypeInfo;
  readonly node: number;
  readonly kind: string;
}
function candidatesFor(types: readonly TypeInfo[]): Candidate[] {
  return types.flatMap((t) =>
    nodesOf(t.schema).flatMap((n, node) => KINDS.filter((kind) => (MUTATIONS[kind] as Mutation)(structuredClone(n), 0)).map((kind) => ({ t, node, kind }))),
  );
}

/** The corpus with one subschema of one type mutated. */
function mutate({ t, node, kind }: Candidate, pick: number): LoadedCorpus | undefined {
  const schema = structuredClone(t.file.schema);
  const target = nodesOf(entryOf(schema, t))[node];
  if (!target || !(MUTATIONS[kind] as Mutation)(target, pick)) return undefined;
  return { ...corpus, schemas: corpus.schemas.map((f) => (f === t.file ? { ...f, schema } : f)) };
}

/** Valid examples of the mutated file's types that the mutated corpus rejects (Ajv2020 strict, like check-examples). */
function rejectedExamples(changed: LoadedCorpus, file: string): string[] {
  const ajv = createAjv();
  for (const f of changed.schemas) ajv.addSchema(f.schema as object);
  const r = resolveCorpus(changed);
  const out: string[] = [];
  for (const ex of changed.examples) {
    if (ex.kind !== 'valid') continue;
    const entry = [...r.entries.values()].find((e) => e.file.family === ex.family && e.file.major === ex.major && e.target === ex.target);
    if (!entry || entry.file.path !== file) continue;
    const validate = ajv.getSchema(entry.ajvRef);
    if (validate && !validate(ex.instance)) out.push(`${ex.path}: ${JSON.stringify(validate.errors?.[0])}`);
  }
  return out;
}

describe('compat agrees with Ajv: a change it calls additive keeps old valid examples valid', () => {
  for (const direction of ['response', 'request'] as const) {
    it(`${direction} shapes`, () => {
      const types = typesOf(direction);
      expect(types.length).toBeGreaterThan(10);
      const candidates = candidatesFor(types);
      const seen = { nonBreaking: 0, breaking: 0, breakingThatInvalidates: 0 };
      // Half the runs add an optional property (the change a server-emitted shape can take additively).
      const candidate = fc.oneof(fc.constantFrom(...candidates.filter((c) => c.kind === 'add optional property')), fc.constantFrom(...candidates));
      fc.assert(
        fc.property(candidate, fc.nat(), (c, pick) => {
          const { t, kind } = c;
          const changed = mutate(c, pick);
          if (!changed) return;
          let cur;
          try {
            cur = resolveCorpus(changed);
          } catch {
            return;
          }
          const changes = compareCorpora(resolved, cur, { rfcs: [], changelog: [] });
          const rejected = (() => {
            try {
              return rejectedExamples(changed, t.file.path);
            } catch {
              return undefined; // the mutation made a schema strict mode refuses: not a corpus that could ship
            }
          })();
          if (rejected === undefined) return;
          if (changes.some((c) => c.classification === 'breaking')) {
            seen.breaking++;
            if (rejected.length) seen.breakingThatInvalidates++;
            return;
          }
          seen.nonBreaking++;
          expect(rejected, `${kind} on ${t.title}: ${changes.map((c) => `${c.kind} ${c.pointer} ${c.classification}`).join('; ')}`).toEqual([]);
        }),
        { numRuns: NUM_RUNS },
      );
      // Not vacuous: both outcomes occurred, and some breaking changes really invalidated an example.
      expect(seen.nonBreaking, JSON.stringify(seen)).toBeGreaterThan(0);
      expect(seen.breaking, JSON.stringify(seen)).toBeGreaterThan(0);
    });
  }
});
