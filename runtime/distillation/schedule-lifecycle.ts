/**
 * The life of a distillation schedule ("dreams", RFC 0062) as data: registered `scheduled`, `running` once a due
 * instant is taken in the ledger, one of the four run outcomes when the distiller returns or refuses, then back to
 * `scheduled` at its next instant — no outcome stops a schedule; only `cancel` ends it. `DistillationScheduler`
 * moves a schedule only through `transition(SCHEDULE_LIFECYCLE, …)`, and the site draws this same table.
 */
import { defineStateMachine } from '../shared/state-machine.ts';

/** The outcomes a run can end in (`ScheduledRunOutcome['kind']`). */
export type ScheduleRunOutcomeKind = 'distilled' | 'nothing-to-distil' | 'budget-exceeded' | 'failed';
export type ScheduleState = 'scheduled' | 'running' | ScheduleRunOutcomeKind | 'cancelled';

const OUTCOMES: readonly { readonly kind: ScheduleRunOutcomeKind; readonly on: string }[] = [
  { kind: 'distilled', on: 'archive written' },
  { kind: 'nothing-to-distil', on: 'no transactional sources' },
  { kind: 'budget-exceeded', on: 'token budget refused (nothing written)' },
  { kind: 'failed', on: 'any other refusal (nothing written)' },
];

export const SCHEDULE_LIFECYCLE = defineStateMachine<ScheduleState>({
  id: 'distillation-schedule',
  title: 'Distillation schedule',
  source: 'RFC 0062 (scheduled distillation, as the agent-memory spec restates it)',
  states: ['scheduled', 'running', ...OUTCOMES.map((o) => o.kind), 'cancelled'],
  initial: 'scheduled',
  terminal: ['cancelled'],
  transitions: [
    { from: 'scheduled', to: 'running', on: 'instant due, taken in the ledger' },
    ...OUTCOMES.map((o) => ({ from: 'running' as const, to: o.kind, on: o.on })),
    ...OUTCOMES.map((o) => ({ from: o.kind, to: 'scheduled' as const, on: 're-armed at the next instant' })),
    { from: 'scheduled', to: 'cancelled', on: 'cancel' },
  ],
});
