/**
 * Issue 32: one unit of work per request. The request boundary (route-helpers.ts `serve`) opens ONE unit per request,
 * hands it to the handler as `tx` and commits it once after the handler returned: everything a request plans reaches
 * the store in one commit, a request that fails writes nothing, and an answer made with `afterCommit` is computed once
 * the writes are durable. On the host, a request that runs several operations (a fork: check the run, fork it)
 * commits once.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { afterCommit, serve } from '../../runtime/host/route-helpers.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { openMemoryStore, unitsOf, type StoragePort } from '../../runtime/storage/index.ts';
import type { WritePlan } from '../../runtime/storage/port.ts';
import { inUnit } from '../support/in-unit.ts';

const TOKEN = 'request-unit-token-0123456789abcdef';

/** A store whose commits (of at least one operation) are recorded, and the units opened on it counted. */
async function watchedStore() {
  const store = await openMemoryStore();
  const commits: WritePlan[] = [];
  const commit = store.commit.bind(store);
  const watched: Pick<StoragePort, 'commit'> = store;
  watched.commit = (plan: WritePlan) => {
    commits.push(plan);
    return commit(plan);
  };
  return { store, commits };
}

/** A bare app whose route `handler` is served by `serve`, inputs let through, the opener counting its units. */
async function appWith(store: StoragePort, handler: Parameters<typeof serve>[2]): Promise<{ app: FastifyInstance; units: () => number }> {
  const app = Fastify({ logger: false });
  let opened = 0;
  const units = unitsOf(store);
  app.decorate('units', ((work, options) => {
    opened++;
    return units(work, options);
  }) satisfies typeof units);
  app.setValidatorCompiler(() => (data: unknown) => ({ value: data }));
  serve(app, ROUTES.agents, handler);
  await app.ready();
  return { app, units: () => opened };
}

describe('one unit of work per request (route-helpers.ts serve)', () => {
  it('a request that plans several writes opens one unit and commits them in one commit', async () => {
    const { store, commits } = await watchedStore();
    const { app, units } = await appWith(store, (_req, _reply, tx) => {
      tx.add('meta.set', { key: 'fixtures.test-a', value: '1' });
      tx.add('meta.set', { key: 'fixtures.test-b', value: '2' });
      return { agents: [], total: 0 };
    });
    const r = await app.inject({ method: 'GET', url: ROUTES.agents.path });
    expect(r.statusCode, r.body).toBe(200);
    expect(units()).toBe(1);
    expect(commits.map((plan) => plan.map((op) => op.op))).toEqual([['meta.set', 'meta.set']]);
    expect(await inUnit(store, async (tx) => [await tx.read.metaValue('fixtures.test-a'), await tx.read.metaValue('fixtures.test-b')])).toEqual(['1', '2']);
    await app.close();
  });

  it('a request that fails after planning writes commits nothing', async () => {
    const { store, commits } = await watchedStore();
    const { app } = await appWith(store, (_req, _reply, tx) => {
      tx.add('meta.set', { key: 'fixtures.test-a', value: '1' });
      throw new Error('refused after planning');
    });
    expect((await app.inject({ method: 'GET', url: ROUTES.agents.path })).statusCode).toBe(500);
    expect(commits).toEqual([]);
    expect(await inUnit(store, (tx) => tx.read.metaValue('fixtures.test-a'))).toBeUndefined();
    await app.close();
  });

  it('an afterCommit answer is computed once the unit committed (a planned result is readable then, not before)', async () => {
    const { store } = await watchedStore();
    let readEarly: unknown;
    const { app } = await appWith(store, (_req, _reply, tx) => {
      const pending = tx.add('meta.set', { key: 'fixtures.test-a', value: '1' });
      try {
        void pending.value;
      } catch (err) {
        readEarly = err;
      }
      return afterCommit(() => ({ agents: [], total: 0, committed: pending.value !== undefined }));
    });
    const r = await app.inject({ method: 'GET', url: ROUTES.agents.path });
    expect(r.json()).toEqual({ agents: [], total: 0, committed: true });
    expect(readEarly).toBeInstanceOf(Error);
    await app.close();
  });

  it('on the host, a fork request (check the source run, fork it) commits once', async () => {
    const { store, commits } = await watchedStore();
    const host = await createHost({ token: TOKEN, storage: store, logger: false });
    const run = await inUnit(store, (tx) => host.runtime.startRun(tx, { workflowId: 'w', memoryRef: 'mem://acme/fork' }));
    await inUnit(store, (tx) => host.runtime.write(tx, 'mem://acme/fork', { content: 'before the fork' }, { tenant: 'acme', runId: run.runId }));
    commits.length = 0;
    const r = await host.app.inject({ method: 'POST', url: targetOf(ROUTES.runFork, { params: { runId: run.runId } }), headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, payload: JSON.stringify({ fromSeq: 1 }) });
    expect(r.statusCode, r.body).toBe(ROUTES.runFork.status ?? 200);
    expect(commits).toHaveLength(1);
    await host.app.close();
  });
});
