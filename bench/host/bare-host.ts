/**
 * A bare Fastify process in its fastest mode (no logger, Fastify's own JSON body parser): the peer of a host process
 * under the same load. It answers the memory seed path with a fixed seed answer and `GET /readyz` with 200, prints
 * the same ready line as the host, and carries the same SIGUSR2 report (report-signal.ts), so its event-loop delay
 * under a load is the floor the machine itself sets. Started by child-host.ts (`launchHost(…, { entry: 'bare' })`).
 */
import './report-signal.ts';
import Fastify from 'fastify';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';

const ANSWER = { memoryRef: 'mem://w0/notes', runId: 'bg-w0', entries: [{ id: 'mem_00000000-0000-4000-a000-000000000000', content: 'Note 0: customer', tags: ['note'], createdAt: '2026-01-01T00:00:00.000Z' }] };

const app = Fastify({ logger: false });
app.post(ROUTES.memorySeed.path, async () => ANSWER);
app.get(ROUTES.readiness.path, async () => ({ status: 'ok' }));
const url = await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.stdout.write(`bare Fastify listening on ${url}\n`);
