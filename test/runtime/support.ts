/**
 * What the runtime unit tests share: a wired OpenWOP runtime on a fresh in-memory store (SQLite `:memory:`, the
 * same SQL as the durable back-ends) with a manual clock and sequential ids, one-request helpers (plan, act, commit
 * once — as the host does), and raw looks into the store for what a test must see from outside the runtime: every
 * event of every run, every stored entry, every stored byte.
 */
import type { MemoryEntry, RunEvent } from '../../generated/ts/index.ts';
import { createOpenwopRuntime, type OpenwopRuntime, type OpenwopRuntimeOptions } from '../../runtime/openwop/index.ts';
import type { PutInput, WriteContext } from '../../runtime/memory/writer.ts';
import { SecretRefusedError, type RegisteredSecret, type SecretScope, type TenantSecretScope } from '../../runtime/redaction/secret-registry.ts';
import { ManualClock, SequentialIds, type IdSource } from '../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import { detachedTx, unitOfWork, type Tx } from '../../runtime/storage/unit-of-work.ts';
import type { StoragePort, WritePlan } from '../../runtime/storage/port.ts';
import { SCHEMA_TABLES } from '../../runtime/storage/sql/schema.ts';

/** Most rows a raw look into the store reads (tests stay far below it). */
const RAW_LIMIT = 1_000_000;

export type TestRuntimeOptions = Omit<OpenwopRuntimeOptions, 'port' | 'clock'> & { readonly clock?: ManualClock; readonly port?: StoragePort };

export interface TestRuntime {
  readonly rt: OpenwopRuntime;
  readonly port: StoragePort;
  readonly clock: ManualClock;
  readonly ids: IdSource;
  close(): Promise<void>;
}

let sharing = 0;

/**
 * A wired runtime on a fresh in-memory store, with a manual clock and sequential ids — or on `port`, another
 * runtime's store (a restart, a second host): its ids then carry a prefix of their own, as two hosts' random ids
 * would not meet.
 */
export async function openRuntime(o: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const { clock = new ManualClock(), port: given, ids: givenIds, ...rest } = o;
  const port = given ?? (await openMemoryStore());
  const host = ++sharing;
  const seq = new SequentialIds();
  const ids: IdSource = givenIds ?? (given === undefined ? seq : { next: (prefix) => seq.next(`${prefix}_h${host}`) });
  const rt = createOpenwopRuntime({ port, clock, ids, ...rest });
  return { rt, port, clock, ids, close: () => port.close() };
}

/** Run `f` on a fresh runtime and close its store afterwards (property tests open one per run). */
export async function withRuntime<T>(o: TestRuntimeOptions, f: (t: TestRuntime) => Promise<T>): Promise<T> {
  const t = await openRuntime(o);
  try {
    return await f(t);
  } finally {
    await t.close();
  }
}

/** One request: one unit of work around `f`; what `f` returned, once committed. */
export function request<T>(port: StoragePort, f: (tx: Tx) => T | Promise<T>): Promise<T> {
  return unitOfWork(port, f);
}

/** One memory write in its own request; the entry as stored. */
export async function put(rt: OpenwopRuntime, memoryRef: string, input: PutInput, ctx: WriteContext = {}): Promise<MemoryEntry> {
  const stored = await request(rt.port, async (plan) => (await rt.writer.put(plan, memoryRef, input, ctx)).stored);
  return stored.value;
}

/** Claim `runId` for `tenant` and register secrets in its registry, in one request (as a BYOK resolution does). */
export async function registerSecrets(rt: OpenwopRuntime, tenant: string, runId: string, secrets: Readonly<Record<string, string>>, scope: SecretScope = 'run'): Promise<boolean[]> {
  return request(rt.port, async (plan) => {
    const s = await rt.secretsOf(plan, tenant);
    s.claimRun(runId);
    const out: boolean[] = [];
    for (const [id, value] of Object.entries(secrets)) out.push(await s.register(runId, id, value, scope));
    return out;
  });
}

