/**
 * Issue 22 §5: every resource a tenant key can make the store keep has a bound the key cannot lift, and the counts
 * live in the store. Past a refusing bound the request is 429 `quota_exceeded {resource, limit}` and leaves nothing
 * — checked here by counting the tenant's rows in every table, not by asking the runtime — and what is completed is
 * retired by a retention rule, freeing its place:
 * - forks per tenant (a tenant that forks 20,000 times is refused at its bound and its rows stop growing; forks
 *   nobody took up retire after liveRunRetentionMs);
 * - events per run; entries per memoryRef (expired ones count until purged; a seed whose second entry is refused
 *   leaves no entry and no event); stored bytes per tenant;
 * - armed commitments; follow-up runs (past the bound a due commitment waits, armed, and fires once later);
 *   proposals; ended runs (the oldest retired).
 * Each bound is per tenant: another tenant is never refused for it.
 */
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../generated/ts/index.ts';
import { validateErrorEnvelope } from '../../generated/validators/validators.js';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { DEFAULT_LIMITS } from '../../runtime/host/limits.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { createHost, type Host } from '../../runtime/host/server.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { QuotaExceededError } from '../../runtime/shared/quota.ts';
import { tenantRowCounts, total, type RowCounts } from './store-rows.ts';
import { inUnit } from '../support/in-unit.ts';

const TOKEN = 'bounds-test-token-0123456789abcdef';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

interface Answer {
  readonly status: number;
  readonly body: { error?: string; details?: Record<string, unknown> } & Record<string, unknown>;
}
const post = async (host: Host, url: string, body: unknown, headers: Record<string, string> = H): Promise<Answer> => {
  const r = await host.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
  return { status: r.statusCode, body: r.json() };
};
const seed = (host: Host, memoryRef: string, entries: readonly Record<string, unknown>[], runId?: string) =>
  post(host, ROUTES.memorySeed.path, { memoryRef, entries, ...(runId !== undefined ? { runId } : {}) });

const expectQuota = (r: Answer, resource: string, limit: number) => {
  expect(r.status, JSON.stringify(r.body)).toBe(429);
  expect(validateErrorEnvelope(r.body)).toBe(true);
  expect(r.body).toMatchObject({ error: 'quota_exceeded', details: { resource, limit } });
};

/** Run `f` and check it left the tenant's rows exactly as they were. */
async function leavesNothing<T>(host: Host, tenant: string, f: () => Promise<T>): Promise<T> {
  const before = await tenantRowCounts(host.store, tenant);
  const out = await f();
  expect(await tenantRowCounts(host.store, tenant), `${tenant}'s rows after a refused request`).toEqual(before);
  return out;
}

/** Run the host's background work until a pass does nothing. */
async function settle(host: Host): Promise<void> {
  for (let i = 0; i < 100; i++) if (Object.keys((await host.background.runOnce()).report).length === 0) return;
  throw new Error('the background work did not settle');
}

/** A run of `tenant` with one memory write in its log (so it can be forked at sequence 1). */
async function sourceRun(host: Host, tenant: string): Promise<string> {
  const run = await inUnit(host.store, (tx) => host.runtime.startRun(tx, { workflowId: 'bounds', memoryRef: `mem://${tenant}/source` }));
  await inUnit(host.store, (tx) => host.runtime.write(tx, `mem://${tenant}/source`, { content: 'before the fork' }, { tenant, runId: run.runId })).then((p) => p.value);
  return run.runId;
}
const fork = (host: Host, runId: string) => post(host, targetOf(ROUTES.runFork, { params: { runId } }), { fromSeq: 1 });

