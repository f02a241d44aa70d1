/**
 * Every limit the reference host enforces, written once: its default, the smallest value it accepts, the
 * environment variable `npm start` reads it from, what it bounds and what a request that meets it gets back.
 * `createHost({limits})` takes any of them by name; docs/security.md lists them (a test checks the two agree).
 *
 * Three families:
 * - request handling (`scope: 'request'`): socket and parser limits applied to the Fastify / Node HTTP server;
 * - per-tenant resources (`scope: 'tenant'`): how much state one tenant can make the host keep. Their defaults are
 *   the library modules' own (the limit lives where the state lives; the host only configures it);
 * - host-wide state (`scope: 'host'`): how long finished things are kept (the replay journal, ended runs, idle
 *   forks): retention, applied by the background work (background.ts).
 */
import { DEFAULT_MAX_ARMED_PER_TENANT } from '../commitments/engine.ts';
import { DEFAULT_MAX_SCHEDULES_PER_TENANT } from '../distillation/schedule.ts';
import { DEFAULT_EVENT_LOG_LIMITS } from '../events/log.ts';
import { DEFAULT_QUESTION_LIMITS } from '../inquirium/operator-questions.ts';
import { DEFAULT_MEMORY_BOUNDS } from '../memory/writer.ts';
import { DEFAULT_RUN_BOUNDS } from '../openwop/runs.ts';
import { DEFAULT_PROPOSALS_PER_TENANT } from '../proposals/store.ts';
import { DEFAULT_SECRET_REGISTRY_LIMITS } from '../redaction/secret-registry.ts';
import { DEFAULT_FIXTURES_PER_TENANT } from './reference-runtime.ts';

/** The replay journal's retention (24 h): forks reach back a day; a long-running host's journal stays bounded. */
export const DEFAULT_SNAPSHOT_RETENTION_MS = 86_400_000;
/** How long Inquirium transcript facts and turn traces are kept (30 days). */
export const DEFAULT_INQUIRY_RETENTION_MS = 30 * 86_400_000;
/** How long an ended run stays readable (7 days). */
export const DEFAULT_RUN_RETENTION_MS = 7 * 86_400_000;

export interface LimitSpec {
  readonly scope: 'request' | 'tenant' | 'host';
  readonly default: number;
  /** Smallest accepted value (every limit is an integer). */
  readonly min: number;
  readonly unit: 'ms' | 'bytes' | 'count' | 'levels';
  /** Environment variable `npm start` reads (an integer). */
  readonly env: string;
  /** What it bounds, in a few words (the docs table's wording). */
  readonly bounds: string;
  /** What a request that meets the limit gets. */
  readonly whenExceeded: string;
}

