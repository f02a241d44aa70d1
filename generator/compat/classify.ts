/**
 * Classification: a change's effect on the accepted instances (changes.ts) and the direction of the shape it touches
 * (direction.ts) give additive, breaking or neutral. One table:
 *
 * | effect  | request  | response | both     |
 * |---------|----------|----------|----------|
 * | neutral | neutral  | neutral  | neutral  |
 * | extend  | additive | additive | additive |
 * | loosen  | additive | breaking | breaking |
 * | tighten | breaking | breaking | breaking |
 * | both    | breaking | breaking | breaking |
 *
 * A request loosened still accepts every request clients send; a response loosened may send consumers what they were
 * not promised; tightening either rejects what clients send or what hosts already emit and logs hold. A shape without
 * a direction counts as `both`.
 */
import type { Effect } from './changes.ts';
import type { Direction } from './direction.ts';

export type Classification = 'additive' | 'breaking' | 'neutral';

export const CLASSIFICATION: Readonly<Record<Effect, Readonly<Record<Direction, Classification>>>> = {
  neutral: { request: 'neutral', response: 'neutral', both: 'neutral' },
  extend: { request: 'additive', response: 'additive', both: 'additive' },
  loosen: { request: 'additive', response: 'breaking', both: 'breaking' },
  tighten: { request: 'breaking', response: 'breaking', both: 'breaking' },
  both: { request: 'breaking', response: 'breaking', both: 'breaking' },
};

export const classify = (effect: Effect, direction: Direction | undefined): Classification => CLASSIFICATION[effect][direction ?? 'both'];

/** Why a change is breaking, in a few words, for the message that asks to acknowledge it. */
export function whyBreaking(effect: Effect, direction: Direction | undefined): string {
  if (effect === 'tighten') return direction === 'request' ? 'requests clients send today would be rejected' : 'instances that are valid today, as existing hosts send them and logs hold them, would be rejected';
  if (effect === 'loosen') return 'consumers could receive what the schema did not promise them';
  return 'instances valid today may be rejected and consumers may receive what they were not promised';
}
