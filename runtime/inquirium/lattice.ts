/**
 * The two orders P066 relies on, written once:
 *
 * - Classification: public < community < personal (less → more restrictive). A label that is missing or not
 *   one of the three is treated as personal, the most restrictive.
 * - Node mode: commons < support < crisis by severity (our reading: crisis — disaster, war, blackout — is the most
 *   severe). An unknown mode is treated as crisis.
 *
 * `join` is the more restrictive (more severe) of two keys, `meet` the less restrictive. Everything else in
 * runtime/inquirium derives its ordering from here.
 */
export const CLASSIFICATIONS = ['public', 'community', 'personal'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];
export const MODES = ['commons', 'support', 'crisis'] as const;
export type NodeMode = (typeof MODES)[number];

/** A totally ordered axis, least restrictive first. */
export interface OrderedAxis<K extends string> {
  readonly name: string;
  readonly keys: readonly K[];
  /** Normalise any input to a key: unknown or missing → the most restrictive key. */
  normalise(value: unknown): K;
  rank(value: unknown): number;
  join(a: unknown, b: unknown): K;
  meet(a: unknown, b: unknown): K;
  /** Whether `a` is at least as restrictive as `b`. */
  atLeastAsRestrictive(a: unknown, b: unknown): boolean;
  readonly mostRestrictive: K;
  readonly leastRestrictive: K;
}

function orderedAxis<K extends string>(name: string, keys: readonly K[]): OrderedAxis<K> {
  const index = new Map<string, number>(keys.map((k, i) => [k, i]));
  const top = keys.length - 1;
  const rank = (v: unknown): number => (typeof v === 'string' ? index.get(v) ?? top : top);
  const normalise = (v: unknown): K => keys[rank(v)]!;
  return {
    name,
    keys,
    normalise,
    rank,
    join: (a, b) => keys[Math.max(rank(a), rank(b))]!,
    meet: (a, b) => keys[Math.min(rank(a), rank(b))]!,
    atLeastAsRestrictive: (a, b) => rank(a) >= rank(b),
    mostRestrictive: keys[top]!,
    leastRestrictive: keys[0]!,
  };
}

export const classificationAxis: OrderedAxis<Classification> = orderedAxis('classification', CLASSIFICATIONS);
export const modeAxis: OrderedAxis<NodeMode> = orderedAxis('mode', MODES);

export const normaliseClassification = classificationAxis.normalise;
export const joinClassification = classificationAxis.join;
export const meetClassification = classificationAxis.meet;
export const isAtLeastAsRestrictive = classificationAxis.atLeastAsRestrictive;
