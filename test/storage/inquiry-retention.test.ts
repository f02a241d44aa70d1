/**
 * Inquirium's transcript and turn traces are bounded by time (host limit inquiryRetentionMs): the background work
 * removes facts and traces older than the window from the store, a batch per transaction, and nothing newer.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';

const TOKEN = 'inquiry-retention-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const request = { schema: 'inquirium.generate.request.v1', operation: 'generate', turns: [{ role: 'user', content: [{ type: 'text', text: 'help' }] }], policy: { locality: 'local_only', trust_mode: 'strict_local', scope: 'assistant-session-only', on_context_denied: 'fail_closed' } };
const logRows = async (port: StoragePort, log: string) => Number(Number((await port.reads.get('SELECT count(*) AS n FROM doc_logs WHERE log = ?', [log]))!.n));

describe('Inquirium retention', () => {
  it('transcript facts and traces older than inquiryRetentionMs are removed; newer ones stay', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const storage = await openMemoryStore();
    const day = 86_400_000;
    const { app, background } = await createHost({ token: TOKEN, storage, clock, limits: { inquiryRetentionMs: 2 * day }, logger: false });
    const generate = async () => expect((await app.inject({ method: 'POST', url: ROUTES.inquiriumGenerate.path, headers: H, payload: JSON.stringify(request) })).statusCode).toBe(200);
    await generate();
    const [transcript, traces] = [await logRows(storage, 'transcript'), await logRows(storage, 'traces')];
    expect(transcript).toBeGreaterThan(0);
    expect(traces).toBeGreaterThan(0);
    clock.advance(day);
    await generate();
    await background.runOnce();
    expect([await logRows(storage, 'transcript'), await logRows(storage, 'traces')]).toEqual([2 * transcript, 2 * traces]);
    clock.advance(day + 1000);
    await background.runOnce();
    expect([await logRows(storage, 'transcript'), await logRows(storage, 'traces')]).toEqual([transcript, traces]);
    clock.advance(day);
    await background.runOnce();
    expect([await logRows(storage, 'transcript'), await logRows(storage, 'traces')]).toEqual([0, 0]);
    await app.close();
  });
});
