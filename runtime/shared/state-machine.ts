/**
 * A lifecycle as data: its states, where it starts, where it ends and every allowed transition with the event that
 * causes it. A runtime module that has a lifecycle (operator questions, commitments, proposals, distillation
 * schedules) declares it once with `defineStateMachine` and moves between states only through `transition`, so the
 * table is both what the runtime enforces and what the site draws: a diagram cannot drift from the code.
 */
import { WopkitError } from './errors.ts';

export interface Transition<S extends string> {
  readonly from: S;
  readonly to: S;
  /** What causes the move, in a few words (a route, an operation or a condition): the diagram's edge label. */
  readonly on: string;
}

export interface StateMachine<S extends string> {
  /** Stable id, used for the diagram's file name (`question-lifecycle`). */
  readonly id: string;
  /** Human title of the diagram. */
  readonly title: string;
  /** Where the rule comes from (RFC / spec section), shown under the diagram. */
  readonly source: string;
  readonly states: readonly S[];
  readonly initial: S;
  readonly terminal: readonly S[];
  readonly transitions: readonly Transition<S>[];
}

/** A move the lifecycle does not allow: a runtime bug or a refused request (409 on the wire). */
export class IllegalTransitionError extends WopkitError<'illegal_transition'> {
  constructor(readonly machine: string, readonly from: string, readonly to: string) {
    super('illegal_transition', `${machine}: no transition from '${from}' to '${to}'`, { error: 'conflict', message: `${machine}: '${from}' cannot move to '${to}'`, details: { machine, from, to } });
  }
}

/** Check a lifecycle table for internal consistency (every named state declared, terminals have no way out) and freeze it. */
export function defineStateMachine<S extends string>(m: StateMachine<S>): StateMachine<S> {
  const known = new Set<string>(m.states);
  const named = [m.initial, ...m.terminal, ...m.transitions.flatMap((t) => [t.from, t.to])];
  const unknown = named.filter((s) => !known.has(s));
  if (unknown.length > 0) throw new Error(`state machine ${m.id}: undeclared states ${[...new Set(unknown)].join(', ')}`);
  const leaving = m.transitions.filter((t) => m.terminal.includes(t.from));
  if (leaving.length > 0) throw new Error(`state machine ${m.id}: terminal state ${leaving[0]!.from} has a way out`);
  return Object.freeze({ ...m, states: Object.freeze([...m.states]), terminal: Object.freeze([...m.terminal]), transitions: Object.freeze(m.transitions.map((t) => Object.freeze({ ...t }))) });
}

/** Whether the lifecycle allows `from → to`. */
export function canTransition<S extends string>(m: StateMachine<S>, from: S, to: S): boolean {
  return m.transitions.some((t) => t.from === from && t.to === to);
}

/** `to` when the lifecycle allows `from → to`; throws IllegalTransitionError otherwise. */
export function transition<S extends string>(m: StateMachine<S>, from: S, to: S): S {
  if (!canTransition(m, from, to)) throw new IllegalTransitionError(m.id, from, to);
  return to;
}
