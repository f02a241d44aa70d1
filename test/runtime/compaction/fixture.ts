/** Shared wiring for the compaction and distillation tests: one store, writer, log, compactor and distiller. */
import { TenantMemoryAdapter } from '../../../runtime/memory/adapter.ts';
import { SharedMemoryStore } from '../../../runtime/memory/store.ts';
import { MemoryWriter } from '../../../runtime/memory/writer.ts';
import { SecretRegistries } from '../../../runtime/redaction/secret-registry.ts';
import { writeRedactor } from '../../../runtime/redaction/chokepoint.ts';
import { Compactor } from '../../../runtime/compaction/compactor.ts';
import { Distiller } from '../../../runtime/distillation/distiller.ts';
import { Workspace } from '../../../runtime/distillation/index-manifest.ts';
import { RunEventLog } from '../../../runtime/events/log.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';
import type { Summariser } from '../../../runtime/compaction/summariser.ts';

export const REF = 'mem://tenant-a/agent-1';

export function setup(o: { summariser?: Summariser; maxTokenBudget?: number; indexEmitted?: boolean; archiveRetention?: string } = {}) {
  const clock = new ManualClock();
  const ids = new SequentialIds();
  const store = new SharedMemoryStore();
  const registries = new SecretRegistries();
  const writer = new MemoryWriter({ store, clock, ids, redact: writeRedactor(registries) });
  const log = new RunEventLog(clock, ids);
  const emit = log.emit;
  const compactor = new Compactor({ store, writer, clock, ids, emit, ...(o.summariser ? { summariser: o.summariser } : {}) });
  const workspace = new Workspace();
  const distiller = new Distiller({
    store, writer, compactor, workspace, clock, ids, emit,
    maxTokenBudget: o.maxTokenBudget ?? 200,
    indexEmitted: o.indexEmitted ?? true,
    archiveRetention: o.archiveRetention ?? 'P30D',
    ...(o.summariser ? { summariser: o.summariser } : {}),
  });
  const adapter = new TenantMemoryAdapter('tenant-a', store, clock);
  const events = () => log.runIds().flatMap((r) => log.read(r));
  return { clock, ids, store, registries, writer, log, compactor, distiller, workspace, adapter, events };
}
export type Env = ReturnType<typeof setup>;

export const thrown = (fn: () => unknown): unknown => {
  try { fn(); } catch (e) { return e; }
  return undefined;
};
