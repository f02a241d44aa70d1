/**
 * What of an example file validates, decided in one place for every command (`check-examples` through load.ts,
 * `validate` on the same files): an example's top-level `$schema` names its schema for editors and is not data, so it
 * is taken out before anything validates the instance; an invalid example is a `{description, expect, instance}`
 * wrapper whose `instance` is what validates. Light on purpose (no Ajv): `validate` uses it.
 */
import type { Json } from './json-value.ts';
import { isInvalidExamplePath } from './naming.ts';

/** The key an example file uses to name its schema for editors. */
export const EXAMPLE_SCHEMA_KEY = '$schema';

const isRecord = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An instance without its top-level editor `$schema`, and the value it had (absent when it had none). */
export function withoutEditorSchema(instance: Json): { instance: Json; declaredSchema?: Json } {
  if (!isRecord(instance) || !(EXAMPLE_SCHEMA_KEY in instance)) return { instance };
  const { [EXAMPLE_SCHEMA_KEY]: declaredSchema, ...rest } = instance;
  return { instance: rest, declaredSchema: declaredSchema as Json };
}

/** Whether parsed JSON is an invalid-example wrapper (an object with an `instance` and an `expect`). */
export const isInvalidExampleWrapper = (data: Json): data is Record<string, Json> => isRecord(data) && 'instance' in data && 'expect' in data;

/**
 * What of a file's parsed JSON validates: for an invalid example (a wrapper at `…/examples/<target>/invalid/*.json`)
 * its `instance`, else the whole document; either way without the editor `$schema`. `validate` uses this, so it gives
 * the verdict `check-examples` gives on every example file.
 */
export function validatedPart(data: Json, path: string): Json {
  const whole = isInvalidExamplePath(path) && isInvalidExampleWrapper(data) ? (data['instance'] as Json) : data;
  return withoutEditorSchema(whole).instance;
}
