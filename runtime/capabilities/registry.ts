/**
 * The discovery document is assembled from contributions of the modules actually wired into a runtime, so it
 * can only claim what the runtime does. Each contribution is a partial document; they are deep-merged in
 * registration order and the result is validated against capabilities.schema.json.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAjv } from '../../generator/ajv.ts';

export type CapabilityFragment = { readonly [key: string]: unknown };

const dir = fileURLToPath(new URL('../../schemas/openwop/v1/', import.meta.url));
const ajv = createAjv();
for (const f of ['proposal', 'capabilities']) ajv.addSchema(JSON.parse(readFileSync(`${dir}${f}.schema.json`, 'utf8')));
const validateCapabilities = ajv.getSchema('https://wopkit.dev/schemas/openwop/v1/capabilities.schema.json')!;

export class InvalidCapabilitiesError extends Error {
  constructor(readonly failures: readonly { instancePath: string; message: string }[]) {
    super(`capabilities document is invalid: ${failures.map((f) => `${f.instancePath || '/'} ${f.message}`).join('; ')}`);
    this.name = 'InvalidCapabilitiesError';
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(into: Record<string, unknown>, from: CapabilityFragment): Record<string, unknown> {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    if (isPlainObject(cur) && isPlainObject(v)) into[k] = merge({ ...cur }, v);
    else if (Array.isArray(cur) && Array.isArray(v)) into[k] = [...new Set([...cur, ...v])];
    else into[k] = structuredClone(v);
  }
  return into;
}

export class CapabilityRegistry {
  readonly #fragments: { source: string; fragment: CapabilityFragment }[] = [];
  constructor(private readonly base: CapabilityFragment = { protocolVersion: '1.1' }) {}
  /** Add what a wired module does. `source` names the module (for diagnostics). */
  contribute(source: string, fragment: CapabilityFragment): this {
    this.#fragments.push({ source, fragment });
    return this;
  }
  /** The merged, validated discovery document. */
  document(): Record<string, unknown> {
    const doc = this.#fragments.reduce((acc, f) => merge(acc, f.fragment), merge({}, this.base));
    if (!validateCapabilities(doc)) {
      throw new InvalidCapabilitiesError((validateCapabilities.errors ?? []).map((e) => ({ instancePath: e.instancePath, message: e.message ?? e.keyword })));
    }
    return doc;
  }
  sources(): readonly string[] {
    return this.#fragments.map((f) => f.source);
  }
}
