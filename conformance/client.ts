/**
 * The suite's only way to talk to a host: HTTP with the Bearer key. Every response body is validated — errors
 * against the error envelope, successes against the schema the caller names — and a body that does not match
 * is reported as a failed assertion by the scenario that asked.
 */
import { validateErrorEnvelope } from '../generated/validators/validators.js';
import type { SuiteConfig } from './config.ts';

export interface SchemaValidator {
  (value: unknown): boolean;
  errors?: readonly { instancePath: string; message?: string }[] | null;
}

export interface HttpResult<T = unknown> {
  readonly status: number;
  readonly body: T;
  /** Schema problems of the body ([] when it matched, or when no schema was named for a 2xx). */
  readonly schemaFailures: readonly string[];
  /** The response headers (caching checks read them). */
  readonly headers: Headers;
}

/** How to send one request: without the Bearer key (the public documents), or with extra headers (If-None-Match). */
export interface RequestOptions {
  readonly authenticated?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
}

export class HttpClient {
  // Fields declared, not parameter properties: `node generator/cli.ts certify` loads this file with type stripping.
  private readonly config: SuiteConfig;
  constructor(config: SuiteConfig) {
    this.config = config;
  }

  async request<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, schema?: SchemaValidator, opts: RequestOptions = {}): Promise<HttpResult<T>> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.config.timeoutMs);
    try {
      const res = await fetch(`${this.config.baseUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(this.config.apiKey && opts.authenticated !== false ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
          ...opts.headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: controller.signal,
      });
      const text = await res.text();
      let parsed: unknown = null;
      const schemaFailures: string[] = [];
      try {
        parsed = text.length > 0 ? JSON.parse(text) : null;
      } catch {
        schemaFailures.push(`${method} ${path}: response body is not JSON`);
      }
      const v = res.status >= 400 ? (validateErrorEnvelope as SchemaValidator) : schema;
      if (v !== undefined && schemaFailures.length === 0 && !v(parsed)) {
        for (const e of v.errors ?? []) schemaFailures.push(`${method} ${path}: ${e.instancePath || '/'} ${e.message ?? 'invalid'}`);
      }
      return { status: res.status, body: parsed as T, schemaFailures, headers: res.headers };
    } finally {
      clearTimeout(timer);
    }
  }
}
