/**
 * The reference host: a Fastify server over the OpenWOP and Inquirium runtimes, on a store.
 *
 * Why Fastify: a small, maintained, fast framework with a strict JSON body parser, body limits, content-type
 * handling and structured (pino) logging built in — everything this host needs, and nothing it would have to
 * reimplement on node:http.
 *
 * Every error is the envelope `{error, message, details?}` with a 4xx status for anything the client did wrong;
 * auth is a Bearer API key bound to a role and a tenant (auth.ts, auth-binding.ts); request bodies are JSON only
 * and capped. Every socket, parser and body limit is set explicitly from the one limits table (limits.ts), never
 * left at a framework default.
 *
 * The host keeps no state of its own: every request reads what it needs from the store and commits its writes
 * before it answers (host-runtime.ts), and the background work claims what it does in the store
 * (background.ts) — so any number of hosts on one database serve every request (docs/storage.md).
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ErrorCode } from '../../generated/ts/index.ts';
import { createInquiriumRuntime } from '../inquirium/index.ts';
import { createOpenwopRuntime, type OpenwopRuntimeOptions } from '../openwop/index.ts';
import type { SecretKeyRing } from '../redaction/sealing.ts';
import { openMemoryStore, unitsOf, type StoragePort, type StoreCorruptError, type Units } from '../storage/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { systemClock } from '../shared/clock.ts';
import { WOPKIT_VERSION } from '../shared/version.ts';
import { Credentials, CredentialsError, devTokenEntry, MIN_KEY_LENGTH } from './auth.ts';
import { installAuth } from './auth-binding.ts';
import { BackgroundWork, type BackgroundReport } from './background.ts';
import { classify, HttpError, sendError } from './errors.ts';
import { hostLogger } from './logging.ts';
import type { HostRuntime } from './host-runtime.ts';
import { withMutations, type HostMutations } from './mutants.ts';
import { createHostRuntime } from './reference-runtime.ts';
import { withWorkflowRuns } from './workflow-runs.ts';
import { registerDiscovery } from './routes/discovery.ts';
import { signingKeysMembers, type PublishedSigningKey } from './signing-keys.ts';
import { registerHealth, type Readiness } from './routes/health.ts';
import { FleetCredentialsError, joinFleet, type HostCredentials } from './fleet-credentials.ts';
import { WIDGET_KINDS } from '../inquirium/widget-kinds.ts';
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
import { routeValidatorCompiler } from './route-validation.ts';
import { installMethodForms, registerMethodAnswers } from './method-answers.ts';
import type { ProposalActivationPolicy } from '../proposals/service.ts';
import { capRequestsPerConnection } from './connection-cap.ts';
import { DEFAULT_LIMITS, jsonDeeperThan, resolveLimits, timeoutCheckIntervalMs, type HostLimits } from './limits.ts';

export const HOST_NAME = 'wopkit-reference-host';
export const HOST_VERSION = WOPKIT_VERSION;
/** The default request body limit (1 MiB); `limits.bodyLimitBytes` (limits.ts) sets it. */
export const DEFAULT_BODY_LIMIT = DEFAULT_LIMITS.bodyLimitBytes;

