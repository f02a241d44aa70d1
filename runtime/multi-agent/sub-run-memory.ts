/**
 * Sub-run memory lifecycle (RFC 0039 §B, MAE-2).
 *
 * - Scope: a child run inherits its parent's memoryRef by default; `memoryScopeIsolation: "isolated"` gives it a
 *   fresh memoryRef minted in the SAME tenant (CTI-1 holds: the minted ref must resolve to the parent's tenant, and
 *   a parent memoryRef must resolve to the parent run's own tenant, or the dispatch is refused). A parent reads
 *   through its tenant's `TenantReader`.
 * - TTL: a child's `ttlSeconds` counts from the child's own write time — the clock when the child issued the
 *   write — never from the parent's start.
 * - Concurrency: every child write is one transaction of the store, and a parent's read sees exactly the writes
 *   committed before it, never part of one: `strict` (the default) holds by construction — a supervisor read never
 *   interleaves with a sibling's write — and within one process the writes and reads of one parent run are also
 *   taken in arrival order. `advisory` opts out of that ordering: concurrent writes to the same id resolve
 *   last-write-wins (the write that commits last is kept).
 */
import type { ExecutionModelCapability, RunStartedPayload } from '../../generated/ts/index.ts';
import type { Clock } from '../shared/clock.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import type { StoredEntry } from '../memory/stored-entry.ts';
import type { TenantReaders } from '../memory/tenant-reader.ts';
import type { MemoryWriter } from '../memory/writer.ts';
import { KeyedMutex } from '../shared/keyed-mutex.ts';
import type { Tx, Units } from '../storage/index.ts';

/** `multiAgent.executionModel.crossChildMemoryConcurrency`: strict (serialised per parent run) or advisory. */
export type CrossChildMemoryConcurrency = NonNullable<ExecutionModelCapability['crossChildMemoryConcurrency']>;

export class SubRunScopeError extends WopkitError<'sub_run_scope_cross_tenant'> {
  constructor(message: string) {
    super('sub_run_scope_cross_tenant', message, BAD_REQUEST);
  }
}

export interface SubRunMemoryOptions {
  /** Opens the unit of work of each child's write (its own unit: see {@link SubRunMemory.childWrite}). */
  readonly units: Units;
  readonly clock: Clock;
  readonly store: TenantReaders;
  /** The write path (SR-1 chokepoint of the child's scope; the child run's registry must be live). */
  readonly writer: MemoryWriter;
  /** CTI-1 tenant of a memoryRef (undefined = malformed). */
  readonly tenantOf: (memoryRef: string) => string | undefined;
  /** Tenant a run belongs to (undefined = unknown run): a parent reads with its own tenant's reader. */
  readonly tenantOfRun: (tx: Tx, runId: string) => Promise<string | undefined>;
  /** Mint a fresh memoryRef for an isolated child in `tenantId`. */
  readonly mintIsolatedRef: (tenantId: string, childRunId: string) => string;
  readonly concurrency?: CrossChildMemoryConcurrency;
}

export interface ChildWrite {
  readonly id?: string;
  readonly content: string;
  readonly tags?: readonly string[];
  readonly ttlSeconds?: number;
}

/** The memory scope a child run writes into. */
export interface ChildMemoryScope {
  readonly parentRunId: string;
  readonly childRunId: string;
  readonly memoryRef: string;
  readonly tenantId: string;
  readonly isolated: boolean;
}

/** Most entries a parent's read returns (the spec's list page bound). */
export const PARENT_READ_LIMIT = 1000;

export class SubRunMemory {
  readonly #o: SubRunMemoryOptions;
  readonly #mutex = new KeyedMutex();

  constructor(o: SubRunMemoryOptions) {
    this.#o = o;
  }

  get concurrency(): CrossChildMemoryConcurrency {
    return this.#o.concurrency ?? 'strict';
  }

