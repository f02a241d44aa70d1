/**
 * The storage layer's public entry: everything outside `runtime/storage/` reaches the store through what this module
 * exports — opening a store, the port's type and errors, and the unit of work (`unitOfWork`, `Tx`) that is the only way
 * to read and write: its queries are reached as `tx.read` and nowhere else (the bound query table, `readsOf`, is
 * private to the storage layer). Query and operation modules, SQL sessions and back-end internals are not exported.
 */
export { unitOfWork, unitsOf, type Tx, type Units, type UnitOfWorkOptions, type Pending } from './unit-of-work.ts';
export {
  CORRUPT_REASON, isJsonDoc, StoreClosedError, StoreCorruptError, StoreUnavailableError, StoreUpgradeBlockedError, StoreVersionError,
  type Json, type JsonDoc, type StoredDoc, type StoragePort, type StoreHealth, type StoreKind,
} from './port.ts';
export { StoreRefusal, isStale, toWireRefusal } from './refusal.ts';
// The row shapes the queries answer and the operations take (types only: the queries run through `tx.read`).
export type * from './reads/memory.ts';
export type * from './reads/records.ts';
export type * from './reads/runs.ts';
export type * from './reads/secrets.ts';
export type * from './reads/work.ts';
export type { OpArgs, OpName, OpResult, WriteOp } from './ops/index.ts';
export type { MemoryBounds } from './ops/memory.ts';
export type { RunBound, RunKind } from './ops/runs.ts';
export { DEFAULT_ENDED_RUNS_KEPT } from './ops/runs.ts';
export { SecretRegistryUnavailableError } from './ops/secrets.ts';
// Opening a store.
export { isStoreKind, openStore, SQLITE_FILE, STORE_KINDS, StoreConfigError, type OpenStoreOptions } from './open-store.ts';
export { openMemoryStore } from './memory/index.ts';
export { openSqliteStore, StoreLockedError } from './sqlite/index.ts';
export type { PostgresStoreOptions } from './postgres/index.ts';
