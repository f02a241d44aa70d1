/**
 * Standing commitments (RFC 0068 §C): arm memory-derived commitments on a time or predicate condition and fire
 * each at most once per condition instance.
 *
 * - Condition instances: a time commitment has one instance, `time:<epoch ms>`; a predicate commitment has one
 *   instance per false→true transition of its predicate, `predicate:<n>` (n counts transitions from 1). The
 *   predicate's observed value starts at `false` when armed, so a predicate already true at arming fires once.
 * - The fired ledger is keyed by `(commitmentId, instance)` and is written BEFORE anything is emitted: a crash
 *   between the two loses a notification rather than duplicating it (at-most-once).
 * - Replay: an engine in `replay` mode never infers, arms or fires; `replayFromLog` re-reads the recorded
 *   `commitment.fired` events (and rebuilds the ledger from them so a later live engine will not re-fire).
 * - CTI-1: every commitment carries the tenant of its source memoryRef; the predicate source is asked within that
 *   tenant, and an enqueued run must come back in the same tenant or the engine refuses it.
 * - Cost (issue 12, item 4): predicate commitments are indexed by `(tenant, predicateId)`. A source that can say
 *   when a predicate may have changed (`watch`) feeds a dirty set, and a tick evaluates only the dirty predicates
 *   (plus those of commitments armed since the last tick), each once, concurrently; a source that cannot is asked
 *   once per distinct predicate per tick. Time commitments sit in a heap. A tick therefore costs O(log n + work
 *   due) in armed commitments, not O(n) awaited evaluations. What fires, and in which order (time commitments in
 *   due order, then predicate commitments in arming order), is what evaluating every commitment would fire; the
 *   fires of one tick run concurrently (each is in the ledger before anything is emitted), and one that fails does
 *   not stop the others — the tick then rejects with the first failure.
 * - Content-free: the emitted payload carries ids and the condition kind only.
 * - States: every move of a commitment (fire, predicate edge, cancel) goes through COMMITMENT_LIFECYCLE
 *   (commitment-lifecycle.ts), the table the site draws.
 */
import type { CommitmentFiredPayload } from '../../generated/ts/index.ts';
import type { Clock } from '../shared/clock.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import { TimerHeap } from '../shared/timer-heap.ts';
import { transition } from '../shared/state-machine.ts';
import { COMMITMENT_LIFECYCLE } from './commitment-lifecycle.ts';
import {
  tagRuleInference,
  type Commitment,
  type CommitmentInference,
  type InferenceSource,
  type InferredCommitment,
} from './inference.ts';
import type { CommitmentPersistence } from './persistence.ts';

/**
 * The `commitment.fired` payload (RFC 0068 §C) this engine emits: the generated payload plus `conditionInstance`,
 * an additive identifier (allowed: the payload is open) that lets replay rebuild the fired ledger.
 */
export type FiredCommitmentPayload = CommitmentFiredPayload & { conditionInstance: string };

export interface FiredRecord {
  readonly commitmentId: string;
  readonly instance: string;
  readonly firedAt: number;
}

/** Durable record of fired instances and of each predicate's last observed value. */
export interface FiredLedger {
  has(commitmentId: string, instance: string): boolean;
  record(r: FiredRecord): void;
  predicateState(commitmentId: string): { readonly last: boolean; readonly transitions: number } | undefined;
  setPredicateState(commitmentId: string, s: { readonly last: boolean; readonly transitions: number }): void;
}

export class InMemoryFiredLedger implements FiredLedger {
  readonly #fired = new Map<string, FiredRecord>();
  readonly #pred = new Map<string, { last: boolean; transitions: number }>();
  has(commitmentId: string, instance: string): boolean {
    return this.#fired.has(`${commitmentId}#${instance}`);
  }
  record(r: FiredRecord): void {
    this.#fired.set(`${r.commitmentId}#${r.instance}`, r);
  }
  predicateState(id: string): { last: boolean; transitions: number } | undefined {
    return this.#pred.get(id);
  }
  setPredicateState(id: string, s: { last: boolean; transitions: number }): void {
    this.#pred.set(id, { ...s });
  }
  get size(): number {
    return this.#fired.size;
  }
}