export interface HostOptions {
  /** Public keys published as discovery `signingKeys[]` (the credentials file's "signingKeys"; signing-keys.ts). */
  readonly signingKeys?: readonly PublishedSigningKey[];
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
  /**
   * Seed the conformance fixture workflows (discovery `fixtures`, POST /v1/runs): `npm start` does when
   * OPENWOP_CONFORMANCE_SEED=true. Seeding is recorded in the store and idempotent across hosts.
   */
  readonly seedConformanceFixtures?: boolean;
  /** RFC 0057 write attribution: memory.written on every write and `memory.attribution` in discovery (default true). */
  readonly memoryAttribution?: boolean;
  /**
   * Run the background work (due commitments, schedules, question deadlines, retention) on its own; the longest an
   * idle host sleeps between looks at its agenda, in ms (`npm start` uses 1000). Off when absent: tests drive the
   * work through `background.runOnce()` and the seams.
   */
  readonly backgroundIdleMs?: number;
  /**
   * The store (runtime/storage/open-store.ts) everything the host keeps lives in; the host closes it with the app.
   * Absent: a private in-memory store (tests).
   */
  readonly storage?: StoragePort;
  /** The keys SR-1 secret registries are sealed with (absent: a random key; registries then do not survive a restart). */
  readonly secretKeys?: SecretKeyRing;
  /** The key list cursors are signed with (hosts on one store must share it; absent: a random one). */
  readonly cursorKey?: Buffer | readonly Buffer[];
  /** How applying an RFC 0096 proposal is authorised (default: an approval gate). */
  readonly proposalActivation?: ProposalActivationPolicy;
  /**
   * Which optional OpenWOP modules the host wires (each default true); an unwired module is neither advertised in
   * discovery nor served (its seams answer 501 `capability_not_provided`).
   */
  readonly modules?: Readonly<Pick<OpenwopRuntimeOptions, 'compaction' | 'distillation' | 'scheduledDistillation'>>;
  /** Called once if the store finds its data corrupt (`npm start` prints one line and exits 2); the host then answers 503. */
  readonly onFatal?: (err: StoreCorruptError) => void;
  /**
   * Called once if a credentials rotation of the fleet finishes without this host's credentials (seen by the
   * background work; fleet-credentials.ts): the host then answers 503 to everything but /livez (`npm start` stops).
   */
  readonly onRetired?: () => void;
}

/** A fleet host's keys: every one must be given (a key one host made up would be unknown to the others). */
function fleetKeysOf(o: HostOptions, credentials: Credentials): HostCredentials {
  if (o.secretKeys === undefined || o.secretKeys.ephemeral || o.cursorKey === undefined) {
    throw new FleetCredentialsError('a host on PostgreSQL needs secretKeys and cursorKey, the same on every host of the database (a key one host made up would leave the others unable to read what it wrote)');
  }
  return { credentials, secretKeys: o.secretKeys, cursorKey: o.cursorKey };
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

/** The longest path segment the router matches as a parameter (a longer one is a 400). */
export const MAX_PARAM_LENGTH = 512;

/** Node's client error codes → (status, reason phrase, envelope code, message); anything else is malformed HTTP. */
type ClientErrorAnswer = readonly [number, string, ErrorCode, string];
const MALFORMED: ClientErrorAnswer = [400, 'Bad Request', 'bad_request', 'malformed HTTP request'];
const CLIENT_ERRORS: Readonly<Record<string, ClientErrorAnswer>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'bad_request', 'request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request_timeout', 'request timed out'],
};

/** What `createHost` gives: the app, the runtime behind its routes, the background work, and how to drain it. */
export interface Host {
  readonly app: FastifyInstance;
  readonly runtime: HostRuntime;
  readonly background: BackgroundWork;
  readonly store: StoragePort;
  /** Stop taking requests (/readyz answers 503), let those in flight finish, stop the background work. */
  drain(): Promise<void>;
}

