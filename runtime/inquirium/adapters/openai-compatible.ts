/**
 * Adapter for an OpenAI-compatible chat-completions endpoint on this machine — the protocol Ollama, llama-server
 * and LM Studio speak (POST <base>/v1/chat/completions). It fixes the protocol, not the vendor.
 *
 * Local transport means loopback: the base URL must be http(s) on 127.0.0.0/8, ::1 or localhost, or the adapter
 * refuses to be constructed. Every call has a timeout and a response-size ceiling; failures map to stable codes.
 */
import { RuntimeInvokeError, type InvokeRequest, type InvokeResult, type RuntimeAdapter } from './types.ts';

export interface OpenAiCompatibleOptions {
  readonly runtimeRef: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly apiKey?: string;
  readonly fetch?: typeof fetch;
}

export function isLoopbackUrl(raw: string): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  if (u.username !== '' || u.password !== '') return false;
  const h = u.hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

export class OpenAiCompatibleRuntime implements RuntimeAdapter {
  readonly toolSurface = false;
  readonly runtimeRef: string;
  readonly #o: Required<Omit<OpenAiCompatibleOptions, 'apiKey'>> & { apiKey?: string };
  readonly #hosts: string[] = [];

  constructor(o: OpenAiCompatibleOptions) {
    if (!isLoopbackUrl(o.baseUrl)) throw new RuntimeInvokeError('adapter-refused-non-local', 'local transport requires a loopback base URL');
    this.runtimeRef = o.runtimeRef;
    this.#o = { timeoutMs: 30_000, maxResponseBytes: 1_048_576, fetch: globalThis.fetch, ...o };
  }

  outboundHosts(): readonly string[] {
    return this.#hosts;
  }

  async invoke(request: InvokeRequest): Promise<InvokeResult> {
    const url = new URL('v1/chat/completions', this.#o.baseUrl.endsWith('/') ? this.#o.baseUrl : `${this.#o.baseUrl}/`);
    if (!isLoopbackUrl(url.href)) throw new RuntimeInvokeError('adapter-refused-non-local', 'local transport requires a loopback URL');
    this.#hosts.push(url.hostname);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#o.timeoutMs);
    try {
      let res: Response;
      try {
        res = await this.#o.fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(this.#o.apiKey ? { authorization: `Bearer ${this.#o.apiKey}` } : {}) },
          body: JSON.stringify({
            model: this.#o.model,
            messages: request.messages,
            max_tokens: request.maxTokens,
            stream: false,
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(request.stop !== undefined ? { stop: request.stop } : {}),
          }),
          signal: controller.signal,
          redirect: 'error',
        });
      } catch (e) {
        if (controller.signal.aborted) throw new RuntimeInvokeError('adapter-timeout', `no answer within ${this.#o.timeoutMs} ms`);
        throw new RuntimeInvokeError('adapter-unreachable', `cannot reach the local runtime (${(e as Error).name})`);
      }
      const body = await readBounded(res, this.#o.maxResponseBytes, controller);
      if (!res.ok) throw new RuntimeInvokeError('adapter-http-error', `runtime answered HTTP ${res.status}`);
      return parseCompletion(body);
    } catch (e) {
      if (e instanceof RuntimeInvokeError) throw e;
      if (controller.signal.aborted) throw new RuntimeInvokeError('adapter-timeout', `no answer within ${this.#o.timeoutMs} ms`);
      throw new RuntimeInvokeError('adapter-bad-response', 'runtime response could not be read');
    } finally {
      clearTimeout(timer);
    }
  }
}

async function readBounded(res: Response, max: number, controller: AbortController): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    controller.abort();
    throw new RuntimeInvokeError('adapter-response-too-large', `response exceeds ${max} bytes`);
  }
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      controller.abort();
      await reader.cancel().catch(() => {});
      throw new RuntimeInvokeError('adapter-response-too-large', `response exceeds ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseCompletion(body: string): InvokeResult {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new RuntimeInvokeError('adapter-bad-response', 'runtime answered with invalid JSON');
  }
  const choice = (json as { choices?: { message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }[] }).choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== 'string') throw new RuntimeInvokeError('adapter-bad-response', 'runtime answer has no message content');
  const usage = (json as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } }).usage;
  return {
    text: content,
    ...(typeof usage?.prompt_tokens === 'number' ? { inputTokens: usage.prompt_tokens } : {}),
    ...(typeof usage?.completion_tokens === 'number' ? { outputTokens: usage.completion_tokens } : {}),
    ...(typeof choice?.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
  };
}
