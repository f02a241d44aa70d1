import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { COMMITMENT_LIFECYCLE } from '../../../runtime/commitments/commitment-lifecycle.ts';
import { lifecycleTests } from '../lifecycle-harness.ts';

const lifecycle = { module: fileURLToPath(new URL('../../../runtime/commitments/commitment-lifecycle.ts', import.meta.url)), exportName: 'COMMITMENT_LIFECYCLE' };
const load = async () => ({
  ...(await import('../../../runtime/commitments/engine.ts')),
  ...(await import('../../../runtime/shared/clock.ts')),
  ...(await import('../../../runtime/memory/memory-ref.ts')),
  ...(await import('../../../runtime/storage/memory/index.ts')),
  ...(await import('../support.ts')),
  ...(await import('../../../runtime/storage/index.ts')),
});
const REF = 'mem://tenant-a/agent-1';

/** Time and predicate commitments down every path: fired, held and released, cancelled while armed and while held. */
async function everyPath(m: Awaited<ReturnType<typeof load>>): Promise<void> {
  const clock = new m.ManualClock();
  const port = await m.openMemoryStore();
  const fired: string[] = [];
  const engine = new m.CommitmentEngine({
    units: m.unitsOf(port),
    storeKind: port.kind,
    clock,
    tenantOf: m.tenantOf,
    emit: (_plan, payload) => void fired.push(`${payload.commitmentId}#${payload.conditionInstance}`),
  });
  await m.request(port, (plan) => {
    engine.arm(plan, { commitmentId: 'due', memoryRef: REF, condition: { kind: 'time', at: clock.now() + 1000 }, enqueueRun: false });
    engine.arm(plan, { commitmentId: 'later', memoryRef: REF, condition: { kind: 'time', at: clock.now() + 60_000 }, enqueueRun: false });
    engine.arm(plan, { commitmentId: 'door', memoryRef: REF, condition: { kind: 'predicate', predicateId: 'door-open' }, enqueueRun: false });
    engine.arm(plan, { commitmentId: 'alarm', memoryRef: REF, condition: { kind: 'predicate', predicateId: 'alarm' }, enqueueRun: false });
  });
  await engine.tick();
  await m.unitOfWork(port, (tx) => engine.setPredicate(tx, 'tenant-a', 'door-open', true));
  await m.unitOfWork(port, (tx) => engine.setPredicate(tx, 'tenant-a', 'alarm', true));
  clock.advance(1000);
  await engine.tick(); // due fires; door and alarm turn true
  await m.request(port, async (plan) => {
    await engine.cancel(plan, 'tenant-a', 'later'); // armed → cancelled
    await engine.cancel(plan, 'tenant-a', 'alarm'); // held → cancelled
  });
  await m.unitOfWork(port, (tx) => engine.setPredicate(tx, 'tenant-a', 'door-open', false));
  await engine.tick(); // door released
  const expected = ['due#time:1767225601000', 'alarm#predicate:1', 'door#predicate:1'];
  if (fired.join() !== expected.join()) throw new Error(`unexpected fires ${fired.join()}`);
  await port.close();
}

describe('standing-commitment states (COMMITMENT_LIFECYCLE ↔ CommitmentEngine)', () => {
  lifecycleTests(COMMITMENT_LIFECYCLE, lifecycle, load, everyPath);
});