  /** Resolve the memory scope of a child dispatched by `parent` (its run's tenant read through `tx`). */
  async scopeForChild(
    tx: Tx,
    parent: { readonly runId: string; readonly memoryRef: string },
    childRunId: string,
    dispatch: Readonly<Pick<RunStartedPayload, 'memoryScopeIsolation'>> = {},
  ): Promise<ChildMemoryScope> {
    const tenantId = this.#o.tenantOf(parent.memoryRef);
    if (tenantId === undefined) throw new SubRunScopeError('parent memoryRef does not resolve to a tenant');
    const runTenant = await this.#o.tenantOfRun(tx, parent.runId);
    if (runTenant !== undefined && runTenant !== tenantId) throw new SubRunScopeError('parent memoryRef belongs to another tenant than the parent run (CTI-1)');
    if (dispatch.memoryScopeIsolation !== 'isolated') return { parentRunId: parent.runId, childRunId, memoryRef: parent.memoryRef, tenantId, isolated: false };
    const ref = this.#o.mintIsolatedRef(tenantId, childRunId);
    if (this.#o.tenantOf(ref) !== tenantId) throw new SubRunScopeError('isolated scope must stay in the parent tenant (CTI-1)');
    return { parentRunId: parent.runId, childRunId, memoryRef: ref, tenantId, isolated: true };
  }

  /**
   * A child's write: its scope resolved, then the write into it, as the child's own unit of work (the one place a
   * sub-run opens a unit: the spec commits a child's write on its own, and `strict` serialises it per parent run,
   * commit included, so a parent's read after it sees it).
   */
  async childWrite(
    parent: { readonly runId: string; readonly memoryRef: string },
    childRunId: string,
    w: ChildWrite,
    dispatch: Readonly<Pick<RunStartedPayload, 'memoryScopeIsolation'>> = {},
  ): Promise<{ scope: ChildMemoryScope; entry: StoredEntry }> {
    let scope: ChildMemoryScope | undefined;
    const entry = await this.#commitWrite(parent.runId, async (tx) => (scope = await this.scopeForChild(tx, parent, childRunId, dispatch)), w);
    return { scope: scope!, entry };
  }

  /**
   * A child's write into a scope already resolved, attributed to the child run and committed as its own transaction —
   * redone from its reads when the tenant's secrets changed between its redaction and its commit.
   */
  write(scope: ChildMemoryScope, w: ChildWrite): Promise<StoredEntry> {
    return this.#commitWrite(scope.parentRunId, () => scope, w);
  }

  #commitWrite(parentRunId: string, scopeOf: (tx: Tx) => ChildMemoryScope | Promise<ChildMemoryScope>, w: ChildWrite): Promise<StoredEntry> {
    const apply = () => this.#o.units(async (tx) => {
      const scope = await scopeOf(tx);
      const ctx = { runId: scope.childRunId, tenant: scope.tenantId };
      const { stored } = await this.#o.writer.put(tx, scope.memoryRef, {
        ...(w.id !== undefined ? { id: w.id } : {}),
        content: w.content,
        tags: [...(w.tags ?? [])],
        ...(w.ttlSeconds === undefined ? {} : { ttlSeconds: w.ttlSeconds }), // TTL anchor: the child's write time (the entry's createdAt)
      }, ctx);
      return stored;
    }).then((stored) => stored.value);
    return this.concurrency === 'strict' ? this.#mutex.run(parentRunId, apply) : apply();
  }

  /**
   * A parent supervisor read: after every write of its children this process took before it (strict), the
   * unexpired entries at the current clock, through the parent run's tenant reader (CTI-1): a ref of another
   * tenant, or any ref read by an unknown run, reads as empty. Read through the caller's `tx`.
   */
  readForParent(tx: Tx, parentRunId: string, memoryRef: string): Promise<StoredEntry[]> {
    const read = async () => {
      const tenant = (await this.#o.tenantOfRun(tx, parentRunId)) ?? '';
      return this.#o.store.readerFor(tx, tenant).sources(memoryRef, { atMs: this.#o.clock.now(), limit: PARENT_READ_LIMIT });
    };
    return this.concurrency === 'strict' ? this.#mutex.run(parentRunId, read) : read();
  }
}