/** End a run's secret registry in its own request. */
export async function endRun(rt: OpenwopRuntime, tenant: string, runId: string): Promise<void> {
  await request(rt.port, async (plan) => (await rt.secretsOf(plan, tenant)).endRun(runId));
}

/** The error `f` rejects (or throws) with; undefined when it succeeds. */
export async function thrown(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** Every event the store holds, of every run, in (run, sequence) order. */
export async function allEvents(port: StoragePort): Promise<RunEvent[]> {
  const rows = await port.reads.all('SELECT doc FROM events ORDER BY run_id, seq', [], RAW_LIMIT);
  return rows.map((r) => JSON.parse(String(r.doc)) as RunEvent);
}

/** Every event of one run, every page of it. */
export async function eventsOf(rt: OpenwopRuntime, runId: string): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for (let from: number | undefined = 0; from !== undefined; ) {
    const page = await unitOfWork(rt.port, (tx) => rt.log.read(tx, runId, from));
    out.push(...page.events);
    from = page.nextSeq;
  }
  return out;
}

/** The entries stored (expired or not, as the store holds them) under `memoryRef`, or every entry, by id. */
export async function storedEntries(port: StoragePort, memoryRef?: string): Promise<MemoryEntry[]> {
  const rows = memoryRef === undefined
    ? await port.reads.all('SELECT doc FROM entries ORDER BY tenant, memory_ref, id', [], RAW_LIMIT)
    : await port.reads.all('SELECT doc FROM entries WHERE memory_ref = ? ORDER BY id', [memoryRef], RAW_LIMIT);
  return rows.map((r) => JSON.parse(String(r.doc)) as MemoryEntry);
}

/** Every row of every table of the store as text: what "the store holds V nowhere" is checked against. */
export async function storeText(port: StoragePort): Promise<string> {
  const parts: string[] = [];
  for (const table of SCHEMA_TABLES) parts.push(JSON.stringify(await port.reads.all(`SELECT * FROM ${table}`, [], RAW_LIMIT)));
  return parts.join('\n');
}

/** A request's view of `tenant`'s secrets (never committed): registration and redaction within one request. */
export const requestSecrets = (rt: OpenwopRuntime, tenant: string): Promise<TenantSecretScope> => rt.secretsOf(detachedTx(rt.port), tenant);

/**
 * Register `(secretId, value)` pairs in `runId`'s registry of `scope` through the real registration rules; what was
 * accepted (a value or id that could overlap a marker is refused, and left out; a value under 8 characters is not
 * registered).
 */
export async function acceptSecrets(scope: TenantSecretScope, runId: string, pairs: readonly (readonly [string, string])[]): Promise<RegisteredSecret[]> {
  const accepted: RegisteredSecret[] = [];
  for (const [secretId, value] of pairs) {
    try {
      if (await scope.register(runId, secretId, value, 'run')) accepted.push({ secretId, value });
    } catch (e) {
      if (!(e instanceof SecretRefusedError)) throw e;
    }
  }
  return accepted;
}

/** The store with its commit wrapped (the same reads): for a test that needs a slow, racing or refusing commit. */
export function withCommit(port: StoragePort, commit: (plan: WritePlan, inner: StoragePort) => Promise<readonly unknown[]>): StoragePort {
  return {
    kind: port.kind,
    location: port.location,
    reads: port.reads,
    health: () => port.health(),
    onFatal: (listener) => port.onFatal(listener),
    onWake: (listener) => port.onWake(listener),
    durability: () => port.durability(),
    close: () => port.close(),
    commit: (plan) => commit(plan, port),
  };
}

/** The store where another request (`race`) commits once, right before the first plan that `when` picks. */
export function racingPort(port: StoragePort, when: (plan: WritePlan) => boolean, race: () => Promise<unknown>): { readonly port: StoragePort; raced(): boolean } {
  let raced = false;
  const racing = withCommit(port, async (plan, inner) => {
    if (!raced && when(plan)) {
      raced = true;
      await race();
    }
    return inner.commit(plan);
  });
  return { port: racing, raced: () => raced };
}
