/// <reference types="vite/client" />
/**
 * Lifecycle diagrams: every `StateMachine` exported by a module of LIFECYCLE_MODULES, drawn from the same frozen
 * table the runtime moves through with `transition()`. A module listed here that does not exist (yet) is skipped,
 * so a lifecycle appears as soon as its file does. To add one: add its path below.
 */
import type { StateMachine } from '../../../../runtime/shared/state-machine.ts';
import type { Graph } from './graph.ts';

/** Repository paths of the modules whose exported lifecycle tables the site draws. */
export const LIFECYCLE_MODULES: readonly string[] = [
  'runtime/inquirium/question-lifecycle.ts',
  'runtime/commitments/commitment-lifecycle.ts',
  'runtime/distillation/schedule-lifecycle.ts',
  'runtime/proposals/lifecycle.ts',
  'runtime/host/cluster/member-lifecycle.ts',
];

/**
 * What the build finds on disk: Vite's glob returns only the files that exist. The patterns must be literals, so
 * they repeat LIFECYCLE_MODULES (a test holds the two lists equal).
 */
const found = import.meta.glob<Record<string, unknown>>(
  [
    '../../../../runtime/inquirium/question-lifecycle.ts',
    '../../../../runtime/commitments/commitment-lifecycle.ts',
    '../../../../runtime/distillation/schedule-lifecycle.ts',
    '../../../../runtime/proposals/lifecycle.ts',
    '../../../../runtime/host/cluster/member-lifecycle.ts',
  ],
  { eager: true },
);

/** The glob patterns above as repository paths (for the test that keeps them equal to LIFECYCLE_MODULES). */
export const GLOBBED_MODULES_FOUND: readonly string[] = Object.keys(found).map((k) => k.replace(/^(\.\.\/)+/, ''));

export function isStateMachine(v: unknown): v is StateMachine<string> {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Partial<StateMachine<string>>;
  return typeof m.id === 'string' && typeof m.title === 'string' && typeof m.initial === 'string' && Array.isArray(m.states) && Array.isArray(m.terminal) && Array.isArray(m.transitions);
}

/** Every lifecycle table the listed modules export, in list order then export order. */
export function lifecycleTables(modules: Readonly<Record<string, Record<string, unknown>>> = found): { module: string; machine: StateMachine<string> }[] {
  const byPath = new Map(Object.entries(modules).map(([k, m]) => [k.replace(/^(\.\.\/)+/, ''), m]));
  return LIFECYCLE_MODULES.flatMap((path) => Object.values(byPath.get(path) ?? {}).filter(isStateMachine).map((machine) => ({ module: path, machine })));
}

/** A lifecycle table as a graph: one node per state (initial and terminal marked), one edge per transition. */
export function stateMachineGraph(m: StateMachine<string>, module: string): Graph {
  return {
    id: m.id,
    title: m.title,
    source: `${m.source} · table: ${module}`,
    summary: `Starts in ${m.initial} (the dot); ${m.terminal.length === 1 ? `${m.terminal[0]} is final` : `${m.terminal.join(', ')} are final`} (double border). The runtime refuses any move that is not an edge here.`,
    direction: 'TB',
    nodes: m.states.map((s) => ({ id: s, label: s, kind: 'state' as const, ...(s === m.initial ? { initial: true } : {}), ...(m.terminal.includes(s) ? { terminal: true } : {}) })),
    edges: m.transitions.map((t) => ({ from: t.from, to: t.to, label: t.on })),
    columns: ['From', 'To', 'On'],
  };
}