export const LIMITS = {
  requestTimeoutMs: { scope: 'request', default: 10_000, min: 1, unit: 'ms', env: 'OPENWOP_REQUEST_TIMEOUT_MS', bounds: 'time to receive a whole request (headers and body)', whenExceeded: '408 `request_timeout`, then close' },
  headersTimeoutMs: { scope: 'request', default: 5_000, min: 1, unit: 'ms', env: 'OPENWOP_HEADERS_TIMEOUT_MS', bounds: 'time to receive the request headers (at most requestTimeoutMs)', whenExceeded: '408 `request_timeout`, then close' },
  keepAliveTimeoutMs: { scope: 'request', default: 5_000, min: 1, unit: 'ms', env: 'OPENWOP_KEEP_ALIVE_TIMEOUT_MS', bounds: 'idle time of a kept-alive connection between requests', whenExceeded: 'the socket is closed' },
  connectionTimeoutMs: { scope: 'request', default: 60_000, min: 1, unit: 'ms', env: 'OPENWOP_CONNECTION_TIMEOUT_MS', bounds: 'inactivity of a socket while a request is handled (at least requestTimeoutMs; a backstop)', whenExceeded: 'the socket is closed' },
  maxRequestsPerSocket: { scope: 'request', default: 1_000, min: 1, unit: 'count', env: 'OPENWOP_MAX_REQUESTS_PER_SOCKET', bounds: 'requests served on one kept-alive connection', whenExceeded: 'the last answer says `Connection: close` and the connection closes after it; a request pipelined past it is neither run nor answered (the client sends it again on a new connection)' },
  bodyLimitBytes: { scope: 'request', default: 1_048_576, min: 1, unit: 'bytes', env: 'OPENWOP_BODY_LIMIT_BYTES', bounds: 'request body size', whenExceeded: '413 `payload_too_large`' },
  maxHeaderBytes: { scope: 'request', default: 16_384, min: 1_024, unit: 'bytes', env: 'OPENWOP_MAX_HEADER_BYTES', bounds: 'request line and headers together', whenExceeded: '431 `bad_request`, then close' },
  maxJsonDepth: { scope: 'request', default: 64, min: 1, unit: 'levels', env: 'OPENWOP_MAX_JSON_DEPTH', bounds: 'nesting of arrays and objects in a JSON body', whenExceeded: '400 `bad_request`' },
  openQuestionsPerTenant: { scope: 'tenant', default: DEFAULT_QUESTION_LIMITS.maxOpenPerTenant, min: 1, unit: 'count', env: 'OPENWOP_OPEN_QUESTIONS_PER_TENANT', bounds: 'pending operator questions', whenExceeded: '429 `quota_exceeded` `{resource: "open-operator-questions"}`; nothing is opened' },
  retainedQuestionsPerTenant: { scope: 'tenant', default: DEFAULT_QUESTION_LIMITS.maxRetainedPerTenant, min: 1, unit: 'count', env: 'OPENWOP_RETAINED_QUESTIONS_PER_TENANT', bounds: 'ended (answered, timed out, cancelled, superseded) operator questions kept readable', whenExceeded: 'the oldest ended question is forgotten (reads as 404)' },
  distillSchedulesPerTenant: { scope: 'tenant', default: DEFAULT_MAX_SCHEDULES_PER_TENANT, min: 1, unit: 'count', env: 'OPENWOP_DISTILL_SCHEDULES_PER_TENANT', bounds: 'distillation schedules', whenExceeded: '429 `quota_exceeded` `{resource: "distillation-schedules"}`; nothing is stored' },
  fixturesPerTenant: { scope: 'tenant', default: DEFAULT_FIXTURES_PER_TENANT, min: 1, unit: 'count', env: 'OPENWOP_FIXTURES_PER_TENANT', bounds: 'fixtures of the multi-agent seams (escalation runs, cross-run TTL runs, replay fixtures): their runs, event logs, secret registries and entries', whenExceeded: 'the oldest fixture is retired (its runs read as unknown)' },
  liveRunsPerTenant: { scope: 'tenant', default: DEFAULT_SECRET_REGISTRY_LIMITS.maxLiveRunsPerTenant, min: 1, unit: 'count', env: 'OPENWOP_LIVE_RUNS_PER_TENANT', bounds: 'live run secret registries (SR-1; a claimed run counts, secrets or not)', whenExceeded: '429 `quota_exceeded` `{resource, limit, setting}`; nothing registered or written' },
  secretsPerRun: { scope: 'tenant', default: DEFAULT_SECRET_REGISTRY_LIMITS.maxSecretsPerRun, min: 1, unit: 'count', env: 'OPENWOP_SECRETS_PER_RUN', bounds: 'secrets one run registers', whenExceeded: '429 `quota_exceeded` `{resource, limit, setting}`; nothing registered' },
  secretCharsPerTenant: { scope: 'tenant', default: DEFAULT_SECRET_REGISTRY_LIMITS.maxSecretCharsPerTenant, min: 1, unit: 'count', env: 'OPENWOP_SECRET_CHARS_PER_TENANT', bounds: 'total length of a tenant\'s distinct live secret values', whenExceeded: '429 `quota_exceeded` `{resource, limit, setting}`; nothing registered' },
  secretRegistryIdleMs: { scope: 'tenant', default: DEFAULT_SECRET_REGISTRY_LIMITS.idleTtlMs, min: 1, unit: 'ms', env: 'OPENWOP_SECRET_REGISTRY_IDLE_MS', bounds: 'idle time after which a run\'s secret registry is dropped', whenExceeded: 'the registry is dropped (its run no longer counts)' },
  entriesPerMemoryRef: { scope: 'tenant', default: DEFAULT_MEMORY_BOUNDS.entriesPerMemoryRef, min: 1, unit: 'count', env: 'OPENWOP_ENTRIES_PER_MEMORY_REF', bounds: 'memory entries stored under one memoryRef (expired ones until they are purged)', whenExceeded: '429 `quota_exceeded` `{resource: "memory-entries"}`; nothing of the request is written' },
  memoryBytesPerTenant: { scope: 'tenant', default: DEFAULT_MEMORY_BOUNDS.bytesPerTenant, min: 1_024, unit: 'bytes', env: 'OPENWOP_MEMORY_BYTES_PER_TENANT', bounds: 'stored size of a tenant\'s memory entries', whenExceeded: '429 `quota_exceeded` `{resource: "memory-bytes"}`; nothing of the request is written' },
  runsPerTenant: { scope: 'tenant', default: DEFAULT_RUN_BOUNDS.runsPerTenant, min: 1, unit: 'count', env: 'OPENWOP_RUNS_PER_TENANT', bounds: 'runs a client started that have not ended (waiting on an interrupt, for instance)', whenExceeded: '429 `quota_exceeded` `{resource: "runs"}`; the run is not started' },
  forksPerTenant: { scope: 'tenant', default: DEFAULT_RUN_BOUNDS.forksPerTenant, min: 1, unit: 'count', env: 'OPENWOP_FORKS_PER_TENANT', bounds: 'live forks (each holds its snapshot against journal pruning); a fork ends after liveRunRetentionMs', whenExceeded: '429 `quota_exceeded` `{resource: "forks"}`; the fork is not made' },
  followUpRunsPerTenant: { scope: 'tenant', default: DEFAULT_RUN_BOUNDS.followUpRunsPerTenant, min: 1, unit: 'count', env: 'OPENWOP_FOLLOW_UP_RUNS_PER_TENANT', bounds: 'follow-up runs of fired commitments not taken up (each retires after liveRunRetentionMs)', whenExceeded: 'the commitment waits, armed, until runs retire (it fires once, later)' },
  endedRunsPerTenant: { scope: 'tenant', default: DEFAULT_RUN_BOUNDS.endedRunsPerTenant, min: 1, unit: 'count', env: 'OPENWOP_ENDED_RUNS_PER_TENANT', bounds: 'ended runs kept readable (with their logs) until runRetentionMs', whenExceeded: 'the oldest ended run is retired (reads as unknown)' },
  eventsPerRun: { scope: 'tenant', default: DEFAULT_EVENT_LOG_LIMITS.eventsPerRun, min: 16, unit: 'count', env: 'OPENWOP_EVENTS_PER_RUN', bounds: 'events one run\'s log holds (a tenant\'s background log keeps its newest 10,000 instead)', whenExceeded: '429 `quota_exceeded` `{resource: "events-per-run"}`; nothing of the request is written' },
  armedCommitmentsPerTenant: { scope: 'tenant', default: DEFAULT_MAX_ARMED_PER_TENANT, min: 1, unit: 'count', env: 'OPENWOP_ARMED_COMMITMENTS_PER_TENANT', bounds: 'armed standing commitments (the fired ledger keeps at most 100,000 per tenant, for good: fire-once is forever)', whenExceeded: '429 `quota_exceeded` `{resource: "armed-commitments"}`; nothing of the request is written' },
  proposalsPerTenant: { scope: 'tenant', default: DEFAULT_PROPOSALS_PER_TENANT, min: 1, unit: 'count', env: 'OPENWOP_PROPOSALS_PER_TENANT', bounds: 'RFC 0096 proposals (kept for audit, whatever their state)', whenExceeded: '429 `quota_exceeded` `{resource: "proposals"}`; the proposal is not stored' },
  snapshotRetentionMs: { scope: 'host', default: DEFAULT_SNAPSHOT_RETENTION_MS, min: 1_000, unit: 'ms', env: 'OPENWOP_SNAPSHOT_RETENTION_MS', bounds: 'the replay journal (the memory before-images a fork reads): records older than this are pruned, never past a live fork\'s anchor', whenExceeded: 'a fork from before the window: 422 `replay_memory_snapshot_unavailable` (`retention_expired`)' },
  runRetentionMs: { scope: 'host', default: DEFAULT_RUN_RETENTION_MS, min: 1_000, unit: 'ms', env: 'OPENWOP_RUN_RETENTION_MS', bounds: 'ended runs and their logs, and the once-only claims of their work', whenExceeded: 'the run is retired (reads as unknown)' },
  inquiryRetentionMs: { scope: 'host', default: DEFAULT_INQUIRY_RETENTION_MS, min: 1_000, unit: 'ms', env: 'OPENWOP_INQUIRY_RETENTION_MS', bounds: 'Inquirium transcript facts and turn traces (P066): older ones are removed from the store', whenExceeded: 'the fact or trace is gone (a transcript query no longer lists it)' },
  liveRunRetentionMs: { scope: 'host', default: DEFAULT_SNAPSHOT_RETENTION_MS, min: 1_000, unit: 'ms', env: 'OPENWOP_LIVE_RUN_RETENTION_MS', bounds: 'forks and follow-up runs nobody took up', whenExceeded: 'the run is retired (a fork\'s snapshot is released)' },
} as const satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof LIMITS;
export type HostLimits = { readonly [K in LimitName]: number };