describe('forks per tenant', () => {
  it('a tenant that forks 20,000 times gets 429 at its bound, and its row counts stop growing; another tenant still forks; forks nobody took up retire and free their places', async () => {
    const clock = new ManualClock(Date.now());
    // The journal is kept longer than a fork lives, so the source can be forked again once its forks retired.
    const host = await createHost({ token: TOKEN, logger: false, clock, limits: { snapshotRetentionMs: 7 * DEFAULT_LIMITS.liveRunRetentionMs } });
    const bound = DEFAULT_LIMITS.forksPerTenant;
    const acme = await sourceRun(host, 'acme');
    const statuses = new Map<number, number>();
    let atBound: RowCounts | undefined;
    let refusal: Answer | undefined;
    for (let done = 0; done < 20_000; done += 25) {
      const batch = await Promise.all(Array.from({ length: 25 }, () => fork(host, acme)));
      for (const r of batch) {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 429) refusal ??= r;
      }
      if (atBound === undefined && (statuses.get(201) ?? 0) >= bound) atBound = await tenantRowCounts(host.store, 'acme');
    }
    expect(Object.fromEntries(statuses)).toEqual({ 201: bound, 429: 20_000 - bound });
    expectQuota(refusal!, 'forks', bound);
    expect(atBound!.runs).toBe(bound + 1);
    expect(await tenantRowCounts(host.store, 'acme'), 'the tenant\'s rows stop growing at its bound').toEqual(atBound);

    // The bound is acme's: globex forks.
    expect((await fork(host, await sourceRun(host, 'globex'))).status).toBe(201);

    // Retention: a fork nobody took up ends after liveRunRetentionMs; its place is free again.
    clock.advance(DEFAULT_LIMITS.liveRunRetentionMs + 1);
    await settle(host);
    const retired = await tenantRowCounts(host.store, 'acme');
    expect(retired.runs).toBe(1);
    expect((await fork(host, acme)).status).toBe(201);
    await host.app.close();
  }, 180_000);
});

describe('events per run', () => {
  it('past eventsPerRun a write in the run is 429 and leaves nothing; the run\'s log holds exactly the bound; another run writes on', async () => {
    const host = await createHost({ token: TOKEN, logger: false, limits: { eventsPerRun: 16 } });
    const run = await inUnit(host.store, (tx) => host.runtime.startRun(tx, { workflowId: 'bounds', memoryRef: 'mem://acme/events' }));
    let last: Answer | undefined;
    for (let i = 0; i < 40 && last?.status !== 429; i++) last = await seed(host, 'mem://acme/events', [{ content: `write ${i}` }], run.runId);
    expectQuota(last!, 'events-per-run', 16);
    await leavesNothing(host, 'acme', async () => expectQuota(await seed(host, 'mem://acme/events', [{ content: 'one more' }], run.runId), 'events-per-run', 16));
    const log = (await host.app.inject({ method: 'GET', headers: H, url: targetOf(ROUTES.runEvents, { params: { runId: run.runId } }) })).json<{ events: unknown[] }>();
    expect(log.events).toHaveLength(16);
    expect((await seed(host, 'mem://acme/events', [{ content: 'in another run' }])).status).toBe(200);
    await host.app.close();
  });
});

