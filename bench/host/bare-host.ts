/**
 * A bare Fastify process in its fastest mode (no logger, Fastify's own JSON body parser): the peer of a host process
 * under the same load. It answers the memory seed path with a fixed seed answer and `GET /readyz` with 200, prints
 * the same ready line as the host, and carries the same SIGUSR2 report (report-signal.ts), so its event-loop delay
 * under a load is the floor the machine itself sets. Started by child-host.ts (`launchHost(…, { entry: 'bare' })`).
 *
 * With `BARE_DURABLE_FILE` (a SQLite store the runtime created) it also commits, before each seed answer, one raw
 * `INSERT` of the seed's entry row in a transaction of its own on the main thread (WAL, synchronous=FULL): the raw
 * loop of the write-path benchmark behind an HTTP round trip — the most any HTTP host can do per durable write.
 */
import './report-signal.ts';
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import Fastify from 'fastify';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { applyPragmas } from '../../runtime/storage/sqlite/pragmas.ts';
import { BARE_DURABLE_ENV } from './peer-env.ts';

const ANSWER = { memoryRef: 'mem://w0/notes', runId: 'bg-w0', entries: [{ id: 'mem_00000000-0000-4000-a000-000000000000', content: 'Note 0: customer', tags: ['note'], createdAt: '2026-01-01T00:00:00.000Z' }] };

const app = Fastify({ logger: false });
const file = process.env[BARE_DURABLE_ENV];
if (file === undefined) app.post(ROUTES.memorySeed.path, async () => ANSWER);
else {
  const db = new DatabaseSync(file);
  applyPragmas(db, { busyTimeoutMs: 5000, wal: true }); // the store's own settings (WAL, synchronous=FULL, checkpoints)
  const begin = db.prepare('BEGIN');
  const insert = db.prepare('INSERT INTO entries (tenant, memory_ref, id, neg_created, expires_ms, bytes, doc) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const commit = db.prepare('COMMIT');
  app.post<{ Body: { memoryRef: string; entries: { content: string; tags?: string[] }[] } }>(ROUTES.memorySeed.path, async (req) => {
    const { memoryRef, entries } = req.body;
    const id = `mem_${randomUUID()}`;
    const doc = JSON.stringify({ id, content: entries[0]!.content, tags: entries[0]!.tags ?? [], createdAt: new Date().toISOString() });
    const tenant = memoryRef.split('/')[2]!; // mem://<tenant>/…
    begin.run();
    insert.run(tenant, memoryRef, id, -Date.now(), null, Buffer.byteLength(doc), doc);
    commit.run();
    return ANSWER;
  });
}
app.get(ROUTES.readiness.path, async () => ({ status: 'ok' }));
const url = await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.stdout.write(`bare Fastify listening on ${url}\n`);
