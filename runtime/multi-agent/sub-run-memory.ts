/**
 * Sub-run memory lifecycle (RFC 0039 §B, MAE-2).
 *
 * - Scope: a child run inherits its parent's memoryRef by default; `memoryScopeIsolation: "isolated"` gives it a
 *   fresh memoryRef minted in the SAME tenant (CTI-1 holds: the minted ref must resolve to the parent's tenant, and
 *   a parent memoryRef must resolve to the parent run's own tenant, or the dispatch is refused). A parent reads
 *   through its tenant's `TenantReader`.
 * - TTL: a child's `ttlSeconds` counts from the child's own write time — the clock when the child issued the
 *   write — never from the parent's start.
 * - Concurrency: `strict` (default) serialises every write of every child of one parent run, and the parent's
 *   reads, through one FIFO queue per parent run, so a supervisor read never interleaves with a sibling's write.
 *   `advisory` opts out: writes apply immediately, concurrent writes to the same id resolve last-write-wins (the
 *   write that reaches the store last is kept).
 */
import type { ExecutionModelCapability, RunStartedPayload } from '../../generated/ts/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import type { MemoryStorePort, StoredEntry } from '../memory/memory-port.ts';
import { isExpired } from '../memory/ttl.ts';
import { KeyedMutex } from '../shared/keyed-mutex.ts';

/** `multiAgent.executionModel.crossChildMemoryConcurrency`: strict (serialised per parent run) or advisory. */
export type CrossChildMemoryConcurrency = NonNullable<ExecutionModelCapability['crossChildMemoryConcurrency']>;

export class SubRunScopeError extends WopkitError<'sub_run_scope_cross_tenant'> {
  constructor(message: string) {
    super('sub_run_scope_cross_tenant', message, BAD_REQUEST);
  }
}

export interface SubRunMemoryOptions {
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly store: MemoryStorePort;
  /** CTI-1 tenant of a memoryRef (undefined = malformed). */
  readonly tenantOf: (memoryRef: string) => string | undefined;
  /** Tenant a run belongs to (undefined = unknown run): a parent reads with its own tenant's reader. */
  readonly tenantOfRun: (runId: string) => string | undefined;
  /** Mint a fresh memoryRef for an isolated child in `tenantId`. */
  readonly mintIsolatedRef: (tenantId: string, childRunId: string) => string;
  /** SR-1 chokepoint applied to every child write. */
  readonly redact: (content: string) => string;
  readonly concurrency?: CrossChildMemoryConcurrency;
}

export interface ChildWrite {
  readonly id?: string;
  readonly content: string;
  readonly tags?: readonly string[];
  readonly ttlSeconds?: number;
}

/** The memory handle a child run gets. */
export class ChildMemoryScope {
  readonly #owner: SubRunMemory;
  constructor(
    readonly parentRunId: string,
    readonly childRunId: string,
    readonly memoryRef: string,
    readonly tenantId: string,
    readonly isolated: boolean,
    owner: SubRunMemory,
  ) {
    this.#owner = owner;
  }
  write(w: ChildWrite): Promise<StoredEntry> {
    return this.#owner.writeFor(this, w);
  }
}

export class SubRunMemory {
  readonly #o: SubRunMemoryOptions;
  readonly #mutex = new KeyedMutex();

  constructor(o: SubRunMemoryOptions) {
    this.#o = o;
  }

  get concurrency(): CrossChildMemoryConcurrency {
    return this.#o.concurrency ?? 'strict';
  }

  /** Resolve the memory scope of a child dispatched by `parent`. */
  scopeForChild(
    parent: { readonly runId: string; readonly memoryRef: string },
    childRunId: string,
    dispatch: Readonly<Pick<RunStartedPayload, 'memoryScopeIsolation'>> = {},
  ): ChildMemoryScope {
    const tenantId = this.#o.tenantOf(parent.memoryRef);
    if (tenantId === undefined) throw new SubRunScopeError('parent memoryRef does not resolve to a tenant');
    const runTenant = this.#o.tenantOfRun(parent.runId);
    if (runTenant !== undefined && runTenant !== tenantId) throw new SubRunScopeError('parent memoryRef belongs to another tenant than the parent run (CTI-1)');
    if (dispatch.memoryScopeIsolation !== 'isolated') {
      return new ChildMemoryScope(parent.runId, childRunId, parent.memoryRef, tenantId, false, this);
    }
    const ref = this.#o.mintIsolatedRef(tenantId, childRunId);
    if (this.#o.tenantOf(ref) !== tenantId) throw new SubRunScopeError('isolated scope must stay in the parent tenant (CTI-1)');
    return new ChildMemoryScope(parent.runId, childRunId, ref, tenantId, true, this);
  }

  /** @internal used by ChildMemoryScope.write */
  writeFor(scope: ChildMemoryScope, w: ChildWrite): Promise<StoredEntry> {
    const writtenAt = this.#o.clock.now(); // TTL anchor: the child's write time
    const entry: StoredEntry = {
      id: w.id ?? this.#o.ids.next('mem'),
      content: this.#o.redact(w.content),
      tags: [...(w.tags ?? [])],
      createdAt: toIso(writtenAt),
      ...(w.ttlSeconds === undefined ? {} : { expiresAt: toIso(writtenAt + w.ttlSeconds * 1000) }),
    };
    const apply = async () => {
      await this.#o.store.upsert(scope.memoryRef, entry);
      return entry;
    };
    return this.concurrency === 'strict' ? this.#mutex.run(scope.parentRunId, apply) : apply();
  }

  /**
   * A parent supervisor read: queued behind every pending child write of this parent (strict), then filtered by
   * TTL at the current clock. Read through the parent run's tenant reader (CTI-1): a ref of another tenant, or any
   * ref read by an unknown run, reads as empty.
   */
  readForParent(parentRunId: string, memoryRef: string): Promise<StoredEntry[]> {
    const read = async () => {
      const now = this.#o.clock.now();
      return this.#o.store.readerFor(this.#o.tenantOfRun(parentRunId) ?? '').entries(memoryRef).filter((e) => !isExpired(e, now));
    };
    return this.concurrency === 'strict' ? this.#mutex.run(parentRunId, read) : read();
  }
}
