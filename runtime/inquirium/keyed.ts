/**
 * ClassKeyed<T> and ModeKeyed<T>: configuration selected by classification, or by node mode. Two distinct types
 * (the axes are orthogonal: what the data is vs. which regime the node is in) over ONE resolution function,
 * `resolveOnAxis`, and ONE monotonicity check, `checkMonotone` — not a generic lattice-keyed type.
 *
 * Resolution: a configured key gives its value. A key that is missing from the config — or unknown, which the
 * axis normalises to its most restrictive key — falls back to the value of the MOST restrictive configured key
 * (so a gap in the config can never make things looser than the strictest thing the operator wrote down); with
 * no keyed entries at all, `default` applies. Every resolution returns a trace of what was asked, chosen and why.
 */
import { classificationAxis, modeAxis, type Classification, type NodeMode, type OrderedAxis } from './lattice.ts';

export interface ClassKeyed<T> {
  readonly default: T;
  readonly by_class?: Partial<Record<Classification, T>>;
}
export interface ModeKeyed<T> {
  readonly default: T;
  readonly by_mode?: Partial<Record<NodeMode, T>>;
}

export type ResolutionReason = 'configured' | 'missing-key-most-restrictive-fallback' | 'default';

export interface Resolution<T> {
  readonly axis: string;
  /** What the caller asked for (as given). */
  readonly asked: unknown;
  /** The key the ask normalised to (unknown ⇒ most restrictive). */
  readonly normalised: string;
  /** The configured key whose value was chosen, or 'default'. */
  readonly chosenKey: string;
  readonly value: T;
  readonly reason: ResolutionReason;
}

/** The shared mechanism behind both keyed idioms. */
export function resolveOnAxis<K extends string, T>(axis: OrderedAxis<K>, defaultValue: T, entries: Partial<Record<K, T>> | undefined, asked: unknown): Resolution<T> {
  const key = axis.normalise(asked);
  const configured: Partial<Record<K, T>> = entries ?? {};
  if (Object.prototype.hasOwnProperty.call(configured, key)) {
    return { axis: axis.name, asked, normalised: key, chosenKey: key, value: configured[key] as T, reason: 'configured' };
  }
  for (let i = axis.keys.length - 1; i >= 0; i--) {
    const k = axis.keys[i]!;
    if (Object.prototype.hasOwnProperty.call(configured, k)) {
      return { axis: axis.name, asked, normalised: key, chosenKey: k, value: configured[k] as T, reason: 'missing-key-most-restrictive-fallback' };
    }
  }
  return { axis: axis.name, asked, normalised: key, chosenKey: 'default', value: defaultValue, reason: 'default' };
}

export const resolveClassKeyed = <T>(config: ClassKeyed<T>, classification: unknown): Resolution<T> =>
  resolveOnAxis(classificationAxis, config.default, config.by_class, classification);

export const resolveModeKeyed = <T>(config: ModeKeyed<T>, mode: unknown): Resolution<T> =>
  resolveOnAxis(modeAxis, config.default, config.by_mode, mode);

/**
 * How restrictive a value of a safety-sensitive setting is: compare(a, b) > 0 when a is MORE restrictive than b.
 */
export interface SafetyAxis<T> {
  readonly name: string;
  compare(a: T, b: T): number;
}

export interface MonotonicityViolation<T> {
  readonly setting: string;
  /** The less restrictive key of the pair (lower classification / less severe mode). */
  readonly lowerKey: string;
  readonly higherKey: string;
  readonly lowerValue: T;
  readonly higherValue: T;
  readonly message: string;
}

/**
 * Safety-sensitive settings must only tighten as the key becomes more restrictive. Checks every ordered pair of
 * keys on their RESOLVED values (so fallbacks are checked too) and reports each violation with its keys.
 */
export function checkMonotone<K extends string, T>(axis: OrderedAxis<K>, safety: SafetyAxis<T>, defaultValue: T, entries: Partial<Record<K, T>> | undefined): MonotonicityViolation<T>[] {
  const resolved = axis.keys.map((k) => ({ key: k, value: resolveOnAxis(axis, defaultValue, entries, k).value }));
  const out: MonotonicityViolation<T>[] = [];
  for (let i = 0; i < resolved.length; i++) {
    for (let j = i + 1; j < resolved.length; j++) {
      const lo = resolved[i]!;
      const hi = resolved[j]!;
      if (safety.compare(hi.value, lo.value) < 0) {
        out.push({
          setting: safety.name,
          lowerKey: lo.key,
          higherKey: hi.key,
          lowerValue: lo.value,
          higherValue: hi.value,
          message: `${safety.name}: ${hi.key} (${JSON.stringify(hi.value)}) is less restrictive than ${lo.key} (${JSON.stringify(lo.value)})`,
        });
      }
    }
  }
  return out;
}

export const checkClassKeyedMonotone = <T>(config: ClassKeyed<T>, safety: SafetyAxis<T>) => checkMonotone(classificationAxis, safety, config.default, config.by_class);
export const checkModeKeyedMonotone = <T>(config: ModeKeyed<T>, safety: SafetyAxis<T>) => checkMonotone(modeAxis, safety, config.default, config.by_mode);
