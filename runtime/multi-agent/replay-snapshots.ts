/**
 * Replay memory snapshots (RFC 0039 §B, MAE-3).
 *
 * Mechanism: an append-only journal of memory mutations. Every mutation gets a global journal sequence (`jseq`)
 * and is stamped with the `(runId, runSeq)` that caused it when a run did (host-managed writers such as
 * consolidation leave it empty). Every event appended to a run's log records a watermark: the journal head and the
 * clock at that moment. Memory "as it was at event index N of run R" is the state after every mutation with
 * `jseq <= watermark(R, N).jseq` — computed by reverse projection: start from the journal's mirror of the current
 * state and undo, newest first, every mutation of that memoryRef with a larger jseq. Entries the TTL rule
 * (`memory/ttl.ts`) finds expired at the watermark's clock are hidden (TTL evaluated at the snapshot anchor, not now).
 *
 * Tenancy (CTI-1): a fork view reads its snapshot through a `TenantReader` bound to the fork run's tenant, so a ref
 * of another tenant reads as empty from a fork exactly as it does from the live adapter.
 *
 * Availability: reverse projection needs every mutation after the watermark. Retention pruning drops mutations
 * older than `retentionMs` (never past a held fork's watermark); a fork whose watermark precedes the pruned
 * prefix is refused with `replay_memory_snapshot_unavailable` / `retention_expired`. A fork of a run whose event
 * index is gone (never recorded, or dropped with the run's log) is refused with `event_log_unavailable`.
 */
import type { MemoryListOptions, ReplayMemorySnapshotUnavailableDetails } from '../../generated/ts/index.ts';
import type { Clock } from '../shared/clock.ts';
import { WopkitError } from '../shared/errors.ts';
import type { MemoryStorePort, StoredEntry } from '../memory/memory-port.ts';
import { ReadSnapshotHolds } from '../memory/read-snapshots.ts';
import { TenantReader, type RawEntrySource } from '../memory/tenant-reader.ts';
import { isExpired } from '../memory/ttl.ts';

export interface JournalRecord {
  readonly jseq: number;
  readonly memoryRef: string;
  readonly memoryId: string;
  readonly before: StoredEntry | null;
  readonly after: StoredEntry | null;
  readonly at: number;
  readonly runId?: string;
  readonly runSeq?: number;
}

/** Typed refusal of a fork whose memory snapshot cannot be served (RFC 0039 §C): 422 with the details. */
export class ReplayMemorySnapshotUnavailableError extends WopkitError<'replay_memory_snapshot_unavailable'> {
  declare readonly details: ReplayMemorySnapshotUnavailableDetails;
  constructor(details: ReplayMemorySnapshotUnavailableDetails) {
    super(
      'replay_memory_snapshot_unavailable',
      details.reason === 'retention_expired'
        ? `memory snapshot for event index ${details.fromSeq} is past journal retention`
        : `event log of the source run is unavailable; no memory snapshot can be anchored`,
      { error: 'replay_memory_snapshot_unavailable', message: 'no memory snapshot can be served for that fork point', details },
    );
  }
}

export class ForkSeqOutOfRangeError extends WopkitError<'fork_seq_out_of_range'> {
  constructor(readonly fromSeq: number, readonly lastSeq: number | undefined) {
    super('fork_seq_out_of_range', `fork index ${fromSeq} is beyond the source run's last event (${String(lastSeq)})`);
  }
}

/**
 * What the journal tells a durable store (absent: in memory only): each mutation recorded, each event watermark,
 * a run's watermarks dropped, the journal pruned through a jseq. `restore` puts the stored journal back at start.
 */
export interface JournalPersistence {
  recorded(record: JournalRecord): void;
  marked(runId: string, mark: { readonly seq: number; readonly jseq: number; readonly at: number }): void;
  droppedRun(runId: string): void;
  pruned(throughJseq: number): void;
}

/** A stored journal, as `restore` takes it back. */
export interface StoredJournal {
  /** Retained records, in jseq order. */
  readonly records: readonly JournalRecord[];
  /** Event watermarks, in (runId, seq) order. */
  readonly watermarks: readonly { readonly runId: string; readonly seq: number; readonly jseq: number; readonly at: number }[];
  /** The live raw entries (the journal's mirror of the current state). */
  readonly entries: Iterable<{ readonly memoryRef: string; readonly entry: StoredEntry }>;
}

