/** The reference oracle of our validators: Ajv, configured as the corpus requires (generator/ajv.ts), holding every corpus schema. */
import type { Options } from 'ajv';
import type { LoadedCorpus } from '../../generator/model.ts';
import { createAjv } from '../../generator/ajv.ts';

export function oracleAjv(corpus: LoadedCorpus, extra: Options = {}): ReturnType<typeof createAjv> {
  const ajv = createAjv(extra);
  for (const f of corpus.schemas) ajv.addSchema(f.schema as object);
  return ajv;
}
