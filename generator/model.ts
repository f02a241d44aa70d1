/**
 * The data shapes the generator stages pass forward: load (`LoadedCorpus`) → resolve (`Resolved`, in resolve.ts)
 * → lint (findings) → emit (`EmittedFile`s) → write. Plain data only: nothing here computes anything.
 */

import type { Json, JsonObject } from './json-value.ts';
import type { CorpusConfig } from './corpus-config.ts';

export type { Json, JsonObject };

/** One schema file of the corpus. */
export interface SchemaFile {
  /** `openwop` or `inquirium`. */
  readonly family: string;
  /** The major it belongs to, e.g. `v1` (the folder `schemas/<family>/<major>/`). */
  readonly major: string;
  /** File name, e.g. `memory-entry.schema.json`. */
  readonly fileName: string;
  /** File name without `.schema.json`, e.g. `memory-entry` or `inquirium.generate.request.v1`. */
  readonly stem: string;
  /** Repo-relative path with forward slashes, e.g. `schemas/openwop/v1/memory-entry.schema.json`. */
  readonly path: string;
  /** The schema's `$id`. */
  readonly id: string;
  /** The parsed schema. */
  readonly schema: JsonObject;
  /** The file's text as read (to locate pointers in); absent for schemas built in memory. */
  readonly text?: string;
}

/** Which failure an invalid example must produce. */
export interface ExpectedFailure {
  readonly instancePath: string;
  readonly keyword: string;
}

/** One example instance (valid or invalid) of a schema or one of its `$defs`. */
export interface Example {
  readonly family: string;
  /** The major of the folder it sits in (its target's). */
  readonly major: string;
  /** Directory name: `<stem>` or `<stem>--<DefName>`. */
  readonly target: string;
  /** `$id` of the schema file the target belongs to. */
  readonly schemaId: string;
  /** `''` for the root schema, else the `$defs` entry name. */
  readonly defName: string;
  readonly kind: 'valid' | 'invalid';
  /** Repo-relative path. */
  readonly path: string;
  /** The instance (for invalid examples, the wrapper's `instance`). */
  readonly instance: Json;
  readonly description?: string;
  readonly expect?: ExpectedFailure;
  /**
   * The `$schema` the example file names for editors (a valid example's top-level key, an invalid example's
   * instance's), removed from `instance` before validation; absent when the file has none.
   */
  readonly declaredSchema?: Json;
  /** The file's text as read (to locate pointers in); absent for examples built in memory. */
  readonly text?: string;
}

/** A file the load stage could not use (malformed JSON, not an object, a bad invalid-example wrapper). */
export interface LoadProblem {
  readonly file: string;
  readonly pointer: string;
  readonly message: string;
  /** 1-based line and column, when known. */
  readonly position?: { readonly line: number; readonly column: number };
}

/** One route table of the reference host (`schemas/<family>/v1/routes.json`, route-table.ts), as parsed. */
export interface RouteTableFile {
  /** Repo-relative path (`schemas/openwop/v1/routes.json`). */
  readonly path: string;
  readonly family: string;
  /** The parsed file (checked against generator/route-table-schema.ts by lint). */
  readonly data: JsonObject;
  readonly text: string;
}

/**
 * One table of what differs between a family's majors (`schemas/<family>/majors/<name>.json`: the event names, the
 * error statuses), as parsed: corpus data the majors emitter turns into the generated translation.
 */
export interface MajorTableFile {
  /** Repository-relative path (`schemas/openwop/majors/event-names.json`). */
  readonly path: string;
  readonly family: string;
  /** The file name without `.json` (`event-names`, `error-statuses`). */
  readonly name: string;
  readonly data: JsonObject;
  /** The file's text as read (watch mode compares it between runs). */
  readonly text?: string;
  /** The schema beside it (`<name>.schema.json` in the same folder), when there is one: lint checks the table with it. */
  readonly schema?: JsonObject;
}

/** What the load stage returns: every schema file and example as parsed, in a stable order. */
export interface LoadedCorpus {
  /** Absolute path of the repository root the corpus was loaded from. */
  readonly root: string;
  /** The corpus settings it was loaded with (corpus-config.ts). */
  readonly config: CorpusConfig;
  /**
   * The `$id` base the corpus uses: the one its settings name, else the one its schemas' `$id`s share (the most common;
   * undefined when no `$id` ends with its file's path).
   */
  readonly idBase?: string;
  readonly schemas: readonly SchemaFile[];
  readonly examples: readonly Example[];
  /**
   * The lowest major of the folders loaded (`v1`): its generated modules sit at the generated folders themselves, a later
   * major's in a subfolder (naming.ts `majorLayout`). Kept when a subset of the schemas is resolved (watch mode), so the
   * layout never depends on which files an edit touched; absent: the lowest major of `schemas`.
   */
  readonly firstMajor?: string;
  /** The host's route tables, one per family that has one (absent or empty: the corpus describes no host). */
  readonly routeTables?: readonly RouteTableFile[];
  /** The tables of what differs between majors, per family that has a `majors/` folder (absent: none). */
  readonly majorTables?: readonly MajorTableFile[];
  /** Files left out because they could not be used (only when loaded with `keepGoing`; otherwise the first one throws). */
  readonly problems?: readonly LoadProblem[];
}

/** A file an emitter produces, relative to the repository root (e.g. `generated/ts/memory-entry.ts`). */
export interface EmittedFile {
  readonly path: string;
  readonly contents: string;
}
