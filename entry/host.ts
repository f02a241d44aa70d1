/**
 * `wopkit/host` — the Fastify reference host: `createHost({ token })` returns a ready (not yet listening) app
 * serving discovery at `GET /.well-known/openwop` (public) and every other route behind the Bearer token.
 */
export * from '../runtime/host/server.ts';
export type { HostContext, HostMutations } from '../runtime/host/context.ts';
