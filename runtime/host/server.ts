/**
 * The reference host: a Fastify server over the OpenWOP and Inquirium runtimes.
 *
 * Why Fastify: a small, maintained, fast framework with a strict JSON body parser, body limits, content-type
 * handling and structured (pino) logging built in — everything this host needs, and nothing it would have to
 * reimplement on node:http.
 *
 * Every error is the envelope `{error, message, details?}` with a 4xx status for anything the client did wrong;
 * auth is a Bearer API key bound to a role and a tenant (auth.ts, auth-binding.ts); request bodies are JSON only
 * and capped.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createInquiriumRuntime, type InquiriumRuntime } from '../inquirium/index.ts';
import { createOpenwopRuntime, type OpenwopRuntime } from '../openwop/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { WOPKIT_VERSION } from '../shared/version.ts';
import { Credentials, CredentialsError, devTokenEntry, MIN_KEY_LENGTH } from './auth.ts';
import { installAuth } from './auth-binding.ts';
import { classify, sendError } from './errors.ts';
import { hostLogger } from './logging.ts';
import type { HostRuntime } from './host-runtime.ts';
import { withMutations, type HostMutations } from './mutants.ts';
import { createHostRuntime } from './reference-runtime.ts';
import { registerDiscovery } from './routes/discovery.ts';
import { registerInquirium } from './routes/inquirium.ts';
import { registerMemorySeams } from './routes/memory-seams.ts';
import { registerMultiAgentSeams } from './routes/multi-agent-seams.ts';
import { registerRuns } from './routes/runs.ts';
import { registerDistillSchedules } from './routes/distill-schedules.ts';
import { ROUTES } from './seam-catalogue.ts';

export const HOST_NAME = 'wopkit-reference-host';
export const HOST_VERSION = WOPKIT_VERSION;
export const DEFAULT_BODY_LIMIT = 1_048_576;

export interface HostOptions {
  /** The API keys the host accepts (runtime/host/auth.ts): tenant keys bound to one tenant, operator keys. */
  readonly credentials?: Credentials;
  /** A development token: one more operator key (at least 16 characters). At least one of the two is required. */
  readonly token?: string;
  readonly bodyLimit?: number;
  readonly logger?: FastifyServerOptions['logger'];
  readonly clock?: Clock;
  readonly ids?: IdSource;
  /** Deliberately broken behaviours (tests only, see mutants.ts). */
  readonly mutations?: HostMutations;
  readonly openwop?: OpenwopRuntime;
  readonly inquirium?: InquiriumRuntime;
  /**
   * Run due distillation schedules in the background every this many ms (`npm start` uses 1000). Off when absent:
   * tests drive schedules through the tick seam.
   */
  readonly scheduleTickMs?: number;
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

export async function createHost(o: HostOptions): Promise<{ app: FastifyInstance; runtime: HostRuntime }> {
  const credentials = credentialsOf(o);
  if (o.scheduleTickMs !== undefined && !(Number.isInteger(o.scheduleTickMs) && o.scheduleTickMs >= 100)) throw new RangeError('scheduleTickMs must be an integer of at least 100');
  const openwop = o.openwop ?? createOpenwopRuntime({ host: { name: HOST_NAME, version: HOST_VERSION }, ...(o.clock ? { clock: o.clock } : {}), ...(o.ids ? { ids: o.ids } : {}) });
  const inquirium = o.inquirium ?? createInquiriumRuntime({ ...(o.clock ? { clock: o.clock } : {}), ...(o.ids ? { ids: o.ids } : {}) });
  await inquirium.certifyBaseline();
  openwop.capabilities.contribute('inquirium', {
    inquirium: {
      generate: { supported: true, localities: ['local_only'], endpoint: ROUTES.inquiriumGenerate.path, baselineAssistant: inquirium.baselineRuntimes().length > 0 },
      operatorQuestions: { supported: true, widgetKinds: ['single-choice', 'multi-choice', 'confirm', 'free-text-with-allowlist'], respondEndpoint: ROUTES.inquiriumRespond.path },
    },
  });
  const runtime = withMutations(createHostRuntime(openwop, inquirium), openwop, o.mutations);

  const app = Fastify({
    logger: hostLogger(o.logger),
    bodyLimit: o.bodyLimit ?? DEFAULT_BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    // Malformed HTTP (bad framing, header overflow, bad Content-Length) never reaches a route: answer it with the
    // envelope too, then close the socket.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return void socket.destroy();
      const [status, code, reason] = err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'bad_request', 'Request Header Fields Too Large']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'bad_request', 'Request Timeout'] : [400, 'bad_request', 'Bad Request'];
      const body = JSON.stringify({ error: code, message: status === 431 ? 'request headers are too large' : status === 408 ? 'request timed out' : 'malformed HTTP request' });
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    },
  });
  // JSON only: drop Fastify's built-in text/plain parser so any other media type is a 415.
  app.removeContentTypeParser('text/plain');

  installAuth(app, credentials, runtime);
  app.setNotFoundHandler((req, reply) => sendError(reply, 'not_found', `no route ${req.method} ${req.url.split('?')[0]!.slice(0, 200)}`));
  app.setErrorHandler((err, req, reply) => {
    const c = classify(err);
    if (c.code === 'internal_error') req.log.error({ err }, 'unhandled error');
    else req.log.info({ code: c.code }, 'request refused');
    return sendError(reply, c.code, c.message, c.details);
  });

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
  registerMultiAgentSeams(app, runtime);
  registerDistillSchedules(app, runtime);
  registerInquirium(app, runtime);
  for (const [url, methods] of [...served]) {
    const allow = [...methods].filter((m) => m !== 'HEAD').sort().join(', ');
    const others = (['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const).filter((m) => !methods.has(m));
    if (others.length > 0) {
      app.route({ method: [...others], url, handler: async (req, reply) => sendError(reply.header('allow', allow), 'method_not_allowed', `${req.method} is not allowed here; use ${allow}`) });
    }
  }
  const scheduler = runtime.distillationScheduler();
  if (o.scheduleTickMs !== undefined && scheduler !== undefined) {
    const timer = setInterval(() => {
      try {
        for (const r of scheduler.tick()) app.log.info({ scheduleId: r.scheduleId, outcome: r.kind, missed: r.missed }, 'scheduled distillation ran');
      } catch (err) {
        app.log.error({ err }, 'scheduled distillation failed');
      }
    }, o.scheduleTickMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  await app.ready();
  return { app, runtime };
}