export const LIMIT_NAMES = Object.keys(LIMITS) as LimitName[];
export const DEFAULT_LIMITS: HostLimits = Object.fromEntries(LIMIT_NAMES.map((n) => [n, LIMITS[n].default])) as HostLimits;

/** The defaults with `overrides` applied, each checked (an integer ≥ its minimum) and checked against the others. */
export function resolveLimits(overrides: Partial<HostLimits> = {}): HostLimits {
  for (const name of Object.keys(overrides)) {
    if (!(name in LIMITS)) throw new RangeError(`unknown host limit ${name}`);
  }
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  for (const name of LIMIT_NAMES) {
    const v = limits[name];
    if (!Number.isSafeInteger(v) || v < LIMITS[name].min) throw new RangeError(`host limit ${name} must be an integer of at least ${LIMITS[name].min}, got ${v}`);
  }
  // Node refuses a headers timeout above the request timeout; an idle-socket backstop below it would close the
  // socket silently before the 408 could be sent. Derived here rather than surprising the operator at listen time.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new RangeError('host limit headersTimeoutMs must not exceed requestTimeoutMs');
  const connectionTimeoutMs = Math.max(limits.connectionTimeoutMs, limits.requestTimeoutMs + 1_000);
  return { ...limits, connectionTimeoutMs };
}

