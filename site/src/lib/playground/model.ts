/**
 * What the validator (the playground page and each schema page's "Try it" box) knows about a schema file's types,
 * built from the site data at build time and served as one small JSON file per schema file
 * (`/playground/data/<family>/<stem>.json`), fetched only when a box is used: each type's validator (its name and
 * the generated module that exports it), how a run event's payload is dispatched, the runtime rules a schema
 * cannot express (which the validator therefore does not check), and the corpus examples to start from.
 */
import type { Definition, InvalidExample, Json, Link, RuntimeRule, SchemaDoc, ValidExample } from '../../../../generator/site-data-format.ts';

/** A validator: its export name and the generated module (`generated/validators/by-type/<module>.js`) that exports it. */
export interface ValidatorRef {
  readonly module: string;
  readonly name: string;
}

export interface PlaygroundType {
  readonly title: string;
  /** Its place on its schema page. */
  readonly href: string;
  readonly validator: ValidatorRef;
  /** Run events: the payload validator of each known `type` (an unknown type is tolerated, as the spec requires). */
  readonly payloads?: Readonly<Record<string, ValidatorRef>>;
  /** Rules of this type and of every type it refers to that JSON Schema cannot express: not checked here. */
  readonly rules: readonly (RuntimeRule & { readonly of: string })[];
  readonly examples: { readonly valid: readonly ValidExample[]; readonly invalid: readonly InvalidExample[] };
}

export interface PlaygroundFile {
  readonly family: string;
  readonly stem: string;
  readonly fileName: string;
  readonly types: readonly PlaygroundType[];
}

/** Where a schema file's playground data is served. */
export const playgroundDataUrl = (family: string, stem: string): string => `/playground/data/${family}/${stem}.json`;
/** The playground page. */
export const PLAYGROUND_URL = '/playground/';

export interface DefinitionIndex {
  readonly definitionOf: (l: Pick<Link, 'family' | 'stem' | 'def'>) => Definition | undefined;
  readonly hrefOf: (family: string, stem: string, d: Definition) => string;
}

/** Runtime rules of `d` and of every definition it reaches through references, each once, `d`'s first. */
export function reachableRules(d: Definition, index: DefinitionIndex): (RuntimeRule & { of: string })[] {
  const seen = new Set<Definition>();
  const out: (RuntimeRule & { of: string })[] = [];
  const ids = new Set<string>();
  const visit = (x: Definition): void => {
    if (seen.has(x)) return;
    seen.add(x);
    for (const r of x.runtimeRules) if (!ids.has(`${x.title}/${r.id}`)) {
      ids.add(`${x.title}/${r.id}`);
      out.push({ ...r, of: x.title });
    }
    for (const l of x.references) {
      const next = index.definitionOf(l);
      if (next !== undefined) visit(next);
    }
  };
  visit(d);
  return out;
}

/**
 * The playground data of one schema file. `runEventTypes`: the envelope's title and the known event types (from
 * generated/run-events); the envelope dispatches each to the payload its type index names.
 */
export function playgroundFile(doc: SchemaDoc, index: DefinitionIndex, typeIndexEntries: readonly { value: string; ref: Link | null }[], runEvents: { envelope: string; known: readonly string[] }): PlaygroundFile {
  const payloads = (): Record<string, ValidatorRef> => {
    const out: Record<string, ValidatorRef> = {};
    for (const type of runEvents.known) {
      const ref = typeIndexEntries.find((t) => t.value === type)?.ref;
      const d = ref === null || ref === undefined ? undefined : index.definitionOf(ref);
      if (ref === null || ref === undefined || d?.validator === null || d === undefined) throw new Error(`run event type ${type}: no payload definition with a validator in the site data's type indexes`);
      out[type] = { module: d.title, name: d.validator };
    }
    return out;
  };
  const types = doc.definitions
    .filter((d): d is Definition & { validator: string } => d.isType && d.validator !== null)
    .map((d) => ({
      title: d.title,
      href: index.hrefOf(doc.family, doc.stem, d),
      validator: { module: d.title, name: d.validator },
      ...(d.title === runEvents.envelope ? { payloads: payloads() } : {}),
      rules: reachableRules(d, index),
      examples: d.examples,
    }));
  return { family: doc.family, stem: doc.stem, fileName: doc.fileName, types };
}

/** A document to start from: the first valid example, else the first invalid one, else an empty object. */
export function starterDocument(t: Pick<PlaygroundType, 'examples'>): Json {
  return t.examples.valid[0]?.instance ?? t.examples.invalid[0]?.instance ?? {};
}
