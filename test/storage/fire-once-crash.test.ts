/**
 * Fire-once across a crash between a commitment's claim and its announcement (RFC 0068 §C, issue 13): the claim
 * commits first, then the follow-up run and the `commitment.fired` event go through the write queue. A host killed
 * between the two left a claim without its event (a lost fire). The claim now stores the commitment, and the next
 * start announces every claim the logs do not show — once: a second restart announces nothing more.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../generated/ts/index.ts';
import { openwopDurability } from '../../runtime/openwop/durable.ts';
import { createOpenwopRuntime } from '../../runtime/openwop/index.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import type { CommitmentStore, RunStore, StoragePort } from '../../runtime/storage/port.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-fire-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const clock = { now: () => T0 };
const REF = 'mem://acme/fire-crash';

/**
 * The store as a process killed right after its fire claim committed sees it: the claim goes through, and every
 * event append after it fails (so the batch holding the follow-up run and the fired event never commits).
 */
function killedAfterClaim(port: StoragePort): StoragePort {
  let claimed = false;
  const commitments: CommitmentStore = new Proxy(port.commitments, {
    get: (target, key) => key === 'claimFire'
      ? async (...a: Parameters<CommitmentStore['claimFire']>) => {
        const won = await target.claimFire(...a);
        claimed ||= won;
        return won;
      }
      : Reflect.get(target, key, target),
  });
  const runs: RunStore = new Proxy(port.runs, {
    get: (target, key) => key === 'appendEvent'
      ? (...a: Parameters<RunStore['appendEvent']>) => (claimed ? Promise.reject(new Error('killed after the claim')) : target.appendEvent(...a))
      : Reflect.get(target, key, target),
  });
  return new Proxy(port, {
    get(target, key) {
      if (key === 'commitments') return commitments;
      if (key === 'runs') return runs;
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

async function boot(wrap: (port: StoragePort) => StoragePort = (p) => p) {
  const port = await openStore({ kind: 'sqlite', dataDir });
  const durability = openwopDurability(wrap(port));
  const rt = createOpenwopRuntime({ clock, persistence: durability.persistence });
  const report = await durability.attach(rt);
  return { port, rt, report, queue: durability.queue };
}

async function firedEvents(port: StoragePort): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for (const runId of await port.runs.eventRunIds()) out.push(...(await port.runs.readEvents(runId)).filter((e) => e.type === 'commitment.fired'));
  return out;
}

describe('a crash between the fire claim and its announcement', () => {
  it('loses no fire and fires nothing twice: the next start announces the claim once', async () => {
    // First life: arm a due time commitment that enqueues a run; the process "dies" right after the claim.
    const first = await boot(killedAfterClaim);
    const entry = first.rt.writer.put(REF, { content: 'remind me', tags: ['intent:remind', `at:${new Date(T0 - 1).toISOString()}`, 'action:run'] }, { tenant: 'acme' });
    const [commitment] = first.rt.commitments.inferFrom(REF, entry);
    await first.queue.flush();
    expect((await first.rt.commitments.tick()).map((o) => o.commitmentId)).toEqual([commitment!.commitmentId]);
    await expect(first.queue.flush()).rejects.toThrow('killed after the claim');
    await first.port.close();

    // What the kill left: the claim, with no event and no follow-up run.
    const left = await openStore({ kind: 'sqlite', dataDir });
    expect((await left.commitments.listFired()).map((f) => f.commitmentId)).toEqual([commitment!.commitmentId]);
    expect(await firedEvents(left)).toEqual([]);
    await left.close();

    // Second life: the claim is announced at start, with its follow-up run.
    const second = await boot();
    expect(second.report.announcedAtStart).toBe(1);
    expect(await second.rt.commitments.tick()).toEqual([]);
    await second.queue.flush();
    const [fired, ...more] = await firedEvents(second.port);
    expect(more).toEqual([]);
    expect(fired!.payload).toMatchObject({ commitmentId: commitment!.commitmentId, conditionInstance: `time:${T0 - 1}` });
    const runId = String(fired!.payload.enqueuedRunId);
    expect((await second.port.runs.runs()).map((r) => r.runId)).toContain(runId);
    expect((await second.port.runs.readEvents(runId)).map((e) => e.type)).toEqual(['run.started', 'commitment.fired']);
    await second.port.close();

    // Third life: nothing left to announce, nothing fires again.
    const third = await boot();
    expect(third.report.announcedAtStart).toBe(0);
    expect(await third.rt.commitments.tick()).toEqual([]);
    await third.queue.flush();
    expect(await firedEvents(third.port)).toHaveLength(1);
    await third.port.close();
  });
});
