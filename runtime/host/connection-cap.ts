/**
 * Requests served on one kept-alive connection (`maxRequestsPerSocket`). The last allowed answer carries
 * `Connection: close`, and Node closes the connection once it is sent. A request a client (or a load balancer that
 * reuses connections) pipelined past it is neither run nor answered: the connection closes under it, which HTTP/1.1
 * allows (RFC 9112 §9.3.2, §9.6), so the client sends it again on a new connection — where answering it 429 would
 * have made a balancer report an error for a request nothing was wrong with.
 *
 * Counted here rather than by Node's own `maxRequestsPerSocket`, which answers such a request with a 503 itself.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function capRequestsPerConnection(app: FastifyInstance, limit: number): void {
  const served = new WeakMap<Socket, number>();
  app.addHook('onRequest', (req, reply, done) => {
    const socket = req.raw.socket;
    const n = (served.get(socket) ?? 0) + 1;
    served.set(socket, n);
    if (n === limit) reply.header('connection', 'close');
    if (n <= limit) return done();
    // Past the cap: nothing runs and nothing is answered; the connection ends after the last allowed answer.
    reply.hijack();
  });
}
