/**
 * ClassKeyed<T> and ModeKeyed<T>: configuration selected by classification, or by node mode. Two distinct types
 * (the axes are orthogonal: what the data is vs. which regime the node is in) over ONE resolution function,
 * `resolveOnAxis`, and ONE monotonicity check, `checkMonotone` — not a generic lattice-keyed type.
 *
 * Resolution (schema rules class-keyed-most-restrictive-fallback / mode-keyed-most-severe-fallback):
 * - the asked key is normalised first (unknown or missing ⇒ the axis's most restrictive key);
 * - a configured key gives its value;
 * - otherwise the MOST RESTRICTIVE VALUE among `default` and every configured entry is returned, judged by the
 *   setting's restrictiveness order (`SafetyAxis`). So a gap in the config can never make things looser than
 *   the strictest thing the operator wrote down.
 * - Settings whose values have no restrictiveness order (prompt templates, adapter parameters: behaviour shaping,
 *   not enforcement) resolve without an order: the value of the most restrictive configured KEY stands in, and
 *   `default` when nothing is keyed. The reason code says which rule answered.
 * Every resolution returns what was asked, what it normalised to, which entry answered, and why; the generate
 * pipeline turns that into a `class-keyed-resolution` / `mode-keyed-resolution` trace decision.
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

/**
 * How restrictive a value of a safety-sensitive setting is: compare(a, b) > 0 when a is MORE restrictive than b,
 * 0 when equally restrictive, < 0 when less.
 */
export interface SafetyAxis<T> {
  readonly name: string;
  compare(a: T, b: T): number;
  /**
   * Least upper bound, for settings whose values are only partially ordered (an escalation set: neither of
   * {a} and {b} contains the other, and the strictest value covering both is {a, b}). Total orders omit it.
   */
  join?(a: T, b: T): T;
}

export type ResolutionReason =
  | 'configured'
  | 'missing-key-most-restrictive-value'
  | 'missing-key-most-restrictive-key'
  | 'missing-key-join-of-values'
  | 'default';

export interface Resolution<T> {
  readonly axis: string;
  /** What the caller asked for (as given). */
  readonly asked: unknown;
  /** The key the ask normalised to (unknown ⇒ most restrictive). */
  readonly normalised: string;
  /** The entry whose value was chosen: a configured key, 'default', or 'join' (a join of several entries). */
  readonly chosenKey: string;
  readonly value: T;
  readonly reason: ResolutionReason;
}

/** The configured entries that are present (own keys with a value), in the axis's order (least restrictive first). */
function presentEntries<K extends string, T>(keys: readonly K[], configured: Partial<Record<K, T>>): { readonly key: K; readonly value: T }[] {
  const out: { readonly key: K; readonly value: T }[] = [];
  for (const key of keys) {
    const value = Object.prototype.hasOwnProperty.call(configured, key) ? configured[key] : undefined;
    if (value !== undefined) out.push({ key, value });
  }
  return out;
}

/** The shared mechanism behind both keyed idioms. */
export function resolveOnAxis<K extends string, T>(
  axis: OrderedAxis<K>,
  defaultValue: T,
  entries: Partial<Record<K, T>> | undefined,
  asked: unknown,
  order?: SafetyAxis<T>,
): Resolution<T> {
  const key = axis.normalise(asked);
  const present = presentEntries(axis.keys, entries ?? {});
  const base = { axis: axis.name, asked, normalised: key };
  const exact = present.find((e) => e.key === key);
  if (exact !== undefined) return { ...base, chosenKey: key, value: exact.value, reason: 'configured' };
  if (order?.join !== undefined && present.length > 0) {
    const join = order.join.bind(order);
    const value = present.reduce((acc, e) => join(acc, e.value), defaultValue);
    const equal = [...present].reverse().find((e) => order.compare(e.value, value) === 0 && order.compare(value, e.value) === 0);
    const chosenKey = equal?.key ?? (order.compare(defaultValue, value) === 0 ? 'default' : 'join');
    return { ...base, chosenKey, value, reason: 'missing-key-join-of-values' };
  }
  if (order !== undefined) {
    // default first, then keys least → most restrictive; on a tie the later (more restrictive key) wins.
    let chosenKey = 'default';
    let value = defaultValue;
    for (const e of present) {
      if (order.compare(e.value, value) >= 0) {
        chosenKey = e.key;
        value = e.value;
      }
    }
    return { ...base, chosenKey, value, reason: chosenKey === 'default' && present.length === 0 ? 'default' : 'missing-key-most-restrictive-value' };
  }
  const top = present[present.length - 1];
  if (top !== undefined) return { ...base, chosenKey: top.key, value: top.value, reason: 'missing-key-most-restrictive-key' };
  return { ...base, chosenKey: 'default', value: defaultValue, reason: 'default' };
}

/** Resolve a ClassKeyed setting for a label. Pass the setting's order for safety-sensitive settings. */
export const resolveClassKeyed = <T>(config: ClassKeyed<T>, classification: unknown, order?: SafetyAxis<T>): Resolution<T> =>
  resolveOnAxis(classificationAxis, config.default, config.by_class, classification, order);

/** Resolve a ModeKeyed setting for a node mode. Pass the setting's order for safety-sensitive settings. */
export const resolveModeKeyed = <T>(config: ModeKeyed<T>, mode: unknown, order?: SafetyAxis<T>): Resolution<T> =>
  resolveOnAxis(modeAxis, config.default, config.by_mode, mode, order);

export interface MonotonicityViolation<T> {
  readonly setting: string;
  readonly axis: string;
  /** The less restrictive key of the pair (lower classification / less severe mode). */
  readonly lowerKey: string;
  readonly higherKey: string;
  readonly lowerValue: T;
  readonly higherValue: T;
  readonly message: string;
}

/**
 * Safety-sensitive settings must only tighten as the key becomes more restrictive. Checks every ordered pair of
 * keys on their RESOLVED values (so fallbacks are checked too) and reports each violation with both keys.
 */
export function checkMonotone<K extends string, T>(
  axis: OrderedAxis<K>,
  safety: SafetyAxis<T>,
  defaultValue: T,
  entries: Partial<Record<K, T>> | undefined,
): MonotonicityViolation<T>[] {
  const resolved = axis.keys.map((k) => ({ key: k, value: resolveOnAxis(axis, defaultValue, entries, k, safety).value }));
  const out: MonotonicityViolation<T>[] = [];
  for (let i = 0; i < resolved.length; i++) {
    for (let j = i + 1; j < resolved.length; j++) {
      const lo = resolved[i]!;
      const hi = resolved[j]!;
      if (safety.compare(hi.value, lo.value) < 0) {
        out.push({
          setting: safety.name,
          axis: axis.name,
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

export const checkClassKeyedMonotone = <T>(config: ClassKeyed<T>, safety: SafetyAxis<T>): MonotonicityViolation<T>[] =>
  checkMonotone(classificationAxis, safety, config.default, config.by_class);
export const checkModeKeyedMonotone = <T>(config: ModeKeyed<T>, safety: SafetyAxis<T>): MonotonicityViolation<T>[] =>
  checkMonotone(modeAxis, safety, config.default, config.by_mode);
