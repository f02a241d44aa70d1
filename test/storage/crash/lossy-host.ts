/**
 * TEST ONLY: the reference host on a deliberately non-durable store, to prove the crash harness detects losses.
 * Same flags and ready line as `npm start`, but every memory-entry write of the store is acknowledged at once
 * and committed only `WOPKIT_LOSSY_DELAY_MS` later (default 400 ms): write-behind, so a kill -9 inside that
 * window loses writes the host already acknowledged. Never use outside the crash tests.
 */
import { createHost } from '../../../runtime/host/server.ts';
import { parseStoreArgs } from '../../../runtime/host/store-args.ts';
import { Credentials, devTokenEntry } from '../../../runtime/host/auth.ts';
import { openStore } from '../../../runtime/storage/open-store.ts';
import type { MemoryEntryStore, StoragePort } from '../../../runtime/storage/port.ts';

/** The store with its memory writes deferred: `upsert` resolves before the write is even started. */
export function writeBehind(port: StoragePort, delayMs: number): StoragePort {
  const memory: MemoryEntryStore = {
    get: (...a) => port.memory.get(...a),
    list: (...a) => port.memory.list(...a),
    all: () => port.memory.all(),
    remove: (...a) => port.memory.remove(...a),
    upsert: async (...a) => {
      setTimeout(() => void port.memory.upsert(...a).catch(() => undefined), delayMs);
    },
  };
  return new Proxy(port, {
    get(target, key) {
      if (key === 'memory') return memory;
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

const { store } = parseStoreArgs(process.argv.slice(2), process.env, process.cwd());
const storage = writeBehind(await openStore(store), Number(process.env.WOPKIT_LOSSY_DELAY_MS ?? 400));
const credentials = new Credentials([devTokenEntry(process.env.OPENWOP_HOST_TOKEN ?? 'lossy')]);
const { app } = await createHost({ credentials, logger: { level: 'warn' }, scheduleTickMs: 1000, storage });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`lossy test host listening on ${url} (store: ${storage.kind}, write-behind)\n`);