export async function createHost(o: HostOptions): Promise<Host> {
  const credentials = credentialsOf(o);
  if (o.backgroundIdleMs !== undefined && !(Number.isInteger(o.backgroundIdleMs) && o.backgroundIdleMs >= 10)) throw new RangeError('backgroundIdleMs must be an integer of at least 10');
  const limits = resolveLimits({ ...(o.bodyLimit !== undefined ? { bodyLimitBytes: o.bodyLimit } : {}), ...o.limits });
  const store = o.storage ?? (await openMemoryStore());
  const clock = o.clock ?? systemClock;
  // Hosts sharing a PostgreSQL database are one fleet: one set of credentials between them (fleet-credentials.ts).
  const fleetFingerprint = store.kind === 'postgres' ? await joinFleet(store, fleetKeysOf(o, credentials), clock.now()) : undefined;
  const openwop = createOpenwopRuntime({
    port: store,
    host: { name: HOST_NAME, version: HOST_VERSION },
    distillSchedulesPerTenant: limits.distillSchedulesPerTenant,
    secretRegistries: { maxLiveRunsPerTenant: limits.liveRunsPerTenant, maxSecretsPerRun: limits.secretsPerRun, maxSecretCharsPerTenant: limits.secretCharsPerTenant, idleTtlMs: limits.secretRegistryIdleMs },
    memoryBounds: { entriesPerMemoryRef: limits.entriesPerMemoryRef, bytesPerTenant: limits.memoryBytesPerTenant },
    runBounds: { runsPerTenant: limits.runsPerTenant, forksPerTenant: limits.forksPerTenant, followUpRunsPerTenant: limits.followUpRunsPerTenant, endedRunsPerTenant: limits.endedRunsPerTenant },
    eventLimits: { eventsPerRun: limits.eventsPerRun },
    armedCommitmentsPerTenant: limits.armedCommitmentsPerTenant,
    proposalsPerTenant: limits.proposalsPerTenant,
    ...(o.secretKeys !== undefined ? { secretKeys: o.secretKeys } : {}),
    ...(o.cursorKey !== undefined ? { cursorKey: o.cursorKey } : {}),
    ...(o.proposalActivation !== undefined ? { proposalActivation: o.proposalActivation } : {}),
    ...o.modules,
    ...(o.memoryAttribution !== undefined ? { memoryAttribution: o.memoryAttribution } : {}),
    clock, ...(o.ids ? { ids: o.ids } : {}),
  });
  const inquirium = createInquiriumRuntime({
    port: store,
    questionLimits: { maxOpenPerTenant: limits.openQuestionsPerTenant, maxRetainedPerTenant: limits.retainedQuestionsPerTenant },
    clock, ...(o.ids ? { ids: o.ids } : {}),
  });
  await inquirium.certifyBaseline();
  openwop.capabilities.contribute('inquirium', {
    inquirium: {
      generate: { supported: true, localities: ['local_only'], endpoint: ROUTES.inquiriumGenerate.path, baselineAssistant: inquirium.baselineRuntimes().length > 0 },
      operatorQuestions: { supported: true, widgetKinds: WIDGET_KINDS.map((w) => w.kind), respondEndpoint: ROUTES.inquiriumRespond.path },
    },
  });
  // The route that answers an escalation's interrupt is this host's (routes/workflow-runs.ts).
  openwop.capabilities.contribute('interrupt-resolve', { multiAgent: { executionModel: { supported: true, interruptResolveEndpoint: ROUTES.runInterruptResolve.path } } });
  const runtime = withWorkflowRuns(withMutations(createHostRuntime(openwop, inquirium, { fixturesPerTenant: limits.fixturesPerTenant }), openwop, o.mutations), openwop);
  if (o.seedConformanceFixtures === true) await runtime.seedFixtures();

  const readiness: Readiness = { draining: false };
  const app = createApp(o, credentials, limits, runtime, readiness, unitsOf(openwop.port));
  const background = new BackgroundWork({
    openwop, inquirium, clock,
    retention: { snapshotMs: limits.snapshotRetentionMs, endedRunMs: limits.runRetentionMs, liveRunMs: limits.liveRunRetentionMs, inquiryMs: limits.inquiryRetentionMs },
    ...(o.backgroundIdleMs !== undefined ? { idleMs: o.backgroundIdleMs } : {}),
    ...(fleetFingerprint !== undefined ? {
      fleet: {
        fingerprint: fleetFingerprint,
        onRetired: () => {
          readiness.retired = true;
          app.log.error('a rotation of the fleet\'s credentials finished without this host\'s: it serves nothing more');
          o.onRetired?.();
        },
      },
    } : {}),
    onReport: (report: BackgroundReport) => app.log.debug({ report }, 'background work'),
    onError: (err) => app.log.error({ err }, 'background work failed'),
  });
  store.onFatal((err) => {
    app.log.error({ err }, 'the store is corrupt');
    o.onFatal?.(err);
  });
  const drain = async () => {
    readiness.draining = true;
    await background.stop();
  };
  app.addHook('onClose', async () => {
    await drain();
    await store.close();
  });
  await app.ready();
  if (o.backgroundIdleMs !== undefined) background.start();
  return { app, runtime, background, store, drain };
}

