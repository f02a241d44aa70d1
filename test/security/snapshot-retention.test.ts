/**
 * The replay journal is bounded by time (limits.ts `snapshotRetentionMs`, docs/security.md "Host-wide state
 * bounds"): the host prunes records older than the window on a timer, from memory and from its store, and a fork
 * that would need a pruned record is refused with 422 `replay_memory_snapshot_unavailable` / `retention_expired`;
 * a fork inside the window is still served. Over HTTP, on a durable (in-memory SQL) store, with a clock the test moves.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';

const TOKEN = 'snapshot-retention-operator-token';
const WINDOW_MS = 1_000;
let now = Date.parse('2026-11-26T12:00:00Z');
let app: FastifyInstance;
let store: StoragePort;

beforeAll(async () => {
  store = await openMemoryStore();
  app = (await createHost({ token: TOKEN, storage: store, logger: false, clock: { now: () => now }, limits: { snapshotRetentionMs: WINDOW_MS } })).app;
});
afterAll(() => app.close());

const headers = { authorization: `Bearer ${TOKEN}` };
/** A replay fixture: a run that wrote v1 then v2 under one key; a fork at `fromSeq` reads v1. */
const fixture = async () => (await app.inject({ method: 'POST', url: '/v1/host/sample/multi-agent/replay-fixture', headers, payload: {} })).json<{ runId: string; fromSeq: number }>();
const fork = (f: { runId: string; fromSeq: number }) => app.inject({ method: 'POST', url: `/v1/runs/${f.runId}:fork`, headers, payload: { fromSeq: f.fromSeq } });

describe('the replay journal is bounded by its retention window', () => {
  it('prunes records past the window (memory and store), refuses a fork that needs them, serves one inside it', async () => {
    const old = await fixture();
    expect((await fork(old)).statusCode).toBe(201); // inside the window: served
    const before = (await store.replay.journal()).length;
    expect(before).toBeGreaterThan(0);

    now += 10 * WINDOW_MS; // the old writes fall out of the window
    const recent = await fixture();
    await new Promise((r) => setTimeout(r, WINDOW_MS + 500)); // the prune timer runs (every window, when under a minute)

    const refused = await fork(old);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: 'replay_memory_snapshot_unavailable', details: { reason: 'retention_expired' } });
    expect((await fork(recent)).statusCode).toBe(201);
    const kept = await store.replay.journal();
    expect(kept.length).toBeLessThan(before + 1);
    expect(kept.every((r) => Number((r.record as { at?: number }).at ?? now) >= now - WINDOW_MS)).toBe(true);
  });
});
