#!/usr/bin/env -S npx tsx
/**
 * `npm start`: the reference host on localhost with the embedded in-memory default.
 * Env: OPENWOP_HOST_TOKEN (else a random token is generated and printed), PORT (default 8787), HOST (127.0.0.1),
 * LOG_LEVEL (info).
 */
import { randomBytes } from 'node:crypto';
import { createHost } from './server.ts';
import { ROUTES } from './seam-catalogue.ts';

const token = process.env.OPENWOP_HOST_TOKEN ?? randomBytes(24).toString('base64url');
const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? '127.0.0.1';
const { app } = await createHost({ token, logger: { level: process.env.LOG_LEVEL ?? 'info' }, scheduleTickMs: 1000 });
const url = await app.listen({ port, host });
process.stdout.write(`\nwopkit reference host listening on ${url}\n  discovery: ${url}${ROUTES.discovery.path}\n  token:     ${token}\n  conformance: npm run conformance -- --base-url ${url} --api-key ${token}\n\n`);
const stop = async () => { await app.close(); process.exit(0); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