describe('memory entries per memoryRef and bytes per tenant', () => {
  it('a seed whose second entry passes the bound leaves no entry and no event (429); replacing at the bound is fine; another ref is not refused', async () => {
    const host = await createHost({ token: TOKEN, logger: false, limits: { entriesPerMemoryRef: 4 } });
    const REF = 'mem://acme/bounded';
    const first = await seed(host, REF, [{ content: 'one' }, { content: 'two' }, { content: 'three' }]);
    expect(first.status).toBe(200);
    await leavesNothing(host, 'acme', async () => expectQuota(await seed(host, REF, [{ content: 'four' }, { content: 'five' }]), 'memory-entries', 4));
    expect(await inUnit(host.store, (tx) => host.runtime.storedCount(tx, REF))).toBe(3);
    expect((await seed(host, REF, [{ content: 'four' }])).status).toBe(200);
    await leavesNothing(host, 'acme', async () => expectQuota(await seed(host, REF, [{ content: 'five' }]), 'memory-entries', 4));
    const id = (first.body.entries as MemoryEntry[])[0]!.id;
    await inUnit(host.store, (tx) => host.runtime.write(tx, REF, { id, content: 'one, replaced' }, { tenant: 'acme' })).then((p) => p.value);
    expect(await inUnit(host.store, (tx) => host.runtime.storedCount(tx, REF))).toBe(4);
    expect((await seed(host, 'mem://acme/another', [{ content: 'elsewhere' }])).status).toBe(200);
    await host.app.close();
  });

  it('expired entries count until the background work purges them; then the ref takes writes again', async () => {
    const clock = new ManualClock(Date.now());
    const host = await createHost({ token: TOKEN, logger: false, clock, limits: { entriesPerMemoryRef: 3 } });
    const REF = 'mem://acme/expiring';
    expect((await seed(host, REF, [1, 2, 3].map((n) => ({ content: `short-lived ${n}`, ttlSeconds: 1 })))).status).toBe(200);
    clock.advance(2_000);
    expect(await inUnit(host.store, (tx) => host.runtime.memoryFor(tx, 'acme').list(REF))).toEqual([]);
    expectQuota(await seed(host, REF, [{ content: 'while they are stored' }]), 'memory-entries', 3);
    await settle(host);
    expect(await inUnit(host.store, (tx) => host.runtime.storedCount(tx, REF))).toBe(0);
    expect((await seed(host, REF, [{ content: 'after the purge' }])).status).toBe(200);
    await host.app.close();
  });

  it('a tenant\'s stored bytes are bounded across its memoryRefs (429 memory-bytes, nothing written); another tenant is not refused', async () => {
    const host = await createHost({ token: TOKEN, logger: false, limits: { memoryBytesPerTenant: 4_096 } });
    const big = (n: number) => ({ content: `${n}:${'x'.repeat(900)}` });
    const statuses: number[] = [];
    let refused: Answer | undefined;
    for (let n = 0; n < 10 && refused === undefined; n++) {
      const r = await leavesNothingIfRefused(host, () => seed(host, `mem://acme/ref-${n}`, [big(n)]));
      statuses.push(r.status);
      if (r.status !== 200) refused = r;
    }
    expect(statuses.slice(0, -1).every((s) => s === 200) && statuses.length >= 3).toBe(true);
    expectQuota(refused!, 'memory-bytes', 4_096);
    expect((await seed(host, 'mem://globex/ref', [big(0)])).status).toBe(200);
    await host.app.close();
  });
});

/** `f`, checking that it left the acme tenant's rows unchanged when it was refused. */
async function leavesNothingIfRefused(host: Host, f: () => Promise<Answer>): Promise<Answer> {
  const before = await tenantRowCounts(host.store, 'acme');
  const r = await f();
  if (r.status !== 200) expect(await tenantRowCounts(host.store, 'acme')).toEqual(before);
  return r;
}

describe('standing commitments', () => {
  /** An entry that infers one time commitment due at `at`. */
  const remind = async (host: Host, n: number, at: number) => {
    const entry = await inUnit(host.store, (tx) => host.runtime.write(tx, `mem://acme/intents-${n}`, { content: `Remind me about contract ${n}`, tags: ['intent:remind', `at:${new Date(at).toISOString()}`, 'action:run'] }, { tenant: 'acme' })).then((p) => p.value);
    return inUnit(host.store, (tx) => host.runtime.armCommitments(tx, `mem://acme/intents-${n}`, entry));
  };

  it('past armedCommitmentsPerTenant arming is refused (429 armed-commitments) and leaves nothing; a fire frees a place', async () => {
    const clock = new ManualClock(Date.now());
    const host = await createHost({ token: TOKEN, logger: false, clock, limits: { armedCommitmentsPerTenant: 3 } });
    const at = clock.now() + 60_000;
    for (const n of [1, 2, 3]) expect(await remind(host, n, at)).toHaveLength(1);
    const entry = await inUnit(host.store, (tx) => host.runtime.write(tx, 'mem://acme/intents-4', { content: 'Remind me about contract 4', tags: ['intent:remind', `at:${new Date(at).toISOString()}`, 'action:run'] }, { tenant: 'acme' })).then((p) => p.value);
    const err = await leavesNothing(host, 'acme', () => inUnit(host.store, (tx) => host.runtime.armCommitments(tx, 'mem://acme/intents-4', entry)).then(() => undefined, (e: unknown) => e));
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect(err).toMatchObject({ resource: 'armed-commitments', limit: 3, status: 429 });
    clock.advance(61_000);
    expect(await host.runtime.evaluateCommitments()).toHaveLength(3);
    expect(await remind(host, 5, clock.now() + 60_000)).toHaveLength(1);
    await host.app.close();
  });

  it('past followUpRunsPerTenant a due commitment waits, armed, and fires once when a follow-up run retires', async () => {
    const clock = new ManualClock(Date.now());
    const host = await createHost({ token: TOKEN, logger: false, clock, limits: { followUpRunsPerTenant: 1 } });
    const at = clock.now() + 1_000;
    const [a] = await remind(host, 1, at);
    const [b] = await remind(host, 2, at);
    clock.advance(2_000);
    const fires = async () => (await host.store.reads.all("SELECT commitment_id FROM commitment_fires WHERE tenant = 'acme' ORDER BY fired_ms", [], 10)).map((r) => r.commitment_id);
    expect(await host.runtime.evaluateCommitments()).toHaveLength(1);
    expect(await host.runtime.evaluateCommitments(), 'the other waits while the follow-up run lives').toEqual([]);
    const [first] = await fires();
    const waiting = first === a ? b : a;
    expect(await host.store.reads.get('SELECT state FROM commitments WHERE commitment_id = ?', [waiting!])).toEqual({ state: 'armed' });
    // The follow-up run retires; the background work's next look at the agenda fires the waiting commitment, once.
    clock.advance(DEFAULT_LIMITS.liveRunRetentionMs + 1);
    await settle(host);
    expect(await host.runtime.evaluateCommitments()).toEqual([]);
    expect(await fires()).toEqual([first, waiting]);
    await host.app.close();
  });
});

