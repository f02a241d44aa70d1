/**
 * Lifecycle diagrams: every `StateMachine` exported by a module of LIFECYCLE_MODULES, drawn from the same frozen
 * table the runtime moves through with `transition()`. To add one: declare it with `defineStateMachine` in a module
 * of its own and add that module below (a test lists every module of runtime/ that declares a lifecycle and checks
 * it is here).
 */
import type { StateMachine } from '../../../../runtime/shared/state-machine.ts';
import * as question from '../../../../runtime/inquirium/question-lifecycle.ts';
import * as commitment from '../../../../runtime/commitments/commitment-lifecycle.ts';
import * as schedule from '../../../../runtime/distillation/schedule-lifecycle.ts';
import * as proposal from '../../../../runtime/proposals/lifecycle.ts';
import type { Graph } from './graph.ts';

/** Repository path of each module whose exported lifecycle tables the site draws, with the module itself. */
export const LIFECYCLE_MODULES: readonly { readonly path: string; readonly exports: Readonly<Record<string, unknown>> }[] = [
  { path: 'runtime/inquirium/question-lifecycle.ts', exports: question },
  { path: 'runtime/commitments/commitment-lifecycle.ts', exports: commitment },
  { path: 'runtime/distillation/schedule-lifecycle.ts', exports: schedule },
  { path: 'runtime/proposals/lifecycle.ts', exports: proposal },
];

export function isStateMachine(v: unknown): v is StateMachine<string> {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Partial<StateMachine<string>>;
  return typeof m.id === 'string' && typeof m.title === 'string' && typeof m.initial === 'string' && Array.isArray(m.states) && Array.isArray(m.terminal) && Array.isArray(m.transitions);
}

/** Every lifecycle table the listed modules export, in list order then export order. */
export function lifecycleTables(modules: typeof LIFECYCLE_MODULES = LIFECYCLE_MODULES): { module: string; machine: StateMachine<string> }[] {
  return modules.flatMap(({ path, exports }) => Object.values(exports).filter(isStateMachine).map((machine) => ({ module: path, machine })));
}

/** A lifecycle table as a graph: one node per state (initial and terminal marked), one labelled edge per transition. */
export function stateMachineGraph(m: StateMachine<string>, module: string): Graph {
  return {
    id: m.id,
    title: m.title,
    source: `${m.source} · table: ${module}`,
    summary: `Starts in ${m.initial} (the dot); ${m.terminal.length === 1 ? `${m.terminal[0]} is final` : `${m.terminal.join(', ')} are final`} (double border). Each arrow is labelled with what causes the move; the runtime refuses any move that is not an arrow here.`,
    nodes: m.states.map((s) => ({ id: s, label: s, kind: 'state' as const, ...(s === m.initial ? { initial: true } : {}), ...(m.terminal.includes(s) ? { terminal: true } : {}) })),
    edges: m.transitions.map((t) => ({ from: t.from, to: t.to, label: t.on })),
    columns: ['From', 'To', 'On'],
  };
}
