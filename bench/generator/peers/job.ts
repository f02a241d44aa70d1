/**
 * What the generator's peers are given to do alone (bench/generator/run.ts writes it, each peer script reads it): the
 * corpus's schema files, every type (title and Ajv reference), and quicktype's top-level types and six targets — the
 * same work `wopkit gen --all` does with each library, without the rest of the pipeline.
 */
import type { Json } from '../../../generator/model.ts';

export interface PeerJob {
  /** Absolute paths of the schema files. */
  readonly schemaFiles: readonly string[];
  /** `[$id, schema]` of every schema file. */
  readonly schemas: readonly (readonly [string, Json])[];
  /** Every type the validators are compiled for: title → `$id` or `$id#/$defs/Name`. */
  readonly types: Readonly<Record<string, string>>;
  /** quicktype's top-level types and target languages, as the other-languages emitter asks for them. */
  readonly tops: readonly { readonly name: string; readonly uri: string }[];
  readonly targets: readonly { readonly lang: string; readonly options: Readonly<Record<string, string>> }[];
  /** Annotation keywords the corpus uses (Ajv's strict mode must know them). */
  readonly annotations: readonly string[];
}
