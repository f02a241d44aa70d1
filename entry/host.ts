/**
 * `wopkit/host` — the Fastify reference host: `createHost({ token })` returns a ready (not yet listening) app
 * serving discovery at `GET /.well-known/openwop` (public) and every other route behind the Bearer token, and the
 * `HostRuntime` its routes talk to, and the credentials (tenant-bound API keys with roles) it authenticates with;
 * `openStore` opens the durable store `createHost({ storage })` takes (docs/storage.md); `hostKeys` reads the SR-1
 * secret keys and the cursor key from a credentials file or the environment, as `npm start` does — a host on
 * PostgreSQL needs both (`createHost({ storage, secretKeys, cursorKey })`).
 */
export * from '../runtime/host/server.ts';
export type { HostRuntime, QuestionCaller, RunStart } from '../runtime/host/host-runtime.ts';
export { DEFAULT_LIMITS, LIMITS, LIMIT_NAMES, formatLimit, limitsFromEnv, resolveLimits } from '../runtime/host/limits.ts';
export type { HostLimits, LimitName, LimitSpec } from '../runtime/host/limits.ts';
export type { HostMutations, MutationName } from '../runtime/host/mutants.ts';
export { Credentials, CredentialsError, parseApiKeysEnv, parseCredentialsFile, devTokenEntry, MIN_KEY_LENGTH } from '../runtime/host/auth.ts';
export type { CredentialEntry, Principal, Role } from '../runtime/host/auth.ts';
export { hostKeys } from '../runtime/host/host-keys.ts';
export type { HostKeys, HostKeySources } from '../runtime/host/host-keys.ts';
export { SecretKeyError, SecretKeyRing } from '../runtime/redaction/sealing.ts';
export type { SecretKey } from '../runtime/redaction/sealing.ts';
export { openStore, isStoreKind, StoreConfigError, STORE_KINDS, SQLITE_FILE, StoreVersionError, StoreLockedError, type OpenStoreOptions } from '../runtime/storage/index.ts';
export type { Json, JsonDoc, StoragePort, StoreHealth, StoreKind } from '../runtime/storage/index.ts';