/**
 * The Fastify app: limits, parsers, auth, health and every route, over `runtime`; `units` opens the one unit of work
 * of each request (route-helpers.ts `serve`, the request boundary).
 */
function createApp(o: HostOptions, credentials: Credentials, limits: HostLimits, runtime: HostRuntime, readiness: Readiness, units: Units): FastifyInstance {
  const app = Fastify({
    logger: hostLogger(o.logger),
    bodyLimit: limits.bodyLimitBytes,
    // A whole request (headers and body) must arrive within requestTimeoutMs, its headers within headersTimeoutMs:
    // a client that sends fewer bytes than its Content-Length gets a 408 (clientErrorHandler below), then a close.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: timeoutCheckIntervalMs(limits),
      maxHeaderSize: limits.maxHeaderBytes,
    },
    // A request target the router cannot read (a malformed percent escape, a path segment past maxParamLength) is
    // answered with the envelope, and only after the key: without a valid one it is a 401 like any other request (but
    // OPTIONS, which needs no key).
    frameworkErrors: (err, req, reply) => {
      if (req.method !== 'OPTIONS' && credentials.authenticate(req.headers.authorization) === undefined) return sendError(reply, 'unauthorized', 'a valid Bearer token is required');
      const tooLong = (err as { code?: string }).code === 'FST_ERR_MAX_PARAM_LENGTH';
      return sendError(reply, 'bad_request', tooLong ? `a path segment is longer than ${MAX_PARAM_LENGTH} characters` : 'the request target is not a valid URL (a malformed percent escape)');
    },
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // A closing host answers with the envelope (the hook below), not Fastify's own 503 body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
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
  capRequestsPerConnection(app, limits.maxRequestsPerSocket);

  // A draining host closes each connection after the answer it is sending (a stop waits for open connections, not
  // only for requests in flight).
  app.addHook('onSend', async (_req, reply, payload) => {
    if (readiness.draining) reply.header('connection', 'close');
    return payload;
  });
  // A closing host (app.close() called) answers what still arrives on open connections with the envelope's 503 and
  // Retry-After, then closes the connection: another host of the fleet, or this one restarted, takes it.
  app.addHook('preClose', (done) => {
    readiness.closing = true;
    done();
  });
  app.addHook('onRequest', async (req, reply) => {
    if (readiness.closing !== true) return;
    reply.header('retry-after', '1').header('connection', 'close');
    await sendError(reply, 'runner_unavailable', 'this host is shutting down');
  });
  // A host whose credentials a rotation retired serves nothing but /livez and /readyz (both say so).
  app.addHook('onRequest', async (req, reply) => {
    if (readiness.retired !== true || req.url === ROUTES.liveness.path || req.url === ROUTES.readiness.path) return;
    reply.header('retry-after', '1');
    await sendError(reply, 'runner_unavailable', "this host's credentials were retired by a rotation of its fleet's credentials");
  });
  app.decorate('units', units);
  installAuth(app, credentials, runtime);
  app.setNotFoundHandler((req, reply) => sendError(reply, 'not_found', `no route ${req.method} ${req.url.split('?')[0]!.slice(0, 200)}`));
  app.setErrorHandler((err, req, reply) => {
    const c = classify(err);
    if (c.code === 'internal_error') req.log.error({ err }, 'unhandled error');
    else req.log.info({ code: c.code }, 'request refused');
    // A request the host could not complete now (its store cannot take writes, a lock not granted in time): retry later.
    if (c.code === 'runner_unavailable') reply.header('retry-after', String((c.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds ?? 1));
    return sendError(reply, c.code, c.message, c.details);
  });

  // Every route is checked by Fastify from its row before any handler runs (route-validation.ts).
  app.setValidatorCompiler(routeValidatorCompiler(Object.values(ROUTES)));
  // A request in the other form of a shared router path (POST /v1/runs/r1 on the fork row) is a 405 (method-answers.ts).
  installMethodForms(app, Object.values(ROUTES));
  registerHealth(app, runtime, readiness);
  registerDiscovery(app, runtime, signingKeysMembers(o.signingKeys ?? []));
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
  registerMethodAnswers(app, Object.values(ROUTES));
  return app;
}