interface RunIndex {
  readonly seqs: number[];
  readonly jseqs: number[];
  readonly ats: number[];
}

export interface Watermark {
  readonly jseq: number;
  readonly at: number;
}

export class MemoryJournal {
  readonly #clock: Clock;
  readonly #retentionMs: number;
  readonly holds: ReadSnapshotHolds;
  #head = 0;
  #prunedThrough = 0;
  /** All retained records in jseq order (pruned from the front). */
  #records: JournalRecord[] = [];
  #recordsStart = 0;
  readonly #byRef = new Map<string, JournalRecord[]>();
  readonly #mirror = new Map<string, Map<string, StoredEntry>>();
  readonly #runs = new Map<string, RunIndex>();
  #persistence: JournalPersistence | undefined;

  constructor(o: { clock: Clock; retentionMs?: number; holds?: ReadSnapshotHolds }) {
    this.#clock = o.clock;
    this.#retentionMs = o.retentionMs ?? Number.POSITIVE_INFINITY;
    this.holds = o.holds ?? new ReadSnapshotHolds();
  }

  /** Highest journal sequence assigned so far. */
  get head(): number {
    return this.#head;
  }

  /** Every record with jseq <= this has been pruned. */
  get prunedThrough(): number {
    return this.#prunedThrough;
  }

  /** Append a mutation (after = null for a delete). Returns its jseq. */
  record(m: { memoryRef: string; memoryId: string; after: StoredEntry | null; runId?: string; runSeq?: number }): number {
    let refMirror = this.#mirror.get(m.memoryRef);
    if (refMirror === undefined) this.#mirror.set(m.memoryRef, (refMirror = new Map()));
    const before = refMirror.get(m.memoryId) ?? null;
    const jseq = ++this.#head;
    const rec: JournalRecord = {
      jseq,
      memoryRef: m.memoryRef,
      memoryId: m.memoryId,
      before,
      after: m.after,
      at: this.#clock.now(),
      ...(m.runId === undefined ? {} : { runId: m.runId }),
      ...(m.runSeq === undefined ? {} : { runSeq: m.runSeq }),
    };
    this.#records.push(rec);
    let list = this.#byRef.get(m.memoryRef);
    if (list === undefined) this.#byRef.set(m.memoryRef, (list = []));
    list.push(rec);
    if (m.after === null) refMirror.delete(m.memoryId);
    else refMirror.set(m.memoryId, m.after);
    this.#persistence?.recorded(rec);
    return jseq;
  }

  /** Write every later mutation, watermark, dropped run and prune through `persistence`. */
  persistTo(persistence: JournalPersistence): void {
    this.#persistence = persistence;
  }

  /**
   * Put back a stored journal at start (no write-back), before anything is recorded: the head continues after the
   * highest jseq stored, and everything before the first retained record counts as pruned.
   */
  restore(stored: StoredJournal): void {
    for (const { memoryRef, entry } of stored.entries) {
      let refMirror = this.#mirror.get(memoryRef);
      if (refMirror === undefined) this.#mirror.set(memoryRef, (refMirror = new Map()));
      refMirror.set(entry.id, entry);
    }
    for (const rec of stored.records) {
      this.#records.push(rec);
      let list = this.#byRef.get(rec.memoryRef);
      if (list === undefined) this.#byRef.set(rec.memoryRef, (list = []));
      list.push(rec);
    }
    for (const w of stored.watermarks) {
      let idx = this.#runs.get(w.runId);
      if (idx === undefined) this.#runs.set(w.runId, (idx = { seqs: [], jseqs: [], ats: [] }));
      idx.seqs.push(w.seq);
      idx.jseqs.push(w.jseq);
      idx.ats.push(w.at);
    }
    this.#head = stored.watermarks.reduce((head, w) => Math.max(head, w.jseq), Math.max(this.#head, stored.records.at(-1)?.jseq ?? 0));
    this.#prunedThrough = stored.records.length > 0 ? stored.records[0]!.jseq - 1 : this.#head;
  }

