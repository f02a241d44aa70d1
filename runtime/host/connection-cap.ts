/**
 * The answer to a request pipelined past `maxRequestsPerSocket`. Node never hands such a request to the app (no
 * hook, parser or handler runs: nothing can be stored) and answers it itself with a bare 503 after the last served
 * request said `Connection: close`. This response class, given to the Node server, turns that bare 503 into the
 * host's error envelope: 429 `quota_exceeded` naming the per-connection limit, with `Connection: close`.
 */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, type Server } from 'node:http';

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

/** Requests Node dropped because their connection had reached its limit. */
const overCap = new WeakSet<IncomingMessage>();

/** Mark every request `server` drops at its `maxRequestsPerSocket`, so its answer becomes the envelope. */
export function markDroppedRequests(server: Pick<Server, 'on'>): void {
  server.on('dropRequest', (req: IncomingMessage) => overCap.add(req));
}

/** A ServerResponse that answers a dropped request with the envelope; every other response is untouched. */
export function connectionCapResponse(limit: number): typeof ServerResponse {
  const body = JSON.stringify({ error: 'quota_exceeded', message: 'this connection has served its last request; open a new one', details: { resource: 'requests-per-connection', limit } });
  return class ConnectionCapResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    #envelope = false;
    override writeHead(statusCode: number, statusMessage?: string, headers?: Headers): this;
    override writeHead(statusCode: number, headers?: Headers): this;
    override writeHead(statusCode: number, reasonOrHeaders?: string | Headers, headers?: Headers): this {
      if (!overCap.has(this.req)) return typeof reasonOrHeaders === 'string' ? super.writeHead(statusCode, reasonOrHeaders, headers) : super.writeHead(statusCode, reasonOrHeaders);
      this.#envelope = true;
      return super.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
    }
    override end(cb?: () => void): this;
    override end(chunk: unknown, cb?: () => void): this;
    override end(chunk: unknown, encoding: BufferEncoding, cb?: () => void): this;
    override end(...args: unknown[]): this {
      if (this.#envelope) return super.end(body);
      return (super.end as (...a: unknown[]) => this)(...args);
    }
  };
}
