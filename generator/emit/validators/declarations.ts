/**
 * The type declarations every validators group shares, as source text: the Standard Schema v1 interface
 * (`standard-schema.d.ts`) and the validator's own type (`validator.d.ts`).
 *
 * Standard Schema (standardschema.dev) asks implementers to declare its interface locally rather than depend on a
 * package; ours is written from the published v1 contract and is structurally the same type, so tRPC, Hono, TanStack
 * Form and `@standard-schema/spec`'s own helpers accept our validators and infer their types (a type test holds
 * `InferOutput<typeof validateMemoryEntry>` equal to `MemoryEntry`, test/validators/standard-schema.test.ts).
 */

export const STANDARD_SCHEMA_DTS = `/** The Standard Schema v1 interface (standardschema.dev), declared here so the package depends on nothing. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The interface's properties, under a key no ordinary API uses. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  /** What a Standard Schema offers. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version of the interface: 1. */
    readonly version: 1;
    /** Who made the schema (the validators' package). */
    readonly vendor: string;
    /** Validates a value: the value itself when it is valid, else the issues found. */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** The input and output types, for type inference only (absent at run time). */
    readonly types?: Types<Input, Output> | undefined;
  }

  /** The result of \`validate\`. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;

  /** A valid value. */
  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }

  /** An invalid value: at least one issue. */
  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }

  /** One failure: a message and where it is (the keys from the root of the value). */
  export interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }

  /** A path segment written as an object. */
  export interface PathSegment {
    readonly key: PropertyKey;
  }

  /** The types a schema accepts and produces. */
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }

  /** The input type of a Standard Schema. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input'];

  /** The output type of a Standard Schema. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output'];
}
`;

export const VALIDATOR_DTS = `import type { StandardSchemaV1 } from './standard-schema.js';

/** One failure as Ajv reports it. */
export interface ValidatorError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  /** Set on the failures of a \`propertyNames\` subschema: the property name that failed. */
  propertyName?: string;
}

/**
 * A generated validator: a type predicate that stops at the first failure. After a failure, \`errors\` lists every
 * failure of that call (Ajv-compatible, in Ajv's order), computed when first read; after a success it is null.
 * It is also a Standard Schema v1 (\`~standard\`): \`validate\` returns \`{ value }\` or \`{ issues }\`, each issue's
 * \`path\` the keys of one error's \`instancePath\` (array indexes as numbers).
 */
export interface Validator<T> extends StandardSchemaV1<T, T> {
  (data: unknown): data is T;
  errors?: ValidatorError[] | null;
}
`;
