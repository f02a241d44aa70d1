/**
 * The discovery document is assembled from contributions of the modules actually wired into a runtime, so it
 * can only claim what the runtime does: each module that is wired contributes its own fragment (built from its
 * live configuration, e.g. `Compactor.capability()`), and a module that is not wired contributes nothing.
 * Fragments are deep-merged in registration order; two sources giving different values for the same scalar is
 * a wiring bug and is refused. The result is validated against capabilities.schema.json (generated validator).
 *
 * Discovery is served on every request, so the merged and validated document is computed once and kept until a
 * module contributes again. What callers get is deeply frozen (they cannot change what the next caller sees), and
 * contributions are copied when they are made (changing a fragment object afterwards changes nothing).
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

/** A value no caller can change: readonly all the way down (and frozen at run time). */
export type Frozen<T> = T extends (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/** The discovery document as the registry hands it out. */
export type DiscoveryDocument = Frozen<Capabilities & Record<string, unknown>>;

/** Freeze `value` and everything it holds (in place). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * The root members every discovery document carries (capabilities.schema.json requires them, as upstream OpenWOP
 * does): the protocol version, and the envelope list, schema versions and limits of a host that runs no LLM envelopes.
 */
export const DISCOVERY_ROOT: CapabilityFragment = {
  protocolVersion: '1.1',
  supportedEnvelopes: [],
  schemaVersions: {},
  limits: { clarificationRounds: 0, schemaRounds: 0, envelopesPerTurn: 0 },
};

export class CapabilityRegistry {
  readonly #base: CapabilityFragment;
  readonly #fragments: { source: string; fragment: CapabilityFragment }[] = [];
  /** The document and its JSON text, until the next contribution. */
  #cached: { readonly document: DiscoveryDocument; json?: string } | undefined;

  constructor(base: CapabilityFragment = DISCOVERY_ROOT) {
    this.#base = deepFreeze(structuredClone(base));
  }

  /** Add what a wired module does (a copy of `fragment` is kept). `source` names the module (for diagnostics). */
  contribute(source: string, fragment: CapabilityFragment): this {
    this.#fragments.push({ source, fragment: deepFreeze(structuredClone(fragment)) });
    this.#cached = undefined;
    return this;
  }

  /**
   * The merged, validated discovery document (deeply frozen; the same object until the next contribution). Throws on
   * conflicting contributions or an invalid document.
   */
  document(): DiscoveryDocument {
    if (this.#cached !== undefined) return this.#cached.document;
    const owners = new Map<string, string>();
    const doc = this.#fragments.reduce((acc, f) => merge(acc, f.fragment, owners, f.source), merge({}, this.#base, owners, 'base'));
    if (!validateCapabilities(doc)) throw new InvalidCapabilitiesError(toFailures(validateCapabilities.errors));
    this.#cached = { document: deepFreeze(doc) as DiscoveryDocument };
    return this.#cached.document;
  }

  /** {@link document} as JSON text, serialised once per document (for a route that sends it as it is). */
  documentJson(): string {
    const document = this.document();
    return (this.#cached!.json ??= JSON.stringify(document));
  }

  sources(): readonly string[] {
    return this.#fragments.map((f) => f.source);
  }
}
