/**
 * The reference host: a Fastify server over the OpenWOP and Inquirium runtimes.
 *
 * Why Fastify: a small, maintained, fast framework with a strict JSON body parser, body limits, content-type
 * handling and structured (pino) logging built in — everything this host needs, and nothing it would have to
 * reimplement on node:http.
 *
 * Every error is the envelope `{error, message, details?}` with a 4xx status for anything the client did wrong;
 * auth is a Bearer API key bound to a role and a tenant (auth.ts, auth-binding.ts); request bodies are JSON only
 * and capped. Every socket, parser and body limit is set explicitly from the one limits table (limits.ts), never
 * left at a framework default.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ErrorCode } from '../../generated/ts/index.ts';
import { createInquiriumRuntime, type InquiriumRuntime } from '../inquirium/index.ts';
import { createOpenwopRuntime, type OpenwopRuntime } from '../openwop/index.ts';
import { openwopDurability } from '../openwop/durable.ts';
import type { StoragePort } from '../storage/port.ts';
import { attachQuestions, DurableTraceStream } from './inquirium-durable.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { WOPKIT_VERSION } from '../shared/version.ts';
import { Credentials, CredentialsError, devTokenEntry, MIN_KEY_LENGTH } from './auth.ts';
import { installAuth } from './auth-binding.ts';
import { classify, HttpError, sendError } from './errors.ts';
import { hostLogger } from './logging.ts';
import type { HostRuntime } from './host-runtime.ts';
import { withMutations, type HostMutations } from './mutants.ts';
import { createHostRuntime } from './reference-runtime.ts';
import { withWorkflowRuns } from './workflow-runs.ts';
import { registerDiscovery } from './routes/discovery.ts';
import { registerInquirium } from './routes/inquirium.ts';
import { registerMemorySeams } from './routes/memory-seams.ts';
import { registerMultiAgentSeams } from './routes/multi-agent-seams.ts';
import { registerRuns } from './routes/runs.ts';
import { registerWorkflowRuns } from './routes/workflow-runs.ts';
import { registerMemoryRead } from './routes/memory-read.ts';
import { registerTestMemorySeams } from './routes/test-memory-seams.ts';
import { registerDistillSchedules } from './routes/distill-schedules.ts';
import { registerAgents } from './routes/agents.ts';
import { registerProposals } from './routes/proposals.ts';
import { ROUTES } from './seam-catalogue.ts';
import type { ProposalActivationPolicy } from '../proposals/service.ts';
import { connectionCapResponse, markDroppedRequests } from './connection-cap.ts';
import { DEFAULT_LIMITS, jsonDeeperThan, resolveLimits, timeoutCheckIntervalMs, type HostLimits } from './limits.ts';
import { clusterMember, StandbyGate, standbyRuntime, type ClusterMember, type ClusterOptions } from './cluster/standby.ts';

export const HOST_NAME = 'wopkit-reference-host';
export const HOST_VERSION = WOPKIT_VERSION;
/** The default request body limit (1 MiB); `limits.bodyLimitBytes` (limits.ts) sets it. */
export const DEFAULT_BODY_LIMIT = DEFAULT_LIMITS.bodyLimitBytes;

export interface HostOptions {
  /** The API keys the host accepts (runtime/host/auth.ts): tenant keys bound to one tenant, operator keys. */
  readonly credentials?: Credentials;
  /** A development token: one more operator key (at least 16 characters). At least one of the two is required. */
  readonly token?: string;
  /** Request handling limits and per-tenant bounds by name (limits.ts); each absent one keeps its default. */
  readonly limits?: Partial<HostLimits>;
  /** Shorthand for `limits.bodyLimitBytes`. */
  readonly bodyLimit?: number;
  readonly logger?: FastifyServerOptions['logger'];
  readonly clock?: Clock;
  readonly ids?: IdSource;
  /** Deliberately broken behaviours (tests only, see mutants.ts). */
  readonly mutations?: HostMutations;
  readonly openwop?: OpenwopRuntime;
  readonly inquirium?: InquiriumRuntime;
  /**
   * Seed the conformance fixture workflows (discovery `fixtures`, POST /v1/runs): `npm start` does when
   * OPENWOP_CONFORMANCE_SEED=true. Seeding is idempotent.
   */
  readonly seedConformanceFixtures?: boolean;
  /**
   * Run due distillation schedules in the background every this many ms (`npm start` uses 1000). Off when absent:
   * tests drive schedules through the tick seam.
   */
  readonly scheduleTickMs?: number;
  /**
   * The durable store (runtime/storage/open-store.ts): the host loads its working state from it at start, writes
   * every mutation through it, acknowledges a request only once its writes are committed, and closes it with the
   * app. Absent: everything stays in memory (tests). Cannot be combined with `openwop` (the host builds that runtime).
   */
  readonly storage?: StoragePort;
  /** How applying an RFC 0096 proposal is authorised on a runtime this host builds (default: an approval gate). */
  readonly proposalActivation?: ProposalActivationPolicy;
  /**
   * Share `storage` with other host processes (a store with a lease: PostgreSQL). The host then starts as a
   * standby that forwards every request to the active host, and becomes the active host itself — loading its
   * state from the store — once it holds the store's lease: call `cluster.start(url)` after `listen`
   * (runtime/host/cluster/, docs/storage.md "Several host processes on one database").
   */
  readonly cluster?: ClusterOptions;
}