  /** Record that event `seq` was appended to `runId`'s log now (seqs must be increasing per run). */
  markEvent(runId: string, seq: number): void {
    let idx = this.#runs.get(runId);
    if (idx === undefined) this.#runs.set(runId, (idx = { seqs: [], jseqs: [], ats: [] }));
    const last = idx.seqs[idx.seqs.length - 1];
    if (last !== undefined && seq <= last) throw new RangeError(`event seq must increase per run (${seq} <= ${last})`);
    idx.seqs.push(seq);
    idx.jseqs.push(this.#head);
    idx.ats.push(this.#clock.now());
    this.#persistence?.marked(runId, { seq, jseq: this.#head, at: idx.ats[idx.ats.length - 1]! });
  }

  /** Forget a run's event index (its event log is gone). */
  dropRun(runId: string): void {
    if (this.#runs.delete(runId)) this.#persistence?.droppedRun(runId);
  }

  /** Drop records older than the retention window, never past a held watermark. Returns how many were dropped. */
  prune(): number {
    const cutoff = this.#clock.now() - this.#retentionMs;
    const hold = this.holds.minWatermark();
    let dropped = 0;
    while (this.#recordsStart < this.#records.length) {
      const r = this.#records[this.#recordsStart]!;
      if (!(r.at < cutoff) || r.jseq > hold) break;
      this.#recordsStart++;
      this.#prunedThrough = r.jseq;
      dropped++;
    }
    if (dropped > 0) {
      this.#records = this.#records.slice(this.#recordsStart);
      this.#recordsStart = 0;
      for (const [ref, list] of this.#byRef) {
        let k = 0;
        while (k < list.length && list[k]!.jseq <= this.#prunedThrough) k++;
        if (k > 0) this.#byRef.set(ref, list.slice(k));
      }
      this.#persistence?.pruned(this.#prunedThrough);
    }
    return dropped;
  }

  /** The watermark of `(sourceRunId, fromSeq)`, or the typed refusal. */
  watermark(sourceRunId: string, fromSeq: number): Watermark {
    const idx = this.#runs.get(sourceRunId);
    if (idx === undefined) {
      throw new ReplayMemorySnapshotUnavailableError({ fromSeq, sourceRunId, reason: 'event_log_unavailable' });
    }
    const i = lowerBound(idx.seqs, fromSeq);
    if (i >= idx.seqs.length || idx.seqs[i] !== fromSeq) {
      throw new ForkSeqOutOfRangeError(fromSeq, idx.seqs[idx.seqs.length - 1]);
    }
    const jseq = idx.jseqs[i]!;
    if (jseq < this.#prunedThrough) {
      const oldest = lowerBound(idx.jseqs, this.#prunedThrough);
      const details: ReplayMemorySnapshotUnavailableDetails = { fromSeq, sourceRunId, reason: 'retention_expired' };
      if (oldest < idx.seqs.length) details.oldestAvailableIdx = idx.seqs[oldest]!;
      throw new ReplayMemorySnapshotUnavailableError(details);
    }
    return { jseq, at: idx.ats[i]! };
  }

  /** Raw state of `memoryRef` at a watermark (reverse projection), TTL-filtered at the watermark's clock. */
  stateAt(memoryRef: string, w: Watermark): Map<string, StoredEntry> {
    if (w.jseq < this.#prunedThrough) throw new RangeError('watermark precedes the retained journal');
    const state = new Map(this.#mirror.get(memoryRef) ?? []);
    const list = this.#byRef.get(memoryRef) ?? [];
    for (let k = list.length - 1; k >= 0 && list[k]!.jseq > w.jseq; k--) {
      const r = list[k]!;
      if (r.before === null) state.delete(r.memoryId);
      else state.set(r.memoryId, r.before);
    }
    for (const [id, e] of state) if (isExpired(e, w.at)) state.delete(id);
    return state;
  }

  /**
   * Open a read-only memory view for `fork`, a fork of `sourceRunId` at `fromSeq` (the preflight: throws the typed
   * refusal when unavailable). The view reads the snapshot through a reader bound to the fork run's tenant (CTI-1:
   * another tenant's ref reads as empty, as it does live) and pins its watermark against pruning until `close()`.
   */
  openFork(fork: ForkRun, sourceRunId: string, fromSeq: number): ForkMemoryView {
    const w = this.watermark(sourceRunId, fromSeq);
    const snapshot = new SnapshotAt(this, fork.runId, w);
    return new ForkMemoryView(new TenantReader(fork.tenant, snapshot), snapshot);
  }
}

/** The run a fork view is opened for: its id (for the snapshot hold) and the tenant it belongs to. */
export interface ForkRun {
  readonly runId: string;
  readonly tenant: string;
}

function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What a fork view holds of its snapshot besides the reader: its identity and its pin (no raw reads). */
export interface PinnedSnapshot {
  readonly forkRunId: string;
  readonly watermark: Watermark;
  /** Release the watermark pin; the snapshot cannot be read afterwards. */
  close(): void;
}

/**
 * The raw backing of a fork view: memory at one watermark, projected per memoryRef on first read (which pins the
 * watermark for that ref) and cached. Read only through the view's TenantReader.
 */
class SnapshotAt implements RawEntrySource, PinnedSnapshot {
  readonly #journal: MemoryJournal;
  readonly #cache = new Map<string, Map<string, StoredEntry>>();
  #closed = false;

  constructor(journal: MemoryJournal, readonly forkRunId: string, readonly watermark: Watermark) {
    this.#journal = journal;
  }

  #state(memoryRef: string): Map<string, StoredEntry> {
    if (this.#closed) throw new Error('fork memory view is closed');
    let s = this.#cache.get(memoryRef);
    if (s === undefined) {
      this.#journal.holds.acquire(this.forkRunId, memoryRef, this.watermark.jseq);
      s = this.#journal.stateAt(memoryRef, this.watermark);
      this.#cache.set(memoryRef, s);
    }
    return s;
  }

  listRawSync(memoryRef: string): readonly StoredEntry[] {
    return [...this.#state(memoryRef).values()];
  }

  getRawSync(memoryRef: string, id: string): StoredEntry | undefined {
    return this.#state(memoryRef).get(id);
  }

  close(): void {
    this.#closed = true;
    this.#journal.holds.release(this.forkRunId);
  }
}

/** What a forked run reads: memory as of the fork point, read-only, through a reader bound to the fork's tenant. */
export class ForkMemoryView {
  readonly #reader: TenantReader;
  readonly #snapshot: PinnedSnapshot;

  /** @internal built by `MemoryJournal.openFork`: `reader` reads `snapshot` for the fork run's tenant. */
  constructor(reader: TenantReader, snapshot: PinnedSnapshot) {
    this.#reader = reader;
    this.#snapshot = snapshot;
  }

  get forkRunId(): string {
    return this.#snapshot.forkRunId;
  }
  get watermark(): Watermark {
    return this.#snapshot.watermark;
  }
  get tenant(): string {
    return this.#reader.tenant;
  }

  async list(memoryRef: string, options: Readonly<MemoryListOptions> = {}): Promise<StoredEntry[]> {
    let out = [...this.#reader.entries(memoryRef)].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
    if (options.tag !== undefined) out = out.filter((e) => e.tags.includes(options.tag!));
    return options.limit === undefined ? out : out.slice(0, options.limit);
  }

  async get(memoryRef: string, memoryId: string): Promise<StoredEntry | null> {
    return this.#reader.entry(memoryRef, memoryId) ?? null;
  }

  close(): void {
    this.#snapshot.close();
  }
}

/**
 * A store port that journals every mutation before reporting it done. Wrap the memory adapter's port with this so
 * every writer (runs, sub-runs, consolidation) lands in the journal.
 */
export class JournaledStore implements MemoryStorePort {
  constructor(
    readonly inner: MemoryStorePort,
    readonly journal: MemoryJournal,
  ) {}
  readerFor(tenant: string): TenantReader {
    return this.inner.readerFor(tenant);
  }
  async upsert(memoryRef: string, entry: StoredEntry, stamp: { runId?: string; runSeq?: number } = {}): Promise<void> {
    await this.inner.upsert(memoryRef, entry);
    this.journal.record({ memoryRef, memoryId: entry.id, after: entry, ...stamp });
  }
  async remove(memoryRef: string, id: string, stamp: { runId?: string; runSeq?: number } = {}): Promise<boolean> {
    const existed = await this.inner.remove(memoryRef, id);
    if (existed) this.journal.record({ memoryRef, memoryId: id, after: null, ...stamp });
    return existed;
  }
}
