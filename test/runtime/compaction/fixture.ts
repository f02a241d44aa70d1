/**
 * Shared wiring for the compaction and distillation tests: the wired runtime on a fresh in-memory store, with a
 * compactor and distiller built over its writer, readers, log and workspace (so a test can give them its own
 * summariser), and one-request helpers for each operation.
 */
import type { CompactRequest } from '../../../runtime/compaction/compactor.ts';
import { Compactor } from '../../../runtime/compaction/compactor.ts';
import type { Summariser } from '../../../runtime/compaction/summariser.ts';
import { Distiller, type DistillerOptions, type DistillRequest } from '../../../runtime/distillation/distiller.ts';
import { INDEX_PATH, readIndex } from '../../../runtime/distillation/index-manifest.ts';
import { tenantOf } from '../../../runtime/memory/memory-ref.ts';
import type { PutInput, WriteContext } from '../../../runtime/memory/writer.ts';
import type { MemoryBounds } from '../../../runtime/storage/ops/memory.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import type { ManualClock } from '../../../runtime/shared/clock.ts';
import { allEvents, openRuntime, put, registerSecrets, request, storedEntries, storeText } from '../support.ts';
import { detachedTx, type Tx } from '../../../runtime/storage/unit-of-work.ts';

export { thrown } from '../support.ts';

export const REF = 'mem://tenant-a/agent-1';

export interface SetupOptions {
  readonly summariser?: Summariser;
  readonly maxTokenBudget?: number;
  readonly indexEmitted?: boolean;
  readonly archiveRetention?: string;
  readonly memoryBounds?: Partial<MemoryBounds>;
  /** Another runtime on the same store and clock (a second host, or other bounds). */
  readonly port?: StoragePort;
  readonly clock?: ManualClock;
}

export async function setup(o: SetupOptions = {}) {
  const t = await openRuntime({ ...(o.memoryBounds !== undefined ? { memoryBounds: o.memoryBounds } : {}), ...(o.port !== undefined ? { port: o.port } : {}), ...(o.clock !== undefined ? { clock: o.clock } : {}) });
  const { rt, port, clock, ids } = t;
  const store = { readerFor: (tx: Tx, tenant: string) => rt.readerFor(tx, tenant) };
  const compactor = o.summariser === undefined ? rt.compactor : new Compactor({ store, writer: rt.writer, clock, ids, log: rt.log, summariser: o.summariser });
  const distillerOptions: DistillerOptions = {
    store, writer: rt.writer, compactor, workspace: rt.workspace, clock, ids, log: rt.log,
    maxTokenBudget: o.maxTokenBudget ?? 200,
    indexEmitted: o.indexEmitted ?? true,
    archiveRetention: o.archiveRetention ?? 'P30D',
    ...(o.summariser ? { summariser: o.summariser } : {}),
  };
  const distiller = new Distiller(distillerOptions);
  const tenant = (ref: string) => tenantOf(ref) ?? '';
  return {
    ...t,
    writer: rt.writer,
    compactor,
    distiller,
    distillerOptions,
    workspace: rt.workspace,
    adapter: rt.adapterFor(detachedTx(rt.port), 'tenant-a'),
    put: (ref: string, input: PutInput, ctx?: WriteContext) => put(rt, ref, input, ctx),
    compact: (ref: string, req?: CompactRequest) => request(port, (plan) => compactor.compact(plan, ref, req)),
    distill: (ref: string, req?: DistillRequest) => request(port, (plan) => distiller.distill(plan, ref, req)),
    /** Claim `runId` for tenant-a and register secrets in it (one request). */
    register: (secrets: Readonly<Record<string, string>>, runId = 'run-1') => registerSecrets(rt, 'tenant-a', runId, secrets),
    events: () => allEvents(port),
    entries: (ref?: string) => storedEntries(port, ref),
    index: (ref = REF) => request(port, (tx) => readIndex(tx, rt.workspace, tenant(ref), ref)),
    indexFile: (ref = REF) => request(port, (tx) => rt.workspace.read(tx, tenant(ref), ref, INDEX_PATH)),
    /** Every row of the store: what "nothing changed" is checked against. */
    snapshot: () => storeText(port),
  };
}
export type Env = Awaited<ReturnType<typeof setup>>;
