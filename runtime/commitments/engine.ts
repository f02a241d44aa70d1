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
 *   not stop the others — the tick then rejects with the first failure. A fire that completes synchronously (no run
 *   to enqueue, a synchronous sink) costs no promise; a fired time commitment's id → handle entry is left behind and
 *   swept in bulk (see #timeHandles), and the in-memory ledger keys by commitment id alone (issue 15: the engine
 *   against its own heap at a million armed).
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
  /** Optional: record unless already recorded, in one step; whether it was new (else the engine asks has, then record). */
  claim?(r: FiredRecord): boolean;
  predicateState(commitmentId: string): { readonly last: boolean; readonly transitions: number } | undefined;
  setPredicateState(commitmentId: string, s: { readonly last: boolean; readonly transitions: number }): void;
}

/**
 * The fired ledger in memory. Nearly every commitment fires at most one instance (a time commitment has exactly
 * one), so the ledger keeps that instance directly under the commitment id and only a commitment with several fired
 * instances (a predicate that turned true again) gets a set of them: no composite key is built per lookup, and
 * nothing but the instance is retained per fire (the ledger of a long-lived engine is its largest structure).
 */
export class InMemoryFiredLedger implements FiredLedger {
  readonly #fired = new Map<string, string | Set<string>>();
  readonly #pred = new Map<string, { last: boolean; transitions: number }>();
  #size = 0;
  has(commitmentId: string, instance: string): boolean {
    const at = this.#fired.get(commitmentId);
    return at === undefined ? false : typeof at === 'string' ? at === instance : at.has(instance);
  }
  record(r: FiredRecord): void {
    this.claim(r);
  }
  claim(r: FiredRecord): boolean {
    const at = this.#fired.get(r.commitmentId);
    if (at === undefined) this.#fired.set(r.commitmentId, r.instance);
    else if (typeof at !== 'string') {
      if (at.has(r.instance)) return false;
      at.add(r.instance);
    } else if (at === r.instance) return false;
    else this.#fired.set(r.commitmentId, new Set([at, r.instance]));
    this.#size++;
    return true;
  }
  predicateState(id: string): { last: boolean; transitions: number } | undefined {
    return this.#pred.get(id);
  }
  setPredicateState(id: string, s: { last: boolean; transitions: number }): void {
    this.#pred.set(id, { ...s });
  }
  get size(): number {
    return this.#size;
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

const isThenable = (x: unknown): x is PromiseLike<unknown> => typeof (x as { then?: unknown } | null | undefined)?.then === 'function';

/** A fire that threw (kept in its place so the tick can reject with the first failure after all have run). */
class FireFailure {
  constructor(readonly error: unknown) {}
}

/** What starting one fire gives: its outcome (undefined: already in the ledger), a promise of it, or its failure. */
type FireResult = FireOutcome | undefined | Promise<FireOutcome | undefined> | FireFailure;

export class CommitmentEngine {
  readonly #o: CommitmentEngineOptions;
  readonly #ledger: FiredLedger;
  readonly #inference: CommitmentInference;
  readonly #heap = new TimerHeap<Commitment>();
  /**
   * commitmentId → heap handle of its armed time commitment. A fire leaves its entry behind (a delete from a map of a
   * million keys costs more than the heap operation itself): an entry counts only while its handle still holds that
   * commitment ({@link #armedHandle}), and the map is rebuilt from the live entries once the stale ones outnumber
   * them four to one, so its size stays proportional to what is armed.
   */
  #timeHandles = new Map<string, number>();
  #staleHandles = 0;
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
    const armed: Commitment =
      c.memoryId === undefined
        ? { commitmentId: c.commitmentId, memoryRef: c.memoryRef, condition: c.condition, enqueueRun: c.enqueueRun, tenantId }
        : { commitmentId: c.commitmentId, memoryRef: c.memoryRef, memoryId: c.memoryId, condition: c.condition, enqueueRun: c.enqueueRun, tenantId };
    if (c.condition.kind === 'time') {
      const previous = this.#timeHandles.get(c.commitmentId);
      if (previous !== undefined && this.#armedHandle(c.commitmentId, previous)) return undefined;
      if (this.#ledger.has(c.commitmentId, `time:${c.condition.at}`)) return undefined;
      if (previous !== undefined) this.#staleHandles--; // the stale entry is overwritten
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
    if (h !== undefined && this.#armedHandle(commitmentId, h)) {
      transition(COMMITMENT_LIFECYCLE, 'armed', 'cancelled');
      this.#timeHandles.delete(commitmentId);
      this.#o.persistence?.disarmed(this.#heap.valueAt(h)!);
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
    this.#o.persistence?.disarmed(entry.commitment);
    return true;
  }

  /** Whether a handle from #timeHandles still holds the armed time commitment of that id. */
  #armedHandle(commitmentId: string, handle: number): boolean {
    return this.#heap.valueAt(handle)?.commitmentId === commitmentId;
  }

  /** Rebuild #timeHandles from its live entries. */
  #sweepHandles(): void {
    const live = new Map<string, number>();
    for (const [id, h] of this.#timeHandles) if (this.#armedHandle(id, h)) live.set(id, h);
    this.#timeHandles = live;
    this.#staleHandles = 0;
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
    const due: Commitment[] = [];
    const instances: string[] = [];
    for (const c of this.#heap.popDue(this.#o.clock.now())) {
      transition(COMMITMENT_LIFECYCLE, 'armed', 'fired');
      due.push(c);
      instances.push(`time:${(c.condition as { at: number }).at}`);
    }
    this.#staleHandles += due.length;
    if (this.#staleHandles > 4 * this.#heap.size + 1024) this.#sweepHandles();
    for (const [c, instance] of await this.#predicateTransitions()) {
      due.push(c);
      instances.push(instance);
    }
    // Fires start in due order; one that completes synchronously (no run to enqueue, a synchronous sink) costs no
    // promise. As before, every fire runs even when one fails, and the tick then rejects with the first failure.
    const results: FireResult[] = [];
    let pending = false;
    for (let i = 0; i < due.length; i++) {
      let r: FireResult;
      try {
        r = this.#fire(due[i]!, instances[i]!);
      } catch (error) {
        r = new FireFailure(error);
      }
      if (r instanceof Promise) pending = true; // #fire returns native promises only
      results.push(r);
    }
    const settled = pending ? await Promise.all(results.map((r) => (r instanceof Promise ? r.catch((error: unknown) => new FireFailure(error)) : r))) : results;
    const out: FireOutcome[] = [];
    for (const r of settled) {
      if (r instanceof FireFailure) throw r.error;
      if (r !== undefined && !(r instanceof Promise)) out.push(r);
    }
    return out;
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
          this.#setPredicate(c, { last: true, transitions });
          fired.push(entry);
          instances.set(entry, `predicate:${transitions}`);
        } else if (value !== st.last) {
          this.#setPredicate(c, { last: value, transitions: st.transitions });
        }
      }
    });
    return fired.sort((a, b) => a.seq - b.seq).map((e) => [e.commitment, instances.get(e)!]);
  }

  /** A predicate commitment's state changed: the ledger and (when durable) the store learn it together. */
  #setPredicate(c: Commitment, state: { readonly last: boolean; readonly transitions: number }): void {
    this.#ledger.setPredicateState(c.commitmentId, state);
    this.#o.persistence?.predicateChanged(c, state);
  }

