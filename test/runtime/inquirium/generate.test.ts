import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInquiriumRuntime, builtinLocalRuntime } from '../../../runtime/inquirium/index.ts';
import { OpenAiCompatibleRuntime, isLoopbackUrl } from '../../../runtime/inquirium/adapters/openai-compatible.ts';
import { RuntimeInvokeError } from '../../../runtime/inquirium/adapters/types.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import type { RegisteredRuntime } from '../../../runtime/inquirium/generate.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';

const PARTICIPANT = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ctx = { participant: PARTICIPANT, session: 'session:1' };
const request = (text: string, extra: Record<string, unknown> = {}) => ({ schema: 'inquirium.generate.request.v1', operation: 'generate', turns: [{ role: 'user', content: [{ type: 'text', text }] }], ...extra });
const remote = (): RegisteredRuntime => ({
  adapter: { runtimeRef: 'runtime/cloud', toolSurface: false, invoke: async () => { throw new Error('remote must never be invoked'); } },
  candidate: { 'runtime/ref': 'runtime/cloud', 'model.binding/ref': 'model.binding/cloud', transport_kind: 'http_remote', operations: ['generate'], health: { status: 'healthy' } },
});
const make = (runtimes?: RegisteredRuntime[]) => createInquiriumRuntime({ clock: new ManualClock(), ids: new SequentialIds(), ...(runtimes ? { runtimes } : {}) });

describe('generate pipeline (Phase 1: advise-only, local-only)', () => {
  it('answers through a local runtime with an advisory epistemic block and a trace ref; the response validates', async () => {
    const rt = make();
    const res = await rt.generate(request('Help me think this through.'), ctx);
    expect(res).toMatchObject({ outcome: 'completed', locality: 'local_only', 'runtime/ref': 'runtime/builtin-local', epistemic: { stance: 'advisory', confidence: 'unstated' } });
    expect(checkDto('inquirium.generate.response.v1', res)).toEqual([]);
    expect(String(res['trace/ref'])).toMatch(/^tr:/);
  });
  it('with only a remote candidate it returns handler-unavailable and never calls the remote', async () => {
    const rt = make([remote()]);
    const res = await rt.generate(request('hi'), ctx);
    expect(res).toMatchObject({ outcome: 'handler-unavailable', 'reason/code': 'no-local-candidate' });
    expect(res.output).toBeUndefined();
    const trace = rt.traces.all()[0]!.body as { decisions: { kind: string; 'reason/code': string }[] };
    expect(trace.decisions.map((d) => d['reason/code'])).toEqual(['not-local', 'no-local-candidate']);
  });
  it('refuses context in the session-only scope instead of reading it', async () => {
    const rt = make();
    const res = await rt.generate(request('x', { context_assembly: { schema: 'inquirium.context-assembly.request.v1', sources: [{ 'source/kind': 'memarium', 'grant/ref': 'grant:1' }] } }), ctx);
    expect(res).toMatchObject({ outcome: 'policy-denied', 'reason/code': 'context-outside-session-scope' });
  });
  it('rejects malformed requests (authoritative stance is unrepresentable anywhere, effects too)', async () => {
    const rt = make();
    await expect(rt.generate({ ...request('x'), effects: [] }, ctx)).rejects.toThrow(/additional/);
    await expect(rt.generate({ schema: 'inquirium.generate.request.v1' }, ctx)).rejects.toThrow();
  });
  it('records turn and result facts; the result points to the trace, the trace never to the transcript', async () => {
    const rt = make();
    const res = await rt.generate(request('What should I pack?'), ctx);
    const facts = rt.transcript.query({ participant: PARTICIPANT });
    expect(facts.map((f) => f.kind)).toEqual(['turn', 'result']);
    expect(facts[1]!.body['trace/ref']).toBe(res['trace/ref']);
    const trace = rt.traces.all()[0]!.body;
    expect(Object.keys(trace).some((k) => k.startsWith('transcript'))).toBe(false);
    expect(trace['turn/id']).toBe(facts[0]!.id);
    expect(rt.transcript.query({ participant: 'participant:did:key:zOther' })).toEqual([]);
  });
  it('random prompt and response canaries never appear in trace records (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 12, maxLength: 30, unit: fc.constantFrom('Q', 'X', 'Z', '7', '9') }), async (canary) => {
        const echo: RegisteredRuntime = { ...builtinLocalRuntime(), adapter: { runtimeRef: 'runtime/builtin-local', toolSurface: false, invoke: async () => ({ text: `RESP-${canary}` }) } };
        const rt = make([echo]);
        await rt.generate(request(`PROMPT-${canary}`), ctx);
        const traces = JSON.stringify(rt.traces.all());
        expect(traces).not.toContain(canary);
      }),
      { numRuns: 60 },
    );
  });
  it('a failing adapter gives a typed failed outcome with the mapped code', async () => {
    const broken: RegisteredRuntime = { ...builtinLocalRuntime(), adapter: { runtimeRef: 'runtime/builtin-local', toolSurface: false, invoke: async () => { throw new RuntimeInvokeError('adapter-timeout', 't'); } } };
    const res = await make([broken]).generate(request('x'), ctx);
    expect(res).toMatchObject({ outcome: 'failed', 'reason/code': 'adapter-timeout' });
  });
});

