/**
 * One side of a host benchmark, run in a worker thread: `ours` is the reference host (createHost); `bare` is a bare
 * Fastify app serving, on the same paths, the JSON the reference host answered to each route once (recorded with
 * `inject` before it closes, after running the set-up routes the same way). Posts `{ url }` once listening on loopback, and closes when told to.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Fastify from 'fastify';
import { createHost } from '../../runtime/host/server.ts';
import type { BenchRoute } from './ab.ts';

const { kind, routes, measure, token } = workerData as { kind: 'ours' | 'bare'; routes: readonly BenchRoute[]; measure: readonly string[]; token: string };
const { app: host } = await createHost({ token });
let app = host;
if (kind === 'bare') {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  app = Fastify({ logger: false });
  for (const r of routes) {
    const answer = await host.inject({ method: r.method, url: r.path, headers, ...(r.body !== undefined ? { payload: r.body } : {}) });
    if (answer.statusCode >= 300) throw new Error(`${r.method} ${r.path} answered ${answer.statusCode}: ${answer.body}`);
    if (!measure.includes(r.name)) continue; // a set-up route: run on the recording host only
    const recorded: unknown = answer.json();
    app.route({ method: r.method, url: r.path.split('?')[0]!, handler: async (_req, reply) => reply.code(answer.statusCode).send(recorded) });
  }
  await host.close();
}
const url = await app.listen({ port: 0, host: '127.0.0.1' });
parentPort!.postMessage({ url });
parentPort!.on('message', async (m: string) => {
  if (m === 'close') {
    await app.close();
    process.exit(0);
  }
});
