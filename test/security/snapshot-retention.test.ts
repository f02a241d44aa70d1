/**
 * The replay journal is bounded by time (limits.ts `snapshotRetentionMs`, docs/security.md "Host-wide state
 * bounds"): the host's background work prunes records older than the window from the store, never past the anchor
 * of a live fork, and a fork that would need a pruned record is refused with 422
 * `replay_memory_snapshot_unavailable` / `retention_expired`; a fork inside the window is still served. Over HTTP,
 * with a clock the test moves and the background work driven by hand.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../runtime/host/server.ts';

const TOKEN = 'snapshot-retention-operator-token';
const WINDOW_MS = 1_000;
let now = Date.parse('2026-11-26T12:00:00Z');
let app: FastifyInstance;
let host: Host;

beforeAll(async () => {
  host = await createHost({ token: TOKEN, logger: false, clock: { now: () => now }, limits: { snapshotRetentionMs: WINDOW_MS, liveRunRetentionMs: 100 * WINDOW_MS } });
  app = host.app;
});

/** The journal's records, as the store holds them. */
const journal = async () => (await host.store.reads.all('SELECT jseq, at_ms FROM journal ORDER BY jseq', [], 100_000)).map((r) => ({ jseq: Number(r.jseq), at_ms: Number(r.at_ms) }));
afterAll(() => app.close());

const headers = { authorization: `Bearer ${TOKEN}` };
/** A replay fixture: a run that wrote v1 then v2 under one key; a fork at `fromSeq` reads v1. */
const fixture = async () => (await app.inject({ method: 'POST', url: '/v1/host/sample/multi-agent/replay-fixture', headers, payload: {} })).json<{ runId: string; fromSeq: number }>();
const fork = (f: { runId: string; fromSeq: number }) => app.inject({ method: 'POST', url: `/v1/runs/${f.runId}:fork`, headers, payload: { fromSeq: f.fromSeq } });

describe('the replay journal is bounded by its retention window', () => {
  it('prunes records past the window, refuses a fork that needs them, serves one inside it; a live fork holds what it reads', async () => {
    const old = await fixture();
    const held = await fork(old); // inside the window: served, and the fork holds its anchor while it lives
    expect(held.statusCode).toBe(201);
    const before = await journal();
    expect(before.length).toBeGreaterThan(0);

    now += 10 * WINDOW_MS; // the old writes fall out of the window
    const recent = await fixture();
    await host.background.runOnce();
    // The live fork's anchor holds the records after it, old as they are: the source can still be forked there.
    const anchor = Number((await host.store.reads.get('SELECT min(anchor_jseq) AS j FROM runs'))!.j);
    expect((await journal()).filter((r) => r.at_ms < now - WINDOW_MS && r.jseq > anchor).length).toBeGreaterThan(0);
    expect((await fork(old)).statusCode).toBe(201);

    // Once the fork retires (liveRunRetentionMs), nothing holds the old records: they are pruned.
    now += 101 * WINDOW_MS;
    const newest = await fixture();
    for (let i = 0; i < 10 && Object.keys((await host.background.runOnce()).report).length > 0; i++);
    const refused = await fork(old);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: 'replay_memory_snapshot_unavailable', details: { reason: 'retention_expired' } });
    expect((await fork(recent)).statusCode).toBe(422);
    expect((await fork(newest)).statusCode).toBe(201);
    const kept = await journal();
    expect(kept.length).toBeLessThan(before.length + 1);
    expect(kept.every((r) => r.at_ms >= now - WINDOW_MS)).toBe(true);
  });
});