/** The keys of `o`: its credentials, plus the development token as an operator key. */
function credentialsOf(o: HostOptions): Credentials {
  if (o.token === undefined) {
    if (o.credentials === undefined) throw new CredentialsError('createHost needs credentials or a token');
    return o.credentials;
  }
  if (o.token.length < MIN_KEY_LENGTH) throw new RangeError(`the host token must be at least ${MIN_KEY_LENGTH} characters`);
  const dev = devTokenEntry(o.token, 'the host token');
  return o.credentials === undefined ? new Credentials([dev]) : o.credentials.with(dev);
}

/** Node's client error codes → (status, reason phrase, envelope code, message); anything else is malformed HTTP. */
type ClientErrorAnswer = readonly [number, string, ErrorCode, string];
const MALFORMED: ClientErrorAnswer = [400, 'Bad Request', 'bad_request', 'malformed HTTP request'];
const CLIENT_ERRORS: Readonly<Record<string, ClientErrorAnswer>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'bad_request', 'request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request_timeout', 'request timed out'],
};

/** The runtimes a host serves from, built (and loaded from its store) by `buildRuntimes`. */
interface BuiltRuntimes {
  readonly runtime: HostRuntime;
  readonly openwop: OpenwopRuntime;
  /** What was loaded from the store (absent without one). */
  readonly loaded?: Record<string, unknown>;
}

export async function createHost(o: HostOptions): Promise<{ app: FastifyInstance; runtime: HostRuntime; cluster?: ClusterMember }> {
  const credentials = credentialsOf(o);
  if (o.scheduleTickMs !== undefined && !(Number.isInteger(o.scheduleTickMs) && o.scheduleTickMs >= 100)) throw new RangeError('scheduleTickMs must be an integer of at least 100');
  const limits = resolveLimits({ ...(o.bodyLimit !== undefined ? { bodyLimitBytes: o.bodyLimit } : {}), ...o.limits });
  if (o.storage !== undefined && (o.openwop !== undefined || o.inquirium !== undefined)) throw new RangeError('createHost: a store needs the runtimes the host builds; pass storage, or openwop/inquirium, not both');
  const lease = o.cluster === undefined ? undefined : o.storage?.lease?.();
  if (o.cluster !== undefined && lease === undefined) throw new RangeError(`createHost: cluster needs a store several processes can share (postgres), not ${o.storage?.kind ?? 'none'}`);

  let app: FastifyInstance;
  let runtime: HostRuntime;
  let cluster: ClusterMember | undefined;
  if (lease === undefined) {
    const built = await buildRuntimes(o, limits);
    runtime = built.runtime;
    app = createApp(o, credentials, limits, runtime, () => runtime.flush());
    const stopTicks = await startServing(app, o, built, limits);
    const storage = o.storage;
    app.addHook('onClose', async () => {
      stopTicks();
      if (storage === undefined) return;
      await built.runtime.flush().catch((err: unknown) => app.log.error({ err }, 'store write failed before close'));
      await storage.close();
    });
  } else {
    const standby = standbyRuntime();
    const gate = new StandbyGate();
    runtime = standby.runtime;
    // A standby has written nothing: its durability barrier holds at once.
    const flush = () => (standby.active ? standby.runtime.flush() : Promise.resolve());
    app = createApp(o, credentials, limits, runtime, flush, gate);
    cluster = clusterMember({
      app, gate, lease, options: o.cluster!, bodyLimitBytes: limits.bodyLimitBytes,
      activate: async () => {
        const built = await buildRuntimes(o, limits);
        standby.activate(built.runtime);
        return startServing(app, o, built, limits);
      },
      flush,
      closeStore: () => o.storage!.close(),
    });
  }
  await app.ready();
  return { app, runtime, ...(cluster !== undefined ? { cluster } : {}) };
}

