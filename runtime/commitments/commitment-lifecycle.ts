/**
 * Standing-commitment states (RFC 0068 §C) as data. The engine keeps no state field of its own — a commitment is
 * `armed` while it sits in the timer heap or the predicate index, `held` while its predicate was last seen true,
 * and leaves those structures when it fires (time) or is cancelled — but every such move goes through
 * `transition(COMMITMENT_LIFECYCLE, …)`, so the table below is what the engine can do and what the site draws.
 *
 * A predicate commitment fires once per false→true edge of its predicate (condition instance `predicate:<n>`) and
 * stays armed; a time commitment has one instance and ends when it fires.
 */
import { defineStateMachine } from '../shared/state-machine.ts';

export type CommitmentState = 'armed' | 'held' | 'fired' | 'cancelled';

export const COMMITMENT_LIFECYCLE = defineStateMachine<CommitmentState>({
  id: 'commitment-lifecycle',
  title: 'Standing-commitment states',
  source: 'RFC 0068 §C (standing commitments)',
  states: ['armed', 'held', 'fired', 'cancelled'],
  initial: 'armed',
  terminal: ['fired', 'cancelled'],
  transitions: [
    { from: 'armed', to: 'fired', on: 'time condition due: fires time:<at>' },
    { from: 'armed', to: 'held', on: 'predicate turns true: fires predicate:<n>' },
    { from: 'held', to: 'armed', on: 'predicate turns false' },
    { from: 'armed', to: 'cancelled', on: 'cancel' },
    { from: 'held', to: 'cancelled', on: 'cancel' },
  ],
});