describe('proposals and ended runs', () => {
  const synthesize = (host: Host, n: number, tenant = 'acme') => post(host, ROUTES.proposalSynthesize.path, {
    tenant, principal: 'user:alice', kind: 'prompt-template', title: `Reply ${n}`, rationale: 'Drafted in many runs.',
    artifact: { name: `reply-${n}`, version: '1.0.0', template: 'Dear {{name}}.', variables: ['name'] }, sourceRunIds: [`run-${tenant}-${n}`],
  });

  it('past proposalsPerTenant a proposal is 429 proposals and is not stored; another tenant is not refused', async () => {
    const host = await createHost({ token: TOKEN, logger: false, limits: { proposalsPerTenant: 2 } });
    for (const n of [1, 2]) expect((await synthesize(host, n)).status).toBe(201);
    await leavesNothing(host, 'acme', async () => expectQuota(await synthesize(host, 3), 'proposals', 2));
    expect((await synthesize(host, 3, 'globex')).status).toBe(201);
    await host.app.close();
  });

  it('past endedRunsPerTenant the oldest ended run is retired (reads as unknown); the tenant\'s runs stay bounded', async () => {
    const key = 'acme-tenant-key-0123456789abcdef';
    const host = await createHost({ credentials: new Credentials(parseApiKeysEnv(`${key}=acme:tenant`)), logger: false, seedConformanceFixtures: true, limits: { endedRunsPerTenant: 2 } });
    const as = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const runIds: string[] = [];
    const runs: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await post(host, ROUTES.runStart.path, { workflowId: 'conformance-agent-memory-roundtrip' }, as);
      expect(r.status).toBe(201);
      runIds.push(r.body.runId as string);
      runs.push((await tenantRowCounts(host.store, 'acme')).runs!);
    }
    const read = async (runId: string) => (await host.app.inject({ method: 'GET', headers: as, url: targetOf(ROUTES.runRead, { params: { runId } }) })).statusCode;
    expect(await Promise.all(runIds.map(read))).toEqual([404, 404, 404, 404, 200, 200]);
    expect(runs.slice(2).every((n) => n === runs[1])).toBe(true);
    expect(total(await tenantRowCounts(host.store, 'acme'))).toBeGreaterThan(0);
    await host.app.close();
  });
});

describe('follow-up runs over HTTP', () => {
  it('the commitment-fire seam at the tenant\'s follow-up bound answers 429 quota_exceeded {follow-up-runs} (it was a 500), nothing fired', async () => {
    const host = await createHost({ token: TOKEN, limits: { followUpRunsPerTenant: 2 }, logger: false });
    const fire = () => post(host, ROUTES.commitmentFire.path, { memoryRef: 'mem://acme/follow', condition: 'time' });
    expect((await fire()).status).toBe(200);
    expect((await fire()).status).toBe(200);
    const third = await fire();
    expectQuota(third, 'follow-up-runs', 2);
    await host.app.close();
  });
});