/** Pluggable predicate evaluation (RFC 0060 heartbeat substrate in a real host). */
export interface PredicateSource {
  evaluate(predicateId: string, tenantId: string): boolean | Promise<boolean>;
  /**
   * Optional: call `onChange` whenever a predicate's value may have changed. With it, a tick evaluates only those
   * predicates; without it, every distinct armed predicate once per tick.
   */
  watch?(onChange: (predicateId: string, tenantId: string) => void): void;
}

/** An armed predicate commitment and the order it was armed in. */
interface ArmedPredicate {
  readonly commitment: Commitment & { readonly condition: { readonly kind: 'predicate'; readonly predicateId: string } };
  readonly seq: number;
}

const predicateKey = (tenantId: string, predicateId: string): string => `${tenantId}\u0000${predicateId}`;

/** Enqueue a run for a fired commitment; must return the run id and the tenant it was created in. */
export type RunEnqueuer = (req: {
  readonly tenantId: string;
  readonly commitmentId: string;
  readonly memoryRef: string;
  readonly memoryId?: string;
}) => Promise<{ readonly runId: string; readonly tenantId: string }> | { readonly runId: string; readonly tenantId: string };

/** Where `commitment.fired` goes (the event log adapter decides the stream; the run id is set when a run was enqueued). */
export type CommitmentEventSink = (
  type: 'commitment.fired',
  payload: FiredCommitmentPayload,
  ctx: { readonly tenantId: string; readonly runId?: string },
) => void | Promise<void>;

export class CommitmentError extends WopkitError<'commitment_invalid_memory_ref' | 'commitment_cross_tenant_run' | 'commitment_replay_mode'> {
  constructor(code: CommitmentError['code'], message: string) {
    super(code, message, BAD_REQUEST);
  }
}

export interface CommitmentEngineOptions {
  readonly clock: Clock;
  /** CTI-1 resolver: tenant of a memoryRef, or undefined for a malformed / unknown ref. */
  readonly tenantOf: (memoryRef: string) => string | undefined;
  readonly emit: CommitmentEventSink;
  readonly ledger?: FiredLedger;
  readonly predicates?: PredicateSource;
  readonly enqueueRun?: RunEnqueuer;
  readonly inference?: CommitmentInference;
  readonly mode?: 'live' | 'replay';
  /** A durable store's view of the armed set and the fire claims (persistence.ts); absent: in memory only. */
  readonly persistence?: CommitmentPersistence;
}

export interface FireOutcome {
  readonly commitmentId: string;
  readonly instance: string;
  readonly payload: FiredCommitmentPayload;
}

export class CommitmentEngine {
  readonly #o: CommitmentEngineOptions;
  readonly #ledger: FiredLedger;
  readonly #inference: CommitmentInference;
  readonly #heap = new TimerHeap<Commitment>();
  readonly #timeHandles = new Map<string, number>();
  /** commitmentId → armed predicate commitment. */
  readonly #predicates = new Map<string, ArmedPredicate>();
  /** (tenant, predicateId) → its armed commitments, by id. */
  readonly #byPredicate = new Map<string, Map<string, ArmedPredicate>>();
  /** Predicates to evaluate at the next tick (used when the source watches). */
  readonly #dirty = new Set<string>();
  readonly #watching: boolean;
  #armSeq = 0;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(o: CommitmentEngineOptions) {
    this.#o = o;
    this.#ledger = o.ledger ?? new InMemoryFiredLedger();
    this.#inference = o.inference ?? tagRuleInference;
    this.#watching = o.predicates?.watch !== undefined;
    o.predicates?.watch?.((predicateId, tenantId) => {
      const key = predicateKey(tenantId, predicateId);
      if (this.#byPredicate.has(key)) this.#dirty.add(key);
    });
  }

  get mode(): 'live' | 'replay' {
    return this.#o.mode ?? 'live';
  }

  get ledger(): FiredLedger {
    return this.#ledger;
  }

  /** Number of armed commitments (time + predicate). */
  get armedCount(): number {
    return this.#heap.size + this.#predicates.size;
  }

  /** Infer commitments from an entry of `memoryRef` and arm them. Returns what was armed (none in replay mode). */
  inferFrom(memoryRef: string, entry: InferenceSource): Commitment[] {
    if (this.mode === 'replay') return [];
    return this.#inference
      .infer(memoryRef, entry)
      .map((c) => this.arm(c))
      .filter((c): c is Commitment => c !== undefined);
  }

