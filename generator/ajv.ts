/**
 * The one place the corpus's Ajv configuration lives: draft 2020-12, strict mode, all errors,
 * discriminator support, formats, and the annotation keywords the corpus allows.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

/** The meta-schema every corpus schema follows (its `$schema`). */
export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Annotation keywords allowed in the corpus (see docs/CONVENTIONS.md). */
export const ANNOTATION_KEYWORDS = ['x-runtime-rules', 'x-source', 'x-type-index', 'x-direction'] as const;

export const AJV_OPTIONS: Options = {
  strict: true,
  allErrors: true,
  discriminator: true,
};

type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats =
  ((addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats));

/** A fresh Ajv2020 instance configured exactly as the corpus requires. */
export function createAjv(extra: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, ...extra });
  addFormats(ajv);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['object', 'array', 'string'] });
  return ajv;
}
