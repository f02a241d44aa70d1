/**
 * A deterministic built-in local runtime for demos, tests and the conformance suite: it answers with a short,
 * bounded reflection of the last user turn. Same input, same output; no network, no tools.
 */
import { countTokens } from '../../shared/tokenizer.ts';
import type { InvokeRequest, InvokeResult, RuntimeAdapter } from './types.ts';

export class BuiltinLocalRuntime implements RuntimeAdapter {
  readonly toolSurface = false;
  constructor(readonly runtimeRef = 'runtime/builtin-local') {}
  /** No network at all. */
  outboundHosts(): readonly string[] {
    return [];
  }
  async invoke(request: InvokeRequest): Promise<InvokeResult> {
    const last = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const words = last.split(/\s+/).filter(Boolean);
    const gist = words.slice(0, 12).join(' ');
    const full = `Here is one way to look at it: "${gist}${words.length > 12 ? ' …' : ''}" has more than one reasonable reading; consider what you already know before deciding.`;
    // Respect max tokens by cutting whole words.
    const out: string[] = [];
    for (const w of full.split(' ')) {
      if (countTokens([...out, w].join(' ')) > request.maxTokens) break;
      out.push(w);
    }
    const text = out.join(' ');
    return { text, inputTokens: request.messages.reduce((n, m) => n + countTokens(m.content), 0), outputTokens: countTokens(text), finishReason: out.length < full.split(' ').length ? 'length' : 'stop' };
  }
}
