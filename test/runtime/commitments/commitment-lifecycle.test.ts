import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMITMENT_LIFECYCLE } from '../../../runtime/commitments/commitment-lifecycle.ts';
import { lifecycleTests } from '../lifecycle-harness.ts';

const lifecycle = { module: fileURLToPath(new URL('../../../runtime/commitments/commitment-lifecycle.ts', import.meta.url)), exportName: 'COMMITMENT_LIFECYCLE' };
const load = async () => ({ ...(await import('../../../runtime/commitments/engine.ts')), ...(await import('../../../runtime/shared/clock.ts')), ...(await import('../../../runtime/memory/memory-ref.ts')) });
const REF = 'mem://tenant-a/agent-1';

/** Time and predicate commitments down every path: fired, held and released, cancelled while armed and while held. */
async function everyPath(m: Awaited<ReturnType<typeof load>>): Promise<void> {
  const clock = new m.ManualClock();
  const values = new Map<string, boolean>();
  const fired: string[] = [];
  const engine = new m.CommitmentEngine({
    clock,
    tenantOf: m.tenantOf,
    emit: (_type, payload) => void fired.push(`${payload.commitmentId}#${payload.conditionInstance}`),
    predicates: { evaluate: (id) => values.get(id) === true },
  });
  engine.arm({ commitmentId: 'due', memoryRef: REF, condition: { kind: 'time', at: clock.now() + 1000 }, enqueueRun: false });
  engine.arm({ commitmentId: 'later', memoryRef: REF, condition: { kind: 'time', at: clock.now() + 60_000 }, enqueueRun: false });
  engine.arm({ commitmentId: 'door', memoryRef: REF, condition: { kind: 'predicate', predicateId: 'door-open' }, enqueueRun: false });
  engine.arm({ commitmentId: 'alarm', memoryRef: REF, condition: { kind: 'predicate', predicateId: 'alarm' }, enqueueRun: false });
  await engine.tick();
  values.set('door-open', true).set('alarm', true);
  clock.advance(1000);
  await engine.tick(); // due fires; door and alarm turn true
  engine.cancel('later'); // armed → cancelled
  engine.cancel('alarm'); // held → cancelled
  values.set('door-open', false);
  await engine.tick(); // door released
  if (fired.join() !== 'due#time:1767225601000,door#predicate:1,alarm#predicate:1') throw new Error(`unexpected fires ${fired.join()}`);
}

describe('standing-commitment states (COMMITMENT_LIFECYCLE ↔ CommitmentEngine)', () => {
  lifecycleTests(COMMITMENT_LIFECYCLE, lifecycle, load, everyPath);
});
