/**
 * TEST ONLY: the reference host on a deliberately non-durable store, to prove the crash harness detects losses.
 * Same flags and ready line as `npm start`, but every write of the store is acknowledged at once and committed
 * only `WOPKIT_LOSSY_DELAY_MS` later (default 400 ms): write-behind, so a kill -9 inside that window loses writes the
 * host already acknowledged. Never use outside the crash tests.
 */
import { createHost } from '../../../runtime/host/server.ts';
import { hostKeys } from '../../../runtime/host/host-keys.ts';
import { parseStoreArgs } from '../../../runtime/host/store-args.ts';
import { Credentials, devTokenEntry } from '../../../runtime/host/auth.ts';
import { openStore } from '../../../runtime/storage/open-store.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';

/** The store with its commits deferred: `commit` answers before the write is even started (with no results). */
export function writeBehind(port: StoragePort, delayMs: number): StoragePort {
  return new Proxy(port, {
    get(target, key) {
      if (key === 'commit') {
        return async (plan: Parameters<StoragePort['commit']>[0]) => {
          setTimeout(() => void target.commit(plan).catch(() => undefined), delayMs);
          // What a plan's operations would have answered, guessed: the entries as planned (enough for the seams).
          return plan.map((op) => (op.op === 'memory.put' ? op.args.entry : op.op === 'event.append' ? op.args.event : true));
        };
      }
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

const { store } = parseStoreArgs(process.argv.slice(2), process.env, process.cwd());
const storage = writeBehind(await openStore(store), Number(process.env.WOPKIT_LOSSY_DELAY_MS ?? 400));
const credentials = new Credentials([devTokenEntry(process.env.OPENWOP_HOST_TOKEN ?? 'lossy')]);
const { app } = await createHost({ credentials, logger: { level: 'warn' }, backgroundIdleMs: 1000, storage, ...hostKeys({ env: process.env, production: false, store: store.kind }) });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`lossy test host listening on ${url} (store: ${storage.kind}, write-behind)\n`);
