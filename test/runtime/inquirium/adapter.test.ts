/** The OpenAI-compatible chat-completions adapter against a real HTTP server on 127.0.0.1 (random port). */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAiCompatibleRuntime, isLoopbackUrl } from '../../../runtime/inquirium/adapters/openai-compatible.ts';
import { RuntimeInvokeError } from '../../../runtime/inquirium/adapters/types.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { inquirium, PARTICIPANT, request } from './helpers.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Server[] = [];
const serve = (handler: Handler) =>
  new Promise<string>((resolve) => {
    const server = createServer(handler);
    servers.push(server);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A tiny llama-server/Ollama stand-in: answers chat completions, honouring max_tokens. */
const fakeLlamaServer = (seen: { url?: string; method?: string; body?: Record<string, unknown> }[]): Handler => (req, res) => {
  let b = '';
  req.on('data', (c) => (b += c));
  req.on('end', () => {
    const body = JSON.parse(b) as { max_tokens: number };
    seen.push({ url: req.url!, method: req.method!, body });
    const words = 'local answers stay on this machine and never leave it at all'.split(' ').slice(0, body.max_tokens);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: words.join(' ') }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: words.length } }));
  });
};

describe('OpenAI-compatible local adapter', () => {
  it('speaks POST /v1/chat/completions and returns the message content and usage', async () => {
    const seen: { url?: string; method?: string; body?: Record<string, unknown> }[] = [];
    const url = await serve(fakeLlamaServer(seen));
    const a = new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/ollama', baseUrl: url, model: 'llama3' });
    const r = await a.invoke({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 3, temperature: 0.2 });
    expect(r).toEqual({ text: 'local answers stay', inputTokens: 5, outputTokens: 3, finishReason: 'stop' });
    expect(seen[0]).toMatchObject({ url: '/v1/chat/completions', method: 'POST', body: { model: 'llama3', max_tokens: 3, stream: false, temperature: 0.2, messages: [{ role: 'user', content: 'hi' }] } });
    expect(a.outboundHosts()).toEqual(['127.0.0.1']);
  });
  it('end to end: a generate request is answered by the local server through the pipeline', async () => {
    const seen: { body?: Record<string, unknown> }[] = [];
    const url = await serve(fakeLlamaServer(seen));
    const rt = await inquirium({ runtimes: [{ adapter: new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/ollama', baseUrl: `${url}/`, model: 'llama3' }), candidate: { 'runtime/ref': 'runtime/ollama', 'model.binding/ref': 'model.binding/llama3', transport_kind: 'http_local', operations: ['generate'], health: { status: 'healthy' } } }] });
    const res = await rt.generate(request('hi', { parameters: { max_tokens: 4 } }), { participant: PARTICIPANT, session: 'session:1' });
    expect(res).toMatchObject({ outcome: 'completed', locality: 'local_only', output: [{ type: 'text', text: 'local answers stay on' }] });
    expect(checkDto('inquirium.generate.response.v1', res)).toEqual([]);
    expect(seen).toHaveLength(1);
  });
  it('refuses non-loopback base URLs', () => {
    for (const u of ['http://10.0.0.5:11434', 'https://api.example.com', 'http://user:pw@127.0.0.1', 'ftp://127.0.0.1', 'nonsense', 'http://127.0.0.1.evil.com/', 'http://0.0.0.0:1']) expect(isLoopbackUrl(u)).toBe(false);
    for (const u of ['http://127.0.0.1:11434', 'http://localhost:8080/', 'http://[::1]:1', 'http://127.5.6.7/']) expect(isLoopbackUrl(u)).toBe(true);
    expect(() => new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/x', baseUrl: 'http://192.168.1.2', model: 'm' })).toThrow(RuntimeInvokeError);
  });
  it('does not follow a redirect off the machine', async () => {
    const url = await serve((_q, res) => {
      res.statusCode = 302;
      res.setHeader('location', 'https://telemetry.example.com/collect');
      res.end();
    });
    const a = new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/x', baseUrl: url, model: 'm', timeoutMs: 500 });
    await expect(a.invoke({ messages: [], maxTokens: 1 })).rejects.toBeInstanceOf(RuntimeInvokeError);
    expect(a.outboundHosts().every((h) => h === '127.0.0.1')).toBe(true);
  });
  it('maps timeouts, oversize bodies (declared or streamed), HTTP errors, bad JSON, missing content and unreachable servers to codes', async () => {
    const cases: [string, Handler, string][] = [
      ['timeout', () => {}, 'adapter-timeout'],
      ['oversize declared', (_q, res) => res.end('x'.repeat(5000)), 'adapter-response-too-large'],
      ['oversize streamed', (_q, res) => { res.write('x'.repeat(800)); res.write('x'.repeat(800)); res.end(); }, 'adapter-response-too-large'],
      ['500', (_q, res) => { res.statusCode = 500; res.end('{}'); }, 'adapter-http-error'],
      ['bad json', (_q, res) => res.end('{not json'), 'adapter-bad-response'],
      ['no content', (_q, res) => res.end('{"choices":[]}'), 'adapter-bad-response'],
      ['tool call instead of content', (_q, res) => res.end('{"choices":[{"message":{"tool_calls":[{"id":"1"}]}}]}'), 'adapter-bad-response'],
    ];
    for (const [name, handler, code] of cases) {
      const url = await serve(handler);
      const a = new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/x', baseUrl: url, model: 'm', timeoutMs: 200, maxResponseBytes: 1000 });
      await expect(a.invoke({ messages: [{ role: 'user', content: 'x' }], maxTokens: 4 }), name).rejects.toMatchObject({ code });
    }
    const dead = new OpenAiCompatibleRuntime({ runtimeRef: 'runtime/x', baseUrl: 'http://127.0.0.1:9', model: 'm', timeoutMs: 500 });
    await expect(dead.invoke({ messages: [], maxTokens: 1 })).rejects.toMatchObject({ code: 'adapter-unreachable' });
  });
});