/** Build the OpenWOP and Inquirium runtimes (loading the store's state when there is one) and the HostRuntime over them. */
async function buildRuntimes(o: HostOptions, limits: HostLimits): Promise<BuiltRuntimes> {
  const storage = o.storage;
  const durability = storage === undefined ? undefined : openwopDurability(storage);
  // Per-tenant bounds go to the runtimes this host builds; a runtime passed in keeps the bounds it was built with.
  const openwop = o.openwop ?? createOpenwopRuntime({
    host: { name: HOST_NAME, version: HOST_VERSION },
    distillSchedulesPerTenant: limits.distillSchedulesPerTenant,
    snapshotRetentionMs: limits.snapshotRetentionMs,
    ...(o.proposalActivation !== undefined ? { proposalActivation: o.proposalActivation } : {}),
    secretRegistries: { maxLiveRunsPerTenant: limits.liveRunsPerTenant, maxSecretsPerRun: limits.secretsPerRun, maxSecretCharsPerTenant: limits.secretCharsPerTenant, idleTtlMs: limits.secretRegistryIdleMs },
    ...(o.clock ? { clock: o.clock } : {}), ...(o.ids ? { ids: o.ids } : {}),
    ...(durability !== undefined ? { persistence: durability.persistence } : {}),
  });
  const restored = await durability?.attach(openwop);
  const traces = storage === undefined || durability === undefined ? undefined : await DurableTraceStream.open(storage, durability.queue);
  const inquirium = o.inquirium ?? createInquiriumRuntime({
    questionLimits: { maxOpenPerTenant: limits.openQuestionsPerTenant, maxRetainedPerTenant: limits.retainedQuestionsPerTenant },
    ...(o.clock ? { clock: o.clock } : {}), ...(o.ids ? { ids: o.ids } : {}),
    ...(traces !== undefined ? { traces } : {}),
  });
  const questionsLoaded = storage === undefined || durability === undefined ? 0 : await attachQuestions(inquirium.questions, storage, durability.queue);
  await inquirium.certifyBaseline();
  openwop.capabilities.contribute('inquirium', {
    inquirium: {
      generate: { supported: true, localities: ['local_only'], endpoint: ROUTES.inquiriumGenerate.path, baselineAssistant: inquirium.baselineRuntimes().length > 0 },
      operatorQuestions: { supported: true, widgetKinds: ['single-choice', 'multi-choice', 'confirm', 'free-text-with-allowlist'], respondEndpoint: ROUTES.inquiriumRespond.path },
    },
  });
  // The route that answers an escalation's interrupt is this host's (routes/workflow-runs.ts).
  openwop.capabilities.contribute('interrupt-resolve', { multiAgent: { executionModel: { supported: true, interruptResolveEndpoint: ROUTES.runInterruptResolve.path } } });
  const flush = durability === undefined ? undefined : () => durability.queue.flush();
  const runtime = withWorkflowRuns(withMutations(createHostRuntime(openwop, inquirium, { fixturesPerTenant: limits.fixturesPerTenant }, flush), openwop, o.mutations), { seed: o.seedConformanceFixtures === true });
  const loaded = restored === undefined ? undefined : { ...restored, questions: questionsLoaded, traces: inquirium.traces.all().length };
  return { runtime, openwop, ...(loaded !== undefined ? { loaded } : {}) };
}

