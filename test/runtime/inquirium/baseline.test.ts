/** The baseline-assistant profile and its conformance suite. */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinLocalRuntime, type RuntimeRegistration } from '../../../runtime/inquirium/index.ts';
import { BASELINE_PROFILE, isBaselineEligible, runBaselineConformance } from '../../../runtime/inquirium/baseline.ts';
import { OpenAiCompatibleRuntime } from '../../../runtime/inquirium/adapters/openai-compatible.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';
import { candidate, inquirium } from './helpers.ts';

const failedChecks = (report: Record<string, unknown>) => (report.checks as { 'check/id': string; result: string; 'detail/code'?: string }[]).filter((c) => c.result === 'fail').map((c) => `${c['check/id']}:${c['detail/code']}`);
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

describe('baseline-assistant profile', () => {
  it('the profile is a valid inquirium.baseline-assistant-profile.v1', () => {
    expect(checkDto('inquirium.baseline-assistant-profile.v1', BASELINE_PROFILE)).toEqual([]);
  });
  it('the built-in runtime passes conformance and becomes selectable as baseline only while the report is fresh', async () => {
    const clock = new ManualClock();
    const rt = await inquirium({ clock });
    expect(rt.baselineRuntimes()).toEqual([]); // no report yet: a configuration label alone never qualifies
    const [report] = await rt.certifyBaseline();
    expect(checkDto('inquirium.baseline-assistant-conformance-report.v1', report)).toEqual([]);
    expect(failedChecks(report!)).toEqual([]);
    expect((report!.checks as unknown[]).length).toBe(8);
    expect(rt.baselineRuntimes().map((c) => c['runtime/ref'])).toEqual(['runtime/builtin-local']);
    clock.advance(7 * 86_400_000 - 1);
    expect(rt.baselineRuntimes()).toHaveLength(1);
    clock.advance(1);
    expect(rt.baselineRuntimes()).toEqual([]); // stale
  });
  it('a real OpenAI-compatible runtime on loopback passes conformance', async () => {
    const server = createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        const n = (JSON.parse(b) as { max_tokens: number }).max_tokens;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { content: 'one two three four five six seven eight nine ten'.split(' ').slice(0, n).join(' ') } }] }));
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const reg: RuntimeRegistration = { adapter: new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/llama-server', baseUrl: url, model: 'm' }), candidate: { 'runtime/ref': 'runtime/llama-server', 'model.binding/ref': 'model.binding/m', transport_kind: 'http_local', operations: ['generate'], context_window: 4096, health: { status: 'healthy' } } };
    const rt = await inquirium({ runtimes: [reg] });
    const [report] = await rt.certifyBaseline();
    expect(failedChecks(report!)).toEqual([]);
    expect(rt.baselineRuntimes().map((c) => c['runtime/ref'])).toEqual(['runtime/llama-server']);
  });
  it('a runtime with a tool surface or unbounded output fails those checks', async () => {
    const chatty: RuntimeRegistration = { ...builtinLocalRuntime(), adapter: { runtimeRef: 'runtime/builtin-local', toolSurface: true, outboundHosts: () => [], invoke: async () => ({ text: 'word '.repeat(50) }) } };
    const rt = await inquirium({ runtimes: [chatty] });
    const [report] = await rt.certifyBaseline();
    expect(failedChecks(report!)).toEqual(['no-tool-surface:tool-surface-present', 'bounded-output:output-not-bounded']);
    expect(report!['overall/passed']).toBe(false);
    expect(rt.baselineRuntimes()).toEqual([]);
  });
  it('telemetry egress observed — by the adapter or by the host monitor — fails; unobservable egress fails too', async () => {
    const o = { clock: new ManualClock(), ids: new SequentialIds(), environmentRef: 'environment/test' };
    const phoning = { runtimeRef: 'runtime/x', toolSurface: false, outboundHosts: () => ['127.0.0.1', 'telemetry.example.com'], invoke: async () => ({ text: 'ok' }) };
    expect(failedChecks(await runBaselineConformance(candidate('x', 'http_local'), phoning, o))).toEqual(['no-telemetry-egress:egress-observed']);
    let n = 0;
    const quiet = { runtimeRef: 'runtime/x', toolSurface: false, invoke: async () => { n++; return { text: 'ok' }; } };
    expect(failedChecks(await runBaselineConformance(candidate('x', 'http_local'), quiet, o))).toEqual(['no-telemetry-egress:egress-unobservable']);
    expect(failedChecks(await runBaselineConformance(candidate('x', 'http_local'), quiet, { ...o, egress: { nonLoopbackConnections: () => n } }))).toEqual(['no-telemetry-egress:egress-observed']);
    expect(failedChecks(await runBaselineConformance(candidate('x', 'http_local'), quiet, { ...o, egress: { nonLoopbackConnections: () => 0 } }))).toEqual([]);
  });
  it('a remote candidate fails transport and no-remote-fallback; a small context window fails its clause', async () => {
    const o = { clock: new ManualClock(), ids: new SequentialIds(), environmentRef: 'environment/test' };
    const adapter = builtinLocalRuntime().adapter;
    expect(failedChecks(await runBaselineConformance(candidate('cloud', 'http_remote'), adapter, o))).toEqual(['local-transport:transport-not-local', 'no-remote-fallback:remote-fallback-possible']);
    expect(failedChecks(await runBaselineConformance({ ...candidate('tiny', 'http_local'), context_window: 512 }, adapter, o))).toEqual(['context-window:context-window-too-small']);
  });
  it('eligibility needs the same runtime, the same environment, a pass, and an unexpired report', async () => {
    const clock = new ManualClock();
    const c = builtinLocalRuntime().candidate;
    const report = await runBaselineConformance(c, builtinLocalRuntime().adapter, { clock, ids: new SequentialIds(), environmentRef: 'environment/a' });
    const now = clock.now();
    expect(isBaselineEligible(c, report, 'environment/a', now)).toBe(true);
    expect(isBaselineEligible(c, report, 'environment/b', now)).toBe(false);
    expect(isBaselineEligible({ ...c, 'runtime/ref': 'runtime/other' }, report, 'environment/a', now)).toBe(false);
    expect(isBaselineEligible(c, { ...report, 'overall/passed': false }, 'environment/a', now)).toBe(false);
    expect(isBaselineEligible(c, undefined, 'environment/a', now)).toBe(false);
    expect(isBaselineEligible(c, report, 'environment/a', now + 7 * 86_400_000)).toBe(false);
  });
});
