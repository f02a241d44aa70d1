/**
 * No process-local cache of store data (issue 32): two runtimes on one store — two hosts of one SQLite data directory
 * (one port, as one process per directory serves it) and two hosts of one PostgreSQL database (two ports, two pools)
 * — and, for every read view, a write committed through one is what the other answers at once: runs, run events,
 * memory entries, commitments, distillation schedules, operator questions, proposals and SR-1 secret registries. Each
 * view is read by the second host before the write too, so a host that kept what it read the first time fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInquiriumRuntime, type InquiriumRuntime } from '../../runtime/inquirium/index.ts';
import type { OpenwopRuntime } from '../../runtime/openwop/index.ts';
import { SecretKeyRing } from '../../runtime/redaction/sealing.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { unitOfWork, type StoragePort, type Tx } from '../../runtime/storage/index.ts';
import { answer, question } from '../runtime/inquirium/questions.ts';
import { questionRequests } from '../runtime/inquirium/question-requests.ts';
import { BACKENDS, type TwoHosts } from '../runtime/inquirium/two-hosts.ts';
import { actor, request as proposalRequest } from '../runtime/proposals/setup.ts';
import { openRuntime, put, registerSecrets, storedEntries } from '../runtime/support.ts';

interface Host {
  readonly rt: OpenwopRuntime;
  readonly inq: InquiriumRuntime;
  /** One request on this host: a unit of work on its own port. */
  read<T>(f: (tx: Tx) => Promise<T> | T): Promise<T>;
}

const TENANT = 'acme';
const REF = `mem://${TENANT}/no-cache`;
const policy = { displayCeiling: 'community' as const, secrets: [] };

