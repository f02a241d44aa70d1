/**
 * The discovery document is assembled from contributions of the modules actually wired into a runtime, so it
 * can only claim what the runtime does: each module that is wired contributes its own fragment (built from its
 * live configuration, e.g. `Compactor.capability()`), and a module that is not wired contributes nothing.
 * Fragments are deep-merged in registration order; two sources giving different values for the same scalar is
 * a wiring bug and is refused. The result is validated against capabilities.schema.json (generated validator).
 */
import { toFailures } from '../../generated/guards/index.ts';
import { validateCapabilities } from '../../generated/validators/validators.js';
import type { Capabilities, ValidationFailure } from '../../generated/ts/index.ts';
import { WopkitError } from '../shared/errors.ts';

/** What one module contributes: any part of the generated discovery document (checked at compile time). */
export type CapabilityFragment = Readonly<Partial<Capabilities>>;

/** The merged document fails capabilities.schema.json: a wiring bug (a server fault on the wire). */
export class InvalidCapabilitiesError extends WopkitError<'invalid_capabilities'> {
  constructor(readonly failures: readonly Readonly<ValidationFailure>[]) {
    super('invalid_capabilities', `capabilities document is invalid: ${failures.map((f) => `${f.instancePath || '/'} ${f.message}`).join('; ')}`);
  }
}

/** Two contributions disagree on one scalar (e.g. one says supported: true, another false): a wiring bug. */
export class ConflictingCapabilityError extends WopkitError<'conflicting_capability'> {
  constructor(readonly path: string, readonly sources: readonly [string, string]) {
    super('conflicting_capability', `capability ${path} is contributed differently by ${sources[0]} and ${sources[1]}`);
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(into: Record<string, unknown>, from: CapabilityFragment, owners: Map<string, string>, source: string, path = ''): Record<string, unknown> {
  for (const [k, v] of Object.entries(from)) {
    const p = `${path}/${k}`;
    const cur = into[k];
    if (isPlainObject(cur) && isPlainObject(v)) into[k] = merge({ ...cur }, v, owners, source, p);
    else if (Array.isArray(cur) && Array.isArray(v)) into[k] = [...new Set([...cur, ...v])];
    else {
      if (cur !== undefined && JSON.stringify(cur) !== JSON.stringify(v)) throw new ConflictingCapabilityError(p, [owners.get(p) ?? 'base', source]);
      into[k] = structuredClone(v);
      owners.set(p, source);
    }
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
  /** The merged, validated discovery document. Throws on conflicting contributions or an invalid document. */
  document(): Capabilities & Record<string, unknown> {
    const owners = new Map<string, string>();
    const doc = this.#fragments.reduce((acc, f) => merge(acc, f.fragment, owners, f.source), merge({}, this.base, owners, 'base'));
    if (!validateCapabilities(doc)) throw new InvalidCapabilitiesError(toFailures(validateCapabilities.errors));
    return doc as Capabilities & Record<string, unknown>;
  }
  sources(): readonly string[] {
    return this.#fragments.map((f) => f.source);
  }
}