describe('OpenAI-compatible local adapter', () => {
  const serve = (handler: Parameters<typeof createServer>[1]) =>
    new Promise<{ server: Server; url: string }>((resolve) => {
      const server = createServer(handler);
      server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
    });
  it('speaks POST /v1/chat/completions and returns the message content and usage', async () => {
    let seen: { url?: string; body?: Record<string, unknown> } = {};
    const { server, url } = await serve((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        seen = { url: req.url!, body: JSON.parse(b) };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'local answer' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2 } }));
      });
    });
    try {
      const a = new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/ollama', baseUrl: url, model: 'llama3' });
      const r = await a.invoke({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 });
      expect(r).toEqual({ text: 'local answer', inputTokens: 5, outputTokens: 2, finishReason: 'stop' });
      expect(seen.url).toBe('/v1/chat/completions');
      expect(seen.body).toMatchObject({ model: 'llama3', max_tokens: 16, stream: false });
      const rt = createInquiriumRuntime({ clock: new ManualClock(), ids: new SequentialIds(), runtimes: [{ adapter: a, candidate: { 'runtime/ref': 'runtime/ollama', 'model.binding/ref': 'model.binding/llama3', transport_kind: 'http_local', operations: ['generate'], health: { status: 'healthy' } } }] });
      expect(await rt.generate(request('hi'), ctx)).toMatchObject({ outcome: 'completed', output: [{ type: 'text', text: 'local answer' }] });
    } finally {
      server.close();
    }
  });
  it('refuses non-loopback base URLs', () => {
    for (const u of ['http://10.0.0.5:11434', 'https://api.example.com', 'http://user:pw@127.0.0.1', 'ftp://127.0.0.1', 'nonsense']) expect(isLoopbackUrl(u)).toBe(false);
    for (const u of ['http://127.0.0.1:11434', 'http://localhost:8080/', 'http://[::1]:1']) expect(isLoopbackUrl(u)).toBe(true);
    expect(() => new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/x', baseUrl: 'http://192.168.1.2', model: 'm' })).toThrow(RuntimeInvokeError);
  });
  it('maps timeouts, oversize bodies, HTTP errors, bad JSON and unreachable servers to codes', async () => {
    const cases: [string, Parameters<typeof createServer>[1], string][] = [
      ['timeout', () => {}, 'adapter-timeout'],
      ['oversize', (_q, res) => res.end('x'.repeat(5000)), 'adapter-response-too-large'],
      ['500', (_q, res) => { res.statusCode = 500; res.end('{}'); }, 'adapter-http-error'],
      ['bad json', (_q, res) => res.end('{not json'), 'adapter-bad-response'],
      ['no content', (_q, res) => res.end('{"choices":[]}'), 'adapter-bad-response'],
    ];
    for (const [, handler, code] of cases) {
      const { server, url } = await serve(handler);
      try {
        const a = new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/x', baseUrl: url, model: 'm', timeoutMs: 200, maxResponseBytes: 1000 });
        await expect(a.invoke({ messages: [{ role: 'user', content: 'x' }], maxTokens: 4 })).rejects.toMatchObject({ code });
      } finally {
        server.closeAllConnections();
        server.close();
      }
    }
    const dead = new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/x', baseUrl: 'http://127.0.0.1:9', model: 'm', timeoutMs: 500 });
    await expect(dead.invoke({ messages: [], maxTokens: 1 })).rejects.toMatchObject({ code: 'adapter-unreachable' });
  });
});

describe('baseline-assistant profile', () => {
  it('the built-in runtime passes conformance and becomes selectable as baseline only while the report is fresh', async () => {
    const clock = new ManualClock();
    const rt = createInquiriumRuntime({ clock, ids: new SequentialIds() });
    expect(rt.baselineRuntimes()).toEqual([]); // no report yet
    const [report] = await rt.certifyBaseline();
    expect(checkDto('inquirium.baseline-assistant-conformance-report.v1', report)).toEqual([]);
    expect(report!['overall/passed']).toBe(true);
    expect(rt.baselineRuntimes().map((c) => c['runtime/ref'])).toEqual(['runtime/builtin-local']);
    clock.advance(7 * 86_400_000);
    expect(rt.baselineRuntimes()).toEqual([]); // stale
  });
  it('a runtime with a tool surface or unbounded output fails its checks', async () => {
    const chatty: RegisteredRuntime = { ...builtinLocalRuntime(), adapter: { runtimeRef: 'runtime/builtin-local', toolSurface: true, invoke: async () => ({ text: 'word '.repeat(50) }) } };
    const rt = createInquiriumRuntime({ clock: new ManualClock(), ids: new SequentialIds(), runtimes: [chatty] });
    const [report] = await rt.certifyBaseline();
    const failed = (report!.checks as { 'check/id': string; result: string }[]).filter((c) => c.result === 'fail').map((c) => c['check/id']);
    expect(failed).toEqual(['no-tool-surface', 'bounded-output']);
    expect(rt.baselineRuntimes()).toEqual([]);
  });
});