for (const backend of BACKENDS.filter((b) => b.name !== 'in-memory')) {
  describe.skipIf(backend.skip)(`no process-local cache of store data (${backend.name}: a write through one host, read through another)`, () => {
    let hosts: TwoHosts;
    let a: Host;
    let b: Host;
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    // Hosts that share a store share its keys (a registry sealed by one is opened by the other).
    const secretKeys = SecretKeyRing.ephemeral();
    const host = async (port: StoragePort): Promise<Host> => {
      const { rt } = await openRuntime({ port, clock, secretKeys });
      const inq = createInquiriumRuntime({ port, clock, questionPolicy: policy });
      return { rt, inq, read: (f) => unitOfWork(port, f) };
    };
    beforeAll(async () => {
      hosts = await backend.open('nocache');
      [a, b] = [await host(hosts.a), await host(hosts.b)];
    });
    afterAll(() => hosts?.done());

    it('runs and run events', async () => {
      const run = await a.read((tx) => a.rt.startRun(tx, { workflowId: 'wf', memoryRef: REF }));
      expect(await b.read((tx) => b.rt.runs.get(tx, run.runId))).toEqual(run);
      const before = await b.read((tx) => b.rt.log.read(tx, run.runId));
      expect(before.events.map((e) => e.type)).toEqual(['run.started']);
      await a.read((tx) => void a.rt.log.append(tx, run.runId, { type: 'run.completed', payload: {} }));
      expect((await b.read((tx) => b.rt.log.read(tx, run.runId))).events.map((e) => e.type)).toEqual(['run.started', 'run.completed']);
      expect(await b.read((tx) => b.rt.runs.row(tx, run.runId))).toMatchObject({ status: 'running' });
      await a.read((tx) => a.rt.runs.update(tx, { runId: run.runId, tenant: TENANT, kind: 'run' }, { status: 'completed', ended: true }));
      expect(await b.read((tx) => b.rt.runs.row(tx, run.runId))).toMatchObject({ status: 'completed', endedMs: clock.now() });
    });

    it('memory entries (written, then deleted)', async () => {
      const view = (h: Host) => h.read((tx) => h.rt.adapterFor(tx, TENANT).list(REF));
      expect((await view(b)).map((e) => e.id)).not.toContain('m-cache');
      const entry = await put(a.rt, REF, { id: 'm-cache', content: 'first' }, { tenant: TENANT });
      expect(await b.read((tx) => b.rt.adapterFor(tx, TENANT).get(REF, 'm-cache'))).toEqual(entry);
      await put(a.rt, REF, { id: 'm-cache', content: 'second' }, { tenant: TENANT });
      expect((await b.read((tx) => b.rt.adapterFor(tx, TENANT).get(REF, 'm-cache')))?.content).toBe('second');
      await a.read((tx) => a.rt.writer.delete(tx, REF, 'm-cache', { tenant: TENANT }));
      expect(await b.read((tx) => b.rt.adapterFor(tx, TENANT).get(REF, 'm-cache'))).toBeNull();
      expect((await view(b)).map((e) => e.id)).not.toContain('m-cache');
    });

    it('commitments: armed on one host, fired by the other, the fire seen by the first', async () => {
      expect(await b.rt.commitments.tick()).toEqual([]);
      const due = new Date(clock.now() + 1000).toISOString();
      const [c] = await a.read((tx) => a.rt.commitments.inferFrom(tx, REF, { id: 'intent-1', content: 'remind me', tags: ['intent:remind', `at:${due}`] }));
      expect(await a.read((tx) => a.rt.commitments.fires(tx, TENANT, c!.commitmentId))).toEqual([]);
      clock.advance(2000);
      const fired = await b.rt.commitments.tick();
      expect(fired.map((f) => f.commitmentId)).toContain(c!.commitmentId);
      expect((await a.read((tx) => a.rt.commitments.fires(tx, TENANT, c!.commitmentId))).map((f) => f.commitmentId)).toEqual([c!.commitmentId]);
      // Fired once: the first host's tick finds nothing left to fire.
      expect((await a.rt.commitments.tick()).map((f) => f.commitmentId)).not.toContain(c!.commitmentId);
    });

    it('distillation schedules (registered, then cancelled)', async () => {
      const s = await a.read((tx) => a.rt.distillationScheduler!.schedule(tx, { memoryRef: REF, every: 'PT1H' }));
      expect(await b.read((tx) => b.rt.distillationScheduler!.get(tx, s.scheduleId))).toEqual(s);
      expect(await a.read((tx) => a.rt.distillationScheduler!.cancel(tx, TENANT, s.scheduleId))).toBe(true);
      expect(await b.read((tx) => b.rt.distillationScheduler!.get(tx, s.scheduleId))).toBeUndefined();
    });

    it('operator questions (proposed, then answered)', async () => {
      const ref = `question/no-cache/${backend.name}`;
      const qa = questionRequests(a.inq.questions, hosts.a).forTenant(TENANT);
      const qb = questionRequests(b.inq.questions, hosts.b).forTenant(TENANT);
      await expect(qb.state(ref)).rejects.toMatchObject({ code: 'question-unknown' });
      await qa.propose(question({ 'question/ref': ref }));
      expect(await qb.state(ref)).toMatchObject({ state: 'pending' });
      await qa.answer({ ...answer('yes'), 'question/ref': ref });
      expect(await qb.state(ref)).toMatchObject({ state: 'answered', answer: 'yes' });
      expect((await qb.history(ref)).map((s) => s.state)).toEqual(['pending', 'answered']);
    });

    it('proposals (synthesised, then rejected)', async () => {
      const before = await b.read((tx) => b.rt.proposals.list(tx, TENANT));
      const { proposal } = await a.read((tx) => a.rt.proposals.synthesize(tx, proposalRequest()));
      expect(await b.read((tx) => b.rt.proposals.get(tx, actor(), proposal.id))).toEqual(proposal);
      expect((await b.read((tx) => b.rt.proposals.list(tx, TENANT))).map((p) => p.id)).toEqual([...before.map((p) => p.id), proposal.id]);
      await a.read((tx) => a.rt.proposals.reject(tx, actor(), proposal.id));
      expect((await b.read((tx) => b.rt.proposals.get(tx, actor(), proposal.id))).state).toBe('rejected');
    });

    it('SR-1 secret registries: a secret registered on one host is redacted from the other host\'s next write', async () => {
      const SECRET = `sk-live-NOCACHE-${backend.name}-0123456789`;
      // The second host has read the tenant's registries already (a write of its own).
      await put(b.rt, REF, { id: 'before-secret', content: 'nothing secret' }, { tenant: TENANT });
      await registerSecrets(a.rt, TENANT, 'run-secret', { 'byok-nocache': SECRET });
      await put(b.rt, REF, { id: 'after-secret', content: `the key is ${SECRET}` }, { tenant: TENANT });
      const stored = (await storedEntries(hosts.a, REF)).find((e) => e.id === 'after-secret')!;
      expect(stored.content).not.toContain(SECRET);
      expect(stored.content).toContain('[REDACTED:byok-nocache]');
    });
  });
}