/** The Fastify app: limits, parsers, auth, the durability barrier and every route, over `runtime`. */
function createApp(o: HostOptions, credentials: Credentials, limits: HostLimits, runtime: HostRuntime, flush: () => Promise<void>, gate?: StandbyGate): FastifyInstance {
  const app = Fastify({
    logger: hostLogger(o.logger),
    bodyLimit: limits.bodyLimitBytes,
    // A whole request (headers and body) must arrive within requestTimeoutMs, its headers within headersTimeoutMs:
    // a client that sends fewer bytes than its Content-Length gets a 408 (clientErrorHandler below), then a close.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    maxRequestsPerSocket: limits.maxRequestsPerSocket,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: timeoutCheckIntervalMs(limits),
      maxHeaderSize: limits.maxHeaderBytes,
      ServerResponse: connectionCapResponse(limits.maxRequestsPerSocket),
    },
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    // Malformed HTTP (bad framing, header overflow, bad Content-Length) never reaches a route: answer it with the
    // envelope too, then close the socket.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return void socket.destroy();
      const [status, reason, error, message] = CLIENT_ERRORS[err.code ?? ''] ?? MALFORMED;
      const body = JSON.stringify({ error, message });
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    },
  });
  // JSON only: drop Fastify's built-in text/plain parser so any other media type is a 415.
  app.removeContentTypeParser('text/plain');
  // Fastify's JSON parser (prototype-poisoning checks included), behind a nesting-depth check: no handler,
  // validator or serializer ever walks a body nested deeper than maxJsonDepth.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDeeperThan(body as string, limits.maxJsonDepth)) return done(new HttpError('bad_request', `request body nests deeper than ${limits.maxJsonDepth} levels`), undefined);
    return parseJson(req, body as string, done);
  });
  markDroppedRequests(app.server);

  installAuth(app, credentials, runtime);
  // A standby host forwards every authenticated request to the active host before anything else runs (cluster/standby.ts).
  gate?.install(app);
  app.setNotFoundHandler((req, reply) => sendError(reply, 'not_found', `no route ${req.method} ${req.url.split('?')[0]!.slice(0, 200)}`));
  app.setErrorHandler((err, req, reply) => {
    const c = classify(err);
    if (c.code === 'internal_error') req.log.error({ err }, 'unhandled error');
    else req.log.info({ code: c.code }, 'request refused');
    return sendError(reply, c.code, c.message, c.details);
  });

  // Durability barrier: no response leaves before the writes made so far are committed (a failed write is a 500).
  if (o.storage !== undefined) {
    app.addHook('onSend', async (req, reply, payload) => {
      try {
        await flush();
        return payload;
      } catch (err) {
        req.log.error({ err }, 'store write failed: answering 500');
        reply.code(500).header('content-type', 'application/json; charset=utf-8');
        return JSON.stringify({ error: 'internal_error', message: 'internal error' });
      }
    });
  }

  // Collect every served (path, method) so a known path with another method is a 405 with Allow, not a 404.
  const served = new Map<string, Set<string>>();
  app.addHook('onRoute', (r) => {
    const methods = served.get(r.url) ?? new Set<string>();
    for (const m of [r.method].flat()) methods.add(m);
    served.set(r.url, methods);
  });
  registerDiscovery(app, runtime);
  registerMemorySeams(app, runtime);
  registerRuns(app, runtime);
  registerWorkflowRuns(app, runtime);
  registerMemoryRead(app, runtime);
  registerTestMemorySeams(app, runtime);
  registerMultiAgentSeams(app, runtime);
  registerDistillSchedules(app, runtime);
  registerInquirium(app, runtime);
  registerAgents(app, runtime);
  registerProposals(app, runtime);
  for (const [url, methods] of [...served]) {
    const allow = [...methods].filter((m) => m !== 'HEAD').sort().join(', ');
    const others = (['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const).filter((m) => !methods.has(m));
    if (others.length > 0) {
      app.route({ method: [...others], url, handler: async (req, reply) => sendError(reply.header('allow', allow), 'method_not_allowed', `${req.method} is not allowed here; use ${allow}`) });
    }
  }
  return app;
}

/**
 * Start what the serving host runs besides its routes: the distillation ticks and the commitments that came due
 * while the host was down. Resolves with what stops the ticks (the caller hooks it, with closing the store, to the
 * app's close: hooks cannot be added once a cluster member's app is listening).
 */
async function startServing(app: FastifyInstance, o: HostOptions, { runtime, openwop, loaded }: BuiltRuntimes, limits: HostLimits): Promise<() => void> {
  const scheduler = runtime.distillationScheduler();
  let timer: NodeJS.Timeout | undefined;
  // The replay journal keeps records for snapshotRetentionMs (limits.ts): prune what fell out of the window, every
  // minute (or every retention period, when that is shorter), so a long-running host's journal stays bounded.
  const pruneTimer = setInterval(() => {
    const dropped = openwop.journal.prune();
    if (dropped > 0) {
      app.log.debug({ dropped }, 'replay journal pruned');
      runtime.flush().catch((err: unknown) => app.log.error({ err }, 'store write failed'));
    }
  }, Math.min(60_000, limits.snapshotRetentionMs));
  pruneTimer.unref();
  if (o.scheduleTickMs !== undefined && scheduler !== undefined) {
    timer = setInterval(() => {
      scheduler.tick().then(
        (ran) => {
          for (const r of ran) app.log.info({ scheduleId: r.scheduleId, outcome: r.kind, missed: r.missed }, 'scheduled distillation ran');
          runtime.flush().catch((err: unknown) => app.log.error({ err }, 'store write failed'));
        },
        (err: unknown) => app.log.error({ err }, 'scheduled distillation failed'),
      );
    }, o.scheduleTickMs);
    timer.unref();
  }
  const stop = () => {
    clearInterval(timer);
    clearInterval(pruneTimer);
  };
  if (o.storage !== undefined && loaded !== undefined) {
    app.log.info({ store: o.storage.kind, ...loaded }, 'store loaded');
    try {
      // Commitments that came due while the host was down fire now, once (the store's claim decides).
      const fired = await openwop.commitments.tick();
      await runtime.flush();
      if (fired.length > 0) app.log.info({ fired: fired.length }, 'commitments due while down fired');
    } catch (err) {
      stop();
      throw err;
    }
  }
  return stop;
}
