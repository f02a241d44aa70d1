/**
 * The memory-distillation-scheduled scenario can fail: a tampering proxy in front of the reference host breaks one
 * behaviour at a time (a second run for the same instant, an unclamped budget, a trigger other than host-managed),
 * and the scenario must fail on exactly that.
 */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { configFrom } from '../../conformance/config.ts';
import { runSuite } from '../../conformance/run.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { withServer } from './fake-host.ts';

const TOKEN = 'distill-scheduled-proxy-token-0123456789';
type Json = Record<string, any>;
type Tamper = (path: string, body: Json, nth: number) => Json;

async function withProxy(tamper: Tamper, fn: (url: string) => Promise<void>): Promise<void> {
  const { app } = await createHost({ token: TOKEN });
  const upstream = await app.listen({ port: 0, host: '127.0.0.1' });
  const seen = new Map<string, number>();
  try {
    await withServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const r = await fetch(upstream + req.url, { method: req.method, headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' }, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) });
      const path = (req.url ?? '').split('?')[0]!;
      const nth = (seen.get(path) ?? 0) + 1;
      seen.set(path, nth);
      const body = (await r.json()) as Json;
      res.statusCode = r.status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(r.status < 300 ? tamper(path, body, nth) : body));
    }, fn);
  } finally {
    await app.close();
  }
}

const run = async (url: string) => (await runSuite(configFrom({}, { 'base-url': url, 'api-key': TOKEN, strict: true, only: 'memory-distillation-scheduled' }))).scenarios[0]!;
const TICK = ROUTES.distillScheduleTick.path;
const SCHEDULE = ROUTES.distillScheduleRead.path;

describe('memory-distillation-scheduled fails when the host breaks the contract', () => {
  it('passes through an honest proxy', async () => {
    await withProxy((_, b) => b, async (url) => expect((await run(url)).outcome).toBe('pass'));
  });
  const cases: [string, Tamper, RegExp][] = [
    ['a second tick runs the same instant again', (p, b, n) => (p === TICK && n === 2 ? { outcomes: [{ kind: 'nothing-to-distil', scheduleId: 'x', instant: '2026-01-01T00:00:00.000Z', missed: 0 }] } : b), /ran the schedule again/],
    ['the budget is not clamped to the advertised maximum', (p, b) => (p === SCHEDULE && b.lastOutcome?.event ? { ...b, lastOutcome: { ...b.lastOutcome, event: { ...b.lastOutcome.event, distillation: { ...b.lastOutcome.event.distillation, tokenBudget: 1_000_000_000 } } } } : b), /clamped/],
    ['the run reports another scope', (p, b) => (p === SCHEDULE && b.lastOutcome?.event ? { ...b, lastOutcome: { ...b.lastOutcome, event: { ...b.lastOutcome.event, memoryRef: 'mem://someone-else/x' } } } : b), /its own scope/],
  ];
  for (const [name, tamper, failure] of cases) {
    it(name, async () => {
      await withProxy(tamper, async (url) => {
        const s = await run(url);
        expect(s.outcome).toBe('fail');
        expect(s.failures.join('\n')).toMatch(failure);
      });
    });
  }
});
