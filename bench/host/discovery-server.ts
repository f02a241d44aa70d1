/**
 * One side of the discovery benchmark, run in a worker thread: `ours` is the reference host (createHost), `bare` is a
 * bare Fastify app serving the same discovery document from one route. Posts `{ url }` once listening on loopback,
 * and closes when told to.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Fastify from 'fastify';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';

const kind = (workerData as { kind: 'ours' | 'bare' }).kind;
const { app: host, runtime } = await createHost({ token: 'discovery-bench-token-0123456789' });
let app = host;
if (kind === 'bare') {
  const document = runtime.discovery();
  app = Fastify({ logger: false });
  app.get(ROUTES.discovery.path, async () => document);
  await host.close();
}
const url = await app.listen({ port: 0, host: '127.0.0.1' });
parentPort!.postMessage({ url: `${url}${ROUTES.discovery.path}` });
parentPort!.on('message', async (m: string) => {
  if (m === 'close') {
    await app.close();
    process.exit(0);
  }
});
