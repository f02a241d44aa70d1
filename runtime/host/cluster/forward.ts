/**
 * A standby host's request path: every authenticated request it receives is forwarded to the active host
 * (runtime/host/cluster/standby.ts), and the answer relayed unchanged.
 *
 * - Only to the active host: the target is the published active host's origin plus the request's path and query.
 *   A request target that is not in origin form (`/path?query`: an absolute URL, `//host/…`, a backslash) is
 *   refused with 400 — resolved against the active host's URL it could name another origin, which would make a
 *   standby an open proxy handing the client's credentials to wherever the client points it.
 * - The body is read first (at most `bodyLimitBytes`: past it the standby answers 413 itself), after its declared
 *   length (the body limit when unknown) was taken from the standby's budget (`buffered`: past it 503 at once), so a request can be sent again when it
 *   provably never reached a host: the connection was refused or did not open in time, or the host that answered
 *   is not the active one (`x-wopkit-standby`, 503). Those retry, re-reading where the active host is, until
 *   `waitMs` has passed (a takeover in progress: the new active host is loading its state); then 503
 *   `runner_unavailable` with Retry-After.
 * - A request that reached the active host is never sent twice: if that host dies before answering, the standby
 *   answers 503 `runner_unavailable` saying the outcome is unknown (an unacknowledged request, exactly as if the
 *   client had talked to the dead host itself).
 * - One connection per forwarded request (no keep-alive pool): a refused connect then always means "not sent".
 * - Headers: hop-by-hop ones and those the `Connection` header names are dropped both ways (RFC 9110 §7.6.1);
 *   `x-forwarded-for` is the client's address as this hop saw it (a client's own value is not passed on).
 * - A request that arrives already forwarded (`x-wopkit-forwarded`) is answered 503 `x-wopkit-standby` instead of
 *   being forwarded again, so two standbys with a stale view never bounce a request between them.
 * - Error answers name no internals (addresses, database messages): those go to `log`.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ActiveHost } from '../../storage/port.ts';

/** Set on a request a standby forwarded (its value: the standby's own URL). */
export const FORWARDED_HEADER = 'x-wopkit-forwarded';
/** Set on the 503 a host answers when it is not the active host, so the sender may retry elsewhere. */
export const STANDBY_HEADER = 'x-wopkit-standby';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the ones this hop sets itself: never copied across. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'host']);

/** An origin-form request target: one `/` then anything but a second `/` or a backslash. */
const ORIGIN_FORM = /^\/(?![/\\])/;

export interface ForwardOptions {
  /** Where the active host answers now (read from the store), or undefined while none has published itself. */
  readonly active: () => Promise<ActiveHost | undefined>;
  /** This host's own URL (sent as the forwarded-by header). */
  readonly self: string;
  /** How long a request may wait for an active host to appear or answer its connection (ms). */
  readonly waitMs: number;
  /** The largest body forwarded (the host's own body limit). */
  readonly bodyLimitBytes: number;
  /** What this standby holds at once across all forwarded requests (default 64 MiB of bodies, 1,024 requests). */
  readonly buffered?: BufferBudget;
  /** Pause between two attempts (default 50 ms). */
  readonly retryMs?: number;
  /** How long opening a connection to the active host may take before the attempt counts as not delivered (default 2 s). */
  readonly connectTimeoutMs?: number;
  /** How long a forwarded request may take to answer, once sent (default 120 s). */
  readonly answerTimeoutMs?: number;
  /** Where the details of a failure go (they are not sent to the client). */
  readonly log?: (details: Record<string, unknown>, message: string) => void;
}

/** What a standby holds at once: requests in its hands (read, being forwarded) and their body bytes. */
export class BufferBudget {
  #used = 0;
  #requests = 0;
  constructor(readonly limit: number = 64 * 1024 * 1024, readonly maxRequests = 1024) {}
  /** Take one request of `n` bytes; false (nothing taken) when that would pass either bound. */
  take(n: number): boolean {
    if (this.#used + n > this.limit || this.#requests + 1 > this.maxRequests) return false;
    this.#used += n;
    this.#requests++;
    return true;
  }
  give(n: number): void {
    this.#used = Math.max(0, this.#used - n);
    this.#requests = Math.max(0, this.#requests - 1);
  }
  get used(): number {
    return this.#used;
  }
  get requests(): number {
    return this.#requests;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Send the error envelope (and close the exchange). */
export function answerError(res: ServerResponse, status: number, error: string, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.destroy();
  const body = JSON.stringify({ error, message });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** The request body, 'too-large' past `limit` bytes, or 'aborted' if the client went away. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return 'too-large';
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) return 'too-large';
      chunks.push(chunk);
    }
  } catch {
    return 'aborted';
  }
  return Buffer.concat(chunks);
}

/** `from` without hop-by-hop headers and without the ones its `Connection` header names. */
export function endToEndHeaders(from: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(String(from.connection ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean));
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(from)) if (v !== undefined && !HOP_BY_HOP.has(k) && !named.has(k)) out[k] = v;
  return out;
}

const withoutClientForwardedFor = (h: Record<string, string | string[]>): Record<string, string | string[]> => {
  const { 'x-forwarded-for': _dropped, ...rest } = h;
  return rest;
};

/** One attempt's outcome: relayed, or provably not delivered (retry), or lost after delivery. */
type Attempt = { readonly kind: 'relayed' } | { readonly kind: 'not-delivered'; readonly why: string } | { readonly kind: 'lost'; readonly why: string };

