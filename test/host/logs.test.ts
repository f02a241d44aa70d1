/** Structured logs: one JSON line per event, request ids, refusal codes, and never a token or a request body. */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';

describe('structured logs (pino through Fastify)', () => {
  it('JSON lines with reqId and status; refusals carry the envelope code; no token, no body content', async () => {
    const lines: string[] = [];
    const token = 'log-test-token-0123456789';
    const { app } = await createHost({ token, logger: { level: 'info', stream: { write: (s: string) => void lines.push(s) } } });
    const secret = `sk-log-canary-${Date.now()}`;
    await app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify({ memoryRef: 'mem://t/a', entries: [{ content: `key ${secret}` }] }) });
    await app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: `{"memoryRef": "${secret}"` });
    await app.inject({ method: 'GET', url: ROUTES.discovery.path });
    await app.close();
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.length).toBeGreaterThanOrEqual(6);
    for (const r of records) expect(typeof r.level === 'number' && typeof r.time === 'number' && typeof r.msg === 'string').toBe(true);
    expect(records.filter((r) => r.msg === 'request completed').every((r) => typeof r.reqId === 'string' && typeof (r.res as { statusCode?: number })?.statusCode === 'number')).toBe(true);
    expect(records.some((r) => r.msg === 'request refused' && r.code === 'invalid_json')).toBe(true);
    const all = lines.join('\n');
    expect(all).not.toContain(token);
    expect(all).not.toContain(secret);
  });
});
