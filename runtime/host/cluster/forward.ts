/**
 * A standby host's request path: every request it receives is forwarded to the active host (runtime/host/cluster/
 * standby.ts), and the answer relayed unchanged.
 *
 * - The body is read first (at most `bodyLimitBytes`: past it the standby answers 413 itself), so a request can be
 *   sent again when it provably never reached a host: the connection was refused, or the host that answered is not
 *   the active one (`x-wopkit-standby`, 503). Those retry, re-reading where the active host is, until `waitMs` has
 *   passed (a takeover in progress: the new active host is loading its state); then 503 `runner_unavailable` with
 *   Retry-After.
 * - A request that reached the active host is never sent twice: if that host dies before answering, the standby
 *   answers 503 `runner_unavailable` saying the outcome is unknown (an unacknowledged request, exactly as if the client
 *   had talked to the dead host itself).
 * - One connection per forwarded request (no keep-alive pool): a refused connect then always means "not sent".
 * - A request that arrives already forwarded (`x-wopkit-forwarded`) is answered 503 `x-wopkit-standby` instead of
 *   being forwarded again, so two standbys with a stale view never bounce a request between them.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ActiveHost } from '../../storage/port.ts';

/** Set on a request a standby forwarded (its value: the standby's own URL). */
export const FORWARDED_HEADER = 'x-wopkit-forwarded';
/** Set on the 503 a host answers when it is not the active host, so the sender may retry elsewhere. */
export const STANDBY_HEADER = 'x-wopkit-standby';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the ones this hop sets itself: never copied across. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'host']);

export interface ForwardOptions {
  /** Where the active host answers now (read from the store), or undefined while none has published itself. */
  readonly active: () => Promise<ActiveHost | undefined>;
  /** This host's own URL (sent as the forwarded-by header). */
  readonly self: string;
  /** How long a request may wait for an active host to appear or answer its connection (ms). */
  readonly waitMs: number;
  /** The largest body forwarded (the host's own body limit). */
  readonly bodyLimitBytes: number;
  /** Pause between two attempts (default 50 ms). */
  readonly retryMs?: number;
  /** How long a forwarded request may take to answer, once sent (default 120 s). */
  readonly answerTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Send the error envelope (and close the exchange). */
export function answerError(res: ServerResponse, status: number, error: string, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.destroy();
  const body = JSON.stringify({ error, message });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** The request body, or 'too-large' past `limit` bytes (what was read so far is dropped). */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return 'too-large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return 'too-large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function copyHeaders(from: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(from)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/** One attempt's outcome: relayed, or provably not delivered (retry), or lost after delivery. */
type Attempt = { readonly kind: 'relayed' } | { readonly kind: 'not-delivered'; readonly why: string } | { readonly kind: 'lost'; readonly why: string };

function attempt(target: string, req: IncomingMessage, body: Buffer, res: ServerResponse, o: ForwardOptions): Promise<Attempt> {
  return new Promise((resolve) => {
    const url = new URL(req.url ?? '/', target);
    let connected = false;
    const out = httpRequest(url, {
      method: req.method,
      agent: false,
      headers: { ...copyHeaders(req.headers), [FORWARDED_HEADER]: o.self, 'content-length': String(body.length) },
      timeout: o.answerTimeoutMs ?? 120_000,
    });
    out.on('socket', (s) => s.once('connect', () => { connected = true; }));
    out.on('timeout', () => out.destroy(new Error('the active host did not answer in time')));
    out.on('error', (err) => resolve(connected ? { kind: 'lost', why: err.message } : { kind: 'not-delivered', why: err.message }));
    out.on('response', (answer) => {
      if (answer.statusCode === 503 && answer.headers[STANDBY_HEADER] !== undefined) {
        answer.resume();
        return resolve({ kind: 'not-delivered', why: `${target} is not the active host` });
      }
      res.writeHead(answer.statusCode ?? 502, copyHeaders(answer.headers));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
      answer.on('end', () => resolve({ kind: 'relayed' }));
      answer.on('aborted', () => {
        res.destroy();
        resolve({ kind: 'relayed' });
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
  const body = await readBody(req, o.bodyLimitBytes);
  if (body === 'too-large') return answerError(res, 413, 'payload_too_large', 'request body exceeds the limit', { connection: 'close' });
  const deadline = Date.now() + o.waitMs;
  let why = 'no active host has published its address';
  for (;;) {
    const active = await o.active().catch((err: Error) => {
      why = `the store could not say which host is active (${err.message})`;
      return undefined;
    });
    // The active host may be this one (it took over while the request waited): sent to itself, the request passes
    // its gate like any other.
    if (active !== undefined) {
      const r = await attempt(active.url, req, body, res, o);
      if (r.kind === 'relayed') return;
      if (r.kind === 'lost') return answerError(res, 503, 'runner_unavailable', `the active host stopped before answering (${r.why}); the request may or may not have been applied`);
      why = r.why;
    }
    if (Date.now() >= deadline) return answerError(res, 503, 'runner_unavailable', `no active host took the request within ${o.waitMs} ms (${why}); retry`, { 'retry-after': '1' });
    await sleep(o.retryMs ?? 50);
  }
}
