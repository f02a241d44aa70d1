/**
 * Issue 12 item 1 (CTI-1 breach through a fork): seed `mem://victimx/private` for tenant victimx; a run of another
 * tenant reads `[]` for that ref; its fork must read `[]` too — at library level (the OpenWOP runtime's fork view)
 * and over HTTP (seed seam, replay-fixture run, `:fork`, `GET /v1/runs/{fork}/memory?memoryRef=…`).
 */
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { library } from './library.ts';
import { unitOfWork } from '../../runtime/storage/index.ts';

const VICTIM_REF = 'mem://victimx/private';
const SECRET_PLAN = 'victimx private plan CANARY-item1';
const OPERATOR = 'tenancy-test-operator-key-0123456789';

describe('item 1: a fork never reads another tenant\'s memory (library)', () => {
  it('the fork of a run of tenant conformance reads [] / null for a victimx ref, as its source run does', async () => {
    const { rt, port, request } = await library();
    const entry = (await request((plan) => rt.writer.put(plan, VICTIM_REF, { content: SECRET_PLAN }, { tenant: 'victimx' }))).entry;
    const run = await request((plan) => rt.startRun(plan, { workflowId: 'w', memoryRef: 'mem://conformance/replay-1' }));
    await request((plan) => rt.writer.put(plan, 'mem://conformance/replay-1', { id: 'k', content: 'v1' }, { tenant: 'conformance', runId: run.runId }));
    const fromSeq = (await unitOfWork(rt.port, (tx) => rt.runs.row(tx, run.runId)))!.nextSeq - 1;
    await request((plan) => rt.writer.put(plan, 'mem://conformance/replay-1', { id: 'k', content: 'v2' }, { tenant: 'conformance', runId: run.runId }));
    // Positive control: the victim's own adapter sees the entry.
    expect((await unitOfWork(rt.port, (tx) => rt.adapterFor(tx, 'victimx').list(VICTIM_REF))).map((e) => e.content)).toEqual([SECRET_PLAN]);
    expect(await (await unitOfWork(rt.port, (tx) => rt.memoryOfRun(tx, run.runId)))!.list(VICTIM_REF)).toEqual([]);
    const fork = await request((plan) => rt.fork(plan, run.runId, fromSeq));
    expect(fork.tenant).toBe('conformance');
    const view = (await unitOfWork(rt.port, (tx) => rt.memoryOfRun(tx, fork.runId)))!;
    // Positive control: the fork reads its own tenant's snapshot (v1, not the current v2).
    expect((await view.get('mem://conformance/replay-1', 'k'))?.content).toBe('v1');
    expect(await view.list(VICTIM_REF)).toEqual([]);
    expect(await view.get(VICTIM_REF, entry.id)).toBeNull();
    await port.close();
  });
});

describe('item 1: a fork never reads another tenant\'s memory (HTTP)', () => {
  const call = async (app: FastifyInstance, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${OPERATOR}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
    return { status: res.statusCode, body: res.json() as Record<string, unknown>, text: res.body };
  };

  it('seed victimx, replay-fixture run (tenant conformance), fork it: the fork reads [] for the victim ref', async () => {
    const { app } = await createHost({ token: OPERATOR });
    try {
      const seeded = await call(app, 'POST', ROUTES.memorySeed.path, { memoryRef: VICTIM_REF, entries: [{ content: SECRET_PLAN }] });
      expect(seeded.status).toBe(200);
      const victimId = (seeded.body.entries as { id: string }[])[0]!.id;
      const fixture = await call(app, 'POST', ROUTES.replayFixture.path, {});
      expect(fixture.status).toBe(200);
      const runId = fixture.body.runId as string;
      const read = (run: string, query: Record<string, string>) => call(app, 'GET', targetOf(ROUTES.runMemory, { params: { runId: run }, query }));
      // The source run reads nothing of the victim (CTI-1), by list and by id.
      expect((await read(runId, { memoryRef: VICTIM_REF })).body).toEqual({ entries: [] });
      expect((await read(runId, { memoryRef: VICTIM_REF, id: victimId })).status).toBe(404);
      const forked = await call(app, 'POST', targetOf(ROUTES.runFork, { params: { runId } }), { fromSeq: fixture.body.fromSeq });
      expect(forked.status).toBe(201);
      const forkId = forked.body.runId as string;
      // Positive control: the fork reads its own snapshot (v1, not the current v2).
      expect((await read(forkId, { memoryRef: fixture.body.memoryRef as string, id: 'k' })).body).toMatchObject({ content: 'v1' });
      const list = await read(forkId, { memoryRef: VICTIM_REF });
      expect(list.body).toEqual({ entries: [] });
      expect(list.text).not.toContain('CANARY-item1');
      const byId = await read(forkId, { memoryRef: VICTIM_REF, id: victimId });
      expect(byId.status).toBe(404);
      expect(byId.text).not.toContain('CANARY-item1');
    } finally {
      await app.close();
    }
  });
});
