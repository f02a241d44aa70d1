/**
 * Suite configuration, upstream-style: OPENWOP_BASE_URL, OPENWOP_API_KEY (Bearer), OPENWOP_REQUIRE_BEHAVIOR=true
 * (strict: a missing seam or unadvertised behaviour is a failure), OPENWOP_OPTED_OUT_PROFILES (comma list of
 * profiles the host explicitly opts out of). CLI flags override the environment.
 */
export interface SuiteConfig {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly strict: boolean;
  readonly optedOut: ReadonlySet<string>;
  readonly timeoutMs: number;
  /** Only run scenarios whose id matches (substring), for debugging. */
  readonly only?: string;
}

export class ConfigError extends Error {}

export function configFrom(env: NodeJS.ProcessEnv, flags: Partial<Record<'base-url' | 'api-key' | 'strict' | 'opt-out' | 'only' | 'timeout-ms', string | boolean>> = {}): SuiteConfig {
  const baseUrl = String(flags['base-url'] ?? env.OPENWOP_BASE_URL ?? '');
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new ConfigError('a base URL is required: --base-url http://127.0.0.1:8787 or OPENWOP_BASE_URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError('the base URL must be http(s)');
  const strict = flags.strict === true || flags.strict === 'true' || env.OPENWOP_REQUIRE_BEHAVIOR === 'true';
  const optOut = String(flags['opt-out'] ?? env.OPENWOP_OPTED_OUT_PROFILES ?? '');
  const apiKey = flags['api-key'] ?? env.OPENWOP_API_KEY;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...(typeof apiKey === 'string' && apiKey.length > 0 ? { apiKey } : {}),
    strict,
    optedOut: new Set(optOut.split(',').map((s) => s.trim()).filter(Boolean)),
    timeoutMs: Number(flags['timeout-ms'] ?? 15_000),
    ...(typeof flags.only === 'string' ? { only: flags.only } : {}),
  };
}