  /** Record a fired instance unless the ledger has it; whether it was new. */
  #claim(r: FiredRecord): boolean {
    const ledger = this.#ledger;
    if (ledger.claim !== undefined) return ledger.claim(r);
    if (ledger.has(r.commitmentId, r.instance)) return false;
    ledger.record(r);
    return true;
  }

  /**
   * Fire one instance: in the ledger first; with a durable store, the store then decides who fires (another process,
   * or this one before a restart, may have claimed it); then (a run enqueued and) the event emitted.
   */
  #fire(c: Commitment, instance: string): FireResult {
    const firedAt = this.#o.clock.now();
    if (!this.#claim({ commitmentId: c.commitmentId, instance, firedAt })) return undefined;
    const persistence = this.#o.persistence;
    if (persistence !== undefined) return persistence.claimFire(c, instance, firedAt).then((won) => (won ? this.announceClaimed(c, instance) : undefined));
    return this.announceClaimed(c, instance);
  }

  /**
   * Announce a claimed instance: enqueue its run when the commitment asks for one, then emit `commitment.fired`.
   * `#fire` calls it after winning the claim; a durable host calls it at start for a claim a crash left without its
   * event. With a synchronous enqueuer and sink, everything it writes is written in one synchronous step (one group
   * commit of the host's write queue).
   */
  announceClaimed(c: Commitment, instance: string): FireOutcome | Promise<FireOutcome> {
    const payload: FiredCommitmentPayload = {
      commitmentId: c.commitmentId,
      memoryRef: c.memoryRef,
      condition: c.condition.kind,
      conditionInstance: instance,
    };
    if (c.memoryId !== undefined) payload.memoryId = c.memoryId;
    if (c.enqueueRun && this.#o.enqueueRun !== undefined) return this.#fireWithRun(c, instance, payload);
    const outcome: FireOutcome = { commitmentId: c.commitmentId, instance, payload };
    const emitted: unknown = this.#o.emit('commitment.fired', payload, { tenantId: c.tenantId });
    return isThenable(emitted) ? Promise.resolve(emitted).then(() => outcome) : outcome;
  }

  async #fireWithRun(c: Commitment, instance: string, payload: FiredCommitmentPayload): Promise<FireOutcome> {
    const req = { tenantId: c.tenantId, commitmentId: c.commitmentId, memoryRef: c.memoryRef };
    const enqueued = this.#o.enqueueRun!(c.memoryId === undefined ? req : { ...req, memoryId: c.memoryId });
    // Not awaited when synchronous: the run's writes and the fired event then join one write batch.
    const run = isThenable(enqueued) ? await enqueued : enqueued;
    if (run.tenantId !== c.tenantId) {
      throw new CommitmentError('commitment_cross_tenant_run', 'enqueued run is not in the commitment tenant (CTI-1)');
    }
    payload.enqueuedRunId = run.runId;
    await this.#o.emit('commitment.fired', payload, { tenantId: c.tenantId, runId: run.runId });
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
