import { describe, expect, it } from 'vitest';
import { canTransition, defineStateMachine, IllegalTransitionError, transition } from '../../../runtime/shared/state-machine.ts';

type S = 'open' | 'answered' | 'expired';
const m = defineStateMachine<S>({
  id: 'demo', title: 'Demo', source: 'test', states: ['open', 'answered', 'expired'], initial: 'open', terminal: ['answered', 'expired'],
  transitions: [{ from: 'open', to: 'answered', on: 'answer' }, { from: 'open', to: 'expired', on: 'deadline' }],
});

describe('state machine tables', () => {
  it('allows exactly the listed transitions', () => {
    expect(canTransition(m, 'open', 'answered')).toBe(true);
    expect(canTransition(m, 'answered', 'open')).toBe(false);
    expect(transition(m, 'open', 'expired')).toBe('expired');
  });
  it('refuses any other move with a 409 naming the machine and both states', () => {
    const err = (() => { try { transition(m, 'expired', 'answered'); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(IllegalTransitionError);
    expect((err as IllegalTransitionError).status).toBe(409);
    expect((err as IllegalTransitionError).toWire().details).toEqual({ machine: 'demo', from: 'expired', to: 'answered' });
  });
  it('rejects tables naming undeclared states or leaving a terminal state', () => {
    expect(() => defineStateMachine<S>({ ...m, states: ['open', 'answered'] })).toThrow(/undeclared states expired/);
    expect(() => defineStateMachine<S>({ ...m, transitions: [...m.transitions, { from: 'answered', to: 'open', on: 'reopen' }] })).toThrow(/terminal state answered/);
  });
  it('freezes the table', () => {
    expect(Object.isFrozen(m.transitions)).toBe(true);
    expect(Object.isFrozen(m.transitions[0])).toBe(true);
  });
});