function attempt(target: ActiveHost, req: IncomingMessage, body: Buffer, res: ServerResponse, o: ForwardOptions): Promise<Attempt> {
  return new Promise((resolve) => {
    const url = new URL(target.url);
    // Only what this hop saw: a client's own x-forwarded-for is not passed on (it could say anything).
    const forwardedFor = req.socket.remoteAddress ?? '';
    let connected = false;
    let settled = false;
    const onClientClose = (): void => {
      if (!res.writableFinished) out.destroy(new Error('the client closed the connection'));
    };
    const done = (a: Attempt): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      res.off('close', onClientClose);
      resolve(a);
    };
    const out = httpRequest({
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port,
      // The request's own origin-form target, never resolved against anything: the origin is the active host's.
      path: req.url,
      method: req.method,
      agent: false,
      headers: {
        ...withoutClientForwardedFor(endToEndHeaders(req.headers)),
        host: url.host,
        [FORWARDED_HEADER]: o.self,
        ...(forwardedFor !== '' ? { 'x-forwarded-for': forwardedFor } : {}),
        'content-length': String(body.length),
      },
      timeout: o.answerTimeoutMs ?? 120_000,
    });
    const connectTimer = setTimeout(() => {
      if (!connected) out.destroy(new Error('connect timed out'));
    }, o.connectTimeoutMs ?? 2_000);
    out.on('socket', (s) => s.once('connect', () => { connected = true; }));
    out.on('timeout', () => out.destroy(new Error('the active host did not answer in time')));
    out.on('error', (err) => done(connected ? { kind: 'lost', why: err.message } : { kind: 'not-delivered', why: err.message }));
    // The client went away: stop waiting for the active host (what it does with the request is its own business).
    res.on('close', onClientClose);
    out.on('response', (answer) => {
      if (answer.statusCode === 503 && answer.headers[STANDBY_HEADER] !== undefined) {
        answer.resume();
        return done({ kind: 'not-delivered', why: 'that host is not the active host' });
      }
      res.writeHead(answer.statusCode ?? 502, endToEndHeaders(answer.headers));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
      answer.on('end', () => done({ kind: 'relayed' }));
      answer.on('aborted', () => {
        res.destroy();
        done({ kind: 'relayed' });
      });
    });
    out.end(body);
  });
}

/** Forward `req` to the active host and relay its answer into `res` (see the module comment for the rules). */
export async function forwardToActive(req: IncomingMessage, res: ServerResponse, o: ForwardOptions): Promise<void> {
  if (req.headers[FORWARDED_HEADER] !== undefined) {
    return answerError(res, 503, 'runner_unavailable', 'this host is not the active host; retry', { [STANDBY_HEADER]: '1', 'retry-after': '1' });
  }
  if (!ORIGIN_FORM.test(req.url ?? '')) return answerError(res, 400, 'bad_request', 'the request target must be a path (origin form)', { connection: 'close' });
  // The budget is taken before a byte of the body is read: the declared length, or the whole body limit for a body
  // of unknown length (chunked).
  const declared = Number(req.headers['content-length'] ?? (req.headers['transfer-encoding'] !== undefined ? o.bodyLimitBytes : 0));
  if (declared > o.bodyLimitBytes) return answerError(res, 413, 'payload_too_large', 'request body exceeds the limit', { connection: 'close' });
  const reserved = Number.isFinite(declared) && declared > 0 ? declared : 0;
  const budget = o.buffered;
  if (budget !== undefined && !budget.take(reserved)) {
    return answerError(res, 503, 'runner_unavailable', 'this host holds too many forwarded requests; retry', { 'retry-after': '1', connection: 'close' });
  }
  try {
    const body = await readBody(req, Math.min(o.bodyLimitBytes, reserved === 0 ? o.bodyLimitBytes : reserved));
    if (body === 'aborted') return void res.destroy();
    if (body === 'too-large') return answerError(res, 413, 'payload_too_large', 'request body exceeds the limit', { connection: 'close' });
    const deadline = Date.now() + o.waitMs;
    let why = 'no active host has published its address';
    for (;;) {
      const active = await o.active().catch((err: Error) => {
        why = `the store could not say which host is active (${err.message})`;
        return undefined;
      });
      // The active host may be this one (it took over while the request waited): sent to itself, the request
      // passes its gate like any other.
      if (active !== undefined) {
        const r = await attempt(active, req, body, res, o);
        if (r.kind === 'relayed') return;
        if (r.kind === 'lost') {
          if (res.destroyed) return; // the client left first
          o.log?.({ why: r.why, epoch: active.epoch }, 'the active host stopped before answering a forwarded request');
          return answerError(res, 503, 'runner_unavailable', 'the active host stopped before answering; the request may or may not have been applied');
        }
        why = r.why;
      }
      if (res.destroyed) return;
      if (Date.now() >= deadline) {
        o.log?.({ why, waitMs: o.waitMs }, 'no active host took a forwarded request in time');
        return answerError(res, 503, 'runner_unavailable', `no active host took the request within ${o.waitMs} ms; retry`, { 'retry-after': '1' });
      }
      await sleep(o.retryMs ?? 50);
    }
  } finally {
    budget?.give(reserved);
  }
}

/**
 * `lookup` shared by every request waiting here, asked at most once per `freshMs` (a takeover is watched by one
 * query per interval, not one per waiting request). A failed lookup is not kept.
 */
export function sharedLookup(lookup: () => Promise<ActiveHost | undefined>, freshMs = 50): () => Promise<ActiveHost | undefined> {
  let last: { readonly at: number; readonly value: Promise<ActiveHost | undefined> } | undefined;
  return () => {
    const now = Date.now();
    if (last === undefined || now - last.at >= freshMs) {
      const value = lookup();
      const entry = { at: now, value };
      last = entry;
      value.catch(() => {
        if (last === entry) last = undefined;
      });
    }
    return last.value;
  };
}
