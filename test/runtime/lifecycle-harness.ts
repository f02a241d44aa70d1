/**
 * Ties a lifecycle table to the runtime that enforces it. `runWith` loads fresh copies of the runtime modules a
 * flow needs, with every `transition()` the runtime performs recorded and, optionally, one edge taken out of the
 * table, then runs the flow. A lifecycle test then checks both ways: the flow (which drives every path the module
 * has) performs exactly the table's edges, and taking any edge out makes the runtime refuse that move.
 */
import { fileURLToPath } from 'node:url';
import { expect, it, vi } from 'vitest';
import type { StateMachine } from '../../runtime/shared/state-machine.ts';

type StateMachineModule = typeof import('../../runtime/shared/state-machine.ts');
const STATE_MACHINE = fileURLToPath(new URL('../../runtime/shared/state-machine.ts', import.meta.url));

export interface LifecycleUnderTest {
  /** Absolute path of the module that exports the table. */
  readonly module: string;
  /** The export holding the table. */
  readonly exportName: string;
}

export const edgeKey = (t: { readonly from: string; readonly to: string }): string => `${t.from} → ${t.to}`;

/** The table's edges as `from → to` keys, sorted. */
export const tableEdges = (m: StateMachine<string>): string[] => [...new Set(m.transitions.map(edgeKey))].sort();

/**
 * Load `load()` fresh (its modules re-evaluated) with transitions of `lifecycle` recorded and, when `without` is
 * given, that edge missing from the table; run `flow` on what was loaded. Returns the moves performed (sorted,
 * unique) and what the flow threw, if anything.
 */
export async function runWith<T>(
  lifecycle: LifecycleUnderTest,
  load: () => Promise<T>,
  flow: (loaded: T) => unknown,
  without?: { readonly from: string; readonly to: string },
): Promise<{ performed: string[]; error: unknown }> {
  vi.resetModules();
  const performed = new Set<string>();
  vi.doMock(STATE_MACHINE, async (importOriginal) => {
    const original = await importOriginal<StateMachineModule>();
    const transition: StateMachineModule['transition'] = (m, from, to) => {
      const next = original.transition(m, from, to);
      performed.add(edgeKey({ from, to }));
      return next;
    };
    return { ...original, transition };
  });
  if (without !== undefined) {
    vi.doMock(lifecycle.module, async (importOriginal) => {
      const original = await importOriginal<Record<string, StateMachine<string>>>();
      const table = original[lifecycle.exportName]!;
      return { ...original, [lifecycle.exportName]: { ...table, transitions: table.transitions.filter((t) => edgeKey(t) !== edgeKey(without)) } };
    });
  }
  let error: unknown;
  try {
    await flow(await load());
  } catch (e) {
    error = e;
  } finally {
    vi.doUnmock(STATE_MACHINE);
    vi.doUnmock(lifecycle.module);
    vi.resetModules();
  }
  return { performed: [...performed].sort(), error };
}

/** The error code of a refusal (`illegal_transition`, or a module's own code such as `question-terminal`). */
export const codeOf = (e: unknown): string | undefined => (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined);

/**
 * The two tests every lifecycle gets: `flow` (driving the runtime down every path) performs exactly the table's
 * edges; and for each edge, the runtime loaded without it refuses that move with one of `refusals` (error codes).
 */
export function lifecycleTests<T>(table: StateMachine<string>, lifecycle: LifecycleUnderTest, load: () => Promise<T>, flow: (loaded: T) => unknown, refusals: readonly string[] = ['illegal_transition']): void {
  it('every move the runtime makes is an edge of the table, and every edge is a move it makes', async () => {
    const { performed, error } = await runWith(lifecycle, load, flow);
    expect(error).toBeUndefined();
    expect(performed).toEqual(tableEdges(table));
  });

  it.each(table.transitions.map((t) => [edgeKey(t), t] as const))('without %s in the table the runtime refuses that move', async (key, t) => {
    const { performed, error } = await runWith(lifecycle, load, flow, t);
    expect(refusals).toContain(codeOf(error));
    expect(performed).not.toContain(key);
  });
}
