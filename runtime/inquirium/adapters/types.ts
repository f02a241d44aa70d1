/** What the generate pipeline asks of a model runtime, whatever its transport. */
import { WopkitError } from '../../shared/errors.ts';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}
export interface InvokeRequest {
  readonly messages: readonly ChatMessage[];
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stop?: readonly string[];
}
export interface InvokeResult {
  readonly text: string;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly finishReason?: string;
}

/** A failure mapped to a stable kebab-case code (used as reason/code and diagnostics error/code). */
export class RuntimeInvokeError extends WopkitError<'adapter-timeout' | 'adapter-unreachable' | 'adapter-bad-response' | 'adapter-response-too-large' | 'adapter-http-error' | 'adapter-refused-non-local'> {
  constructor(code: RuntimeInvokeError['code'], message: string) {
    super(code, message);
  }
}

export interface RuntimeAdapter {
  readonly runtimeRef: string;
  /** Whether the adapter exposes any tool/function-calling surface (the baseline profile requires none). */
  readonly toolSurface: boolean;
  /**
   * Every host the adapter opened a connection to since it was created (for the baseline suite's egress check).
   * An adapter that cannot report this leaves it out, and the suite then needs a host-level EgressObserver.
   */
  outboundHosts?(): readonly string[];
  invoke(request: InvokeRequest): Promise<InvokeResult>;
}