/** A limit's value as the docs write it: `10 s`, `30 min`, `1 MiB`, `64 levels`, `1000`. */
export function formatLimit(value: number, unit: LimitSpec['unit']): string {
  if (unit === 'ms') return value % 60_000 === 0 ? `${value / 60_000} min` : value % 1000 === 0 ? `${value / 1000} s` : `${value} ms`;
  if (unit === 'bytes') return value % 1_048_576 === 0 ? `${value / 1_048_576} MiB` : value % 1024 === 0 ? `${value / 1024} KiB` : `${value} B`;
  return unit === 'levels' ? `${value} levels` : String(value);
}

/** The limits set in `env` (by each limit's variable); a set variable that is not an integer is refused by name. */
export function limitsFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<HostLimits> {
  const out: Partial<Record<LimitName, number>> = {};
  for (const name of LIMIT_NAMES) {
    const raw = env[LIMITS[name].env];
    if (raw === undefined || raw === '') continue;
    if (!/^\d+$/.test(raw)) throw new RangeError(`${LIMITS[name].env} must be a non-negative integer, got ${JSON.stringify(raw.slice(0, 40))}`);
    out[name] = Number(raw);
  }
  return out;
}

/**
 * How often Node checks the request and headers timeouts (`connectionsCheckingInterval`): a fifth of the shorter
 * one, between 10 ms and 1 s, so a timed-out request is answered close to its limit (Node's own default, 30 s,
 * would let a 300 ms limit wait 30 s).
 */
export const timeoutCheckIntervalMs = (l: HostLimits): number => Math.min(1_000, Math.max(10, Math.floor(Math.min(l.headersTimeoutMs, l.requestTimeoutMs) / 5)));

/** Whether a JSON text nests arrays/objects deeper than `maxDepth` (a linear scan that skips string contents). */
export function jsonDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