  /**
   * Arm a commitment; binds it to the tenant of its memoryRef (refused when the ref is malformed). Arming an
   * already armed id, or a time instance already in the ledger, is a no-op (returns undefined).
   */
  arm(c: InferredCommitment): Commitment | undefined {
    if (this.mode === 'replay') throw new CommitmentError('commitment_replay_mode', 'replay never arms commitments');
    const tenantId = this.#o.tenantOf(c.memoryRef);
    if (tenantId === undefined) {
      throw new CommitmentError('commitment_invalid_memory_ref', 'memoryRef does not resolve to a tenant (CTI-1)');
    }
    const armed: Commitment = { ...c, tenantId };
    if (c.condition.kind === 'time') {
      if (this.#timeHandles.has(c.commitmentId)) return undefined;
      if (this.#ledger.has(c.commitmentId, `time:${c.condition.at}`)) return undefined;
      this.#timeHandles.set(c.commitmentId, this.#heap.schedule(c.condition.at, armed));
    } else {
      if (this.#predicates.has(c.commitmentId)) return undefined;
      const entry: ArmedPredicate = { commitment: { ...armed, condition: c.condition }, seq: this.#armSeq++ };
      const key = predicateKey(tenantId, c.condition.predicateId);
      this.#predicates.set(c.commitmentId, entry);
      let group = this.#byPredicate.get(key);
      if (group === undefined) this.#byPredicate.set(key, (group = new Map()));
      group.set(c.commitmentId, entry);
      this.#dirty.add(key); // a newly armed commitment is looked at once (a predicate already true fires it)
    }
    this.#o.persistence?.armed(armed);
    return armed;
  }

  /** Cancel an armed commitment (lazy deletion in the heap). */
  cancel(commitmentId: string): boolean {
    const h = this.#timeHandles.get(commitmentId);
    if (h !== undefined) {
      transition(COMMITMENT_LIFECYCLE, 'armed', 'cancelled');
      this.#timeHandles.delete(commitmentId);
      this.#o.persistence?.disarmed(commitmentId);
      return this.#heap.cancel(h);
    }
    const entry = this.#predicates.get(commitmentId);
    if (entry === undefined) return false;
    transition(COMMITMENT_LIFECYCLE, this.#ledger.predicateState(commitmentId)?.last === true ? 'held' : 'armed', 'cancelled');
    this.#predicates.delete(commitmentId);
    const key = predicateKey(entry.commitment.tenantId, entry.commitment.condition.predicateId);
    const group = this.#byPredicate.get(key);
    group?.delete(commitmentId);
    if (group?.size === 0) {
      this.#byPredicate.delete(key);
      this.#dirty.delete(key);
    }
    this.#o.persistence?.disarmed(commitmentId);
    return true;
  }

  /**
   * Fire every due time commitment and every predicate commitment whose predicate turned true since the last
   * evaluation. Ticks are serialised; in replay mode a tick fires nothing.
   */
  tick(): Promise<FireOutcome[]> {
    const run = this.#queue.then(() => this.#tick());
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #tick(): Promise<FireOutcome[]> {
    if (this.mode === 'replay') return [];
    const due: [Commitment, string][] = [];
    for (const c of this.#heap.popDue(this.#o.clock.now())) {
      transition(COMMITMENT_LIFECYCLE, 'armed', 'fired');
      this.#timeHandles.delete(c.commitmentId);
      due.push([c, `time:${(c.condition as { at: number }).at}`]);
    }
    due.push(...(await this.#predicateTransitions()));
    const settled = await Promise.allSettled(due.map(([c, instance]) => this.#fire(c, instance)));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return settled.flatMap((r) => (r.status === 'fulfilled' && r.value !== undefined ? [r.value] : []));
  }

  /**
   * Evaluate each predicate that may have changed once (concurrently), update the per-commitment state, and return
   * the commitments whose predicate turned true, in arming order, with their condition instance.
   */
  async #predicateTransitions(): Promise<[Commitment, string][]> {
    const source = this.#o.predicates;
    if (source === undefined || this.#predicates.size === 0) return [];
    const keys = this.#watching ? [...this.#dirty] : [...this.#byPredicate.keys()];
    this.#dirty.clear();
    // Who is armed now: a commitment armed while the predicates are being evaluated waits for the next tick.
    const work = keys.flatMap((key) => {
      const group = this.#byPredicate.get(key);
      return group === undefined ? [] : [[...group.values()]];
    });
    const values = await Promise.all(work.map((group) => {
      const { condition, tenantId } = group[0]!.commitment;
      return Promise.resolve(source.evaluate(condition.predicateId, tenantId)).then((v) => v === true);
    }));
    const fired: ArmedPredicate[] = [];
    const instances = new Map<ArmedPredicate, string>();
    work.forEach((group, i) => {
      const value = values[i]!;
      for (const entry of group) {
        const c = entry.commitment;
        if (this.#predicates.get(c.commitmentId) !== entry) continue; // cancelled while evaluating
        const st = this.#ledger.predicateState(c.commitmentId) ?? { last: false, transitions: 0 };
        if (value !== st.last) transition(COMMITMENT_LIFECYCLE, st.last ? 'held' : 'armed', value ? 'held' : 'armed');
        if (value && !st.last) {
          const transitions = st.transitions + 1;
          this.#ledger.setPredicateState(c.commitmentId, { last: true, transitions });
          fired.push(entry);
          instances.set(entry, `predicate:${transitions}`);
        } else if (value !== st.last) {
          this.#ledger.setPredicateState(c.commitmentId, { last: value, transitions: st.transitions });
        }
      }
    });
    return fired.sort((a, b) => a.seq - b.seq).map((e) => [e.commitment, instances.get(e)!]);
  }

  async #fire(c: Commitment, instance: string): Promise<FireOutcome | undefined> {
    if (this.#ledger.has(c.commitmentId, instance)) return undefined;
    const firedAt = this.#o.clock.now();
    this.#ledger.record({ commitmentId: c.commitmentId, instance, firedAt });
    // A durable store decides who fires (another process, or this one before a restart, may have claimed it).
    if (this.#o.persistence !== undefined && !(await this.#o.persistence.claimFire(c, instance, firedAt))) return undefined;
    return this.announceClaimed(c, instance);
  }

  /**
   * Announce a fire whose claim is already held: enqueue its run (when asked) and emit `commitment.fired`. `#fire`
   * calls it after winning the claim; a host calls it at start for a claim a crash left without its event. With a
   * synchronous enqueuer and sink, everything it writes is written in one synchronous step (one group commit).
   */
  async announceClaimed(c: Commitment, instance: string): Promise<FireOutcome> {
    const payload: FiredCommitmentPayload = {
      commitmentId: c.commitmentId,
      memoryRef: c.memoryRef,
      condition: c.condition.kind,
      conditionInstance: instance,
    };
    if (c.memoryId !== undefined) payload.memoryId = c.memoryId;
    let runId: string | undefined;
    if (c.enqueueRun && this.#o.enqueueRun !== undefined) {
      const req = { tenantId: c.tenantId, commitmentId: c.commitmentId, memoryRef: c.memoryRef };
      const enqueued = this.#o.enqueueRun(c.memoryId === undefined ? req : { ...req, memoryId: c.memoryId });
      // Not awaited when synchronous: the run's writes and the fired event then join one write batch.
      const run = enqueued instanceof Promise ? await enqueued : enqueued;
      if (run.tenantId !== c.tenantId) {
        throw new CommitmentError('commitment_cross_tenant_run', 'enqueued run is not in the commitment tenant (CTI-1)');
      }
      runId = run.runId;
      payload.enqueuedRunId = runId;
    }
    await this.#o.emit('commitment.fired', payload, runId === undefined ? { tenantId: c.tenantId } : { tenantId: c.tenantId, runId });
    return { commitmentId: c.commitmentId, instance, payload };
  }

  /**
   * Replay: return the `commitment.fired` payloads recorded in the log, in log order, without firing anything;
   * the ledger learns every recorded instance so no engine sharing it fires them again.
   */
  replayFromLog(events: Iterable<{ readonly type: string; readonly payload?: unknown }>): FiredCommitmentPayload[] {
    const out: FiredCommitmentPayload[] = [];
    for (const e of events) {
      if (e.type !== 'commitment.fired' || typeof e.payload !== 'object' || e.payload === null) continue;
      const p = e.payload as FiredCommitmentPayload;
      if (typeof p.conditionInstance === 'string' && !this.#ledger.has(p.commitmentId, p.conditionInstance)) {
        this.#ledger.record({ commitmentId: p.commitmentId, instance: p.conditionInstance, firedAt: this.#o.clock.now() });
      }
      out.push(p);
    }
    return out;
  }
}
