/**
 * Standing commitments (RFC 0068 §C): arm memory-derived commitments on a time or predicate condition and fire
 * each at most once per condition instance. Commitments, their fired ledger and the predicates live in the store;
 * every host evaluates them, and whoever commits a fire first fires it.
 *
 * - Condition instances: a time commitment has one instance, `time:<epoch ms>`; a predicate commitment has one
 *   instance per false→true transition of its predicate, `predicate:<n>` (n counts transitions from 1). The
 *   predicate's observed value starts at `false` when armed, so a predicate already true at arming fires once.
 * - Fire-once: a fire is one transaction that moves the commitment on from the state this evaluation read (a
 *   conditional update) and inserts the instance into the fired ledger (one row per instance, ever), together with
 *   the follow-up run it asks for and its `commitment.fired` event. A second fire of the same instance — from another
 *   host, a concurrent evaluation, or after a crash — is refused by the store and writes nothing; a crash before the
 *   commit leaves the commitment armed, to be fired by the next evaluation. So a fire is never lost, never doubled,
 *   and never recorded without its announcement.
 * - Evaluation: `tick` fires the time commitments due now (in due order) and evaluates the predicates that changed
 *   (or got a commitment armed) since their last evaluation — each predicate's armed commitments in arming order.
 * - Replay: an engine in `replay` mode never infers, arms or fires; `replayFromLog` re-reads the recorded
 *   `commitment.fired` events.
 * - CTI-1: every commitment carries the tenant of its source memoryRef; its predicate is read within that tenant,
 *   and its follow-up run is started in that tenant.
 * - Bounds: a tenant holds at most `maxArmedPerTenant` armed commitments (429 past it) and `maxFollowUpRuns` live
 *   follow-up runs; a fire whose run would pass that bound waits (the commitment stays armed) until runs retire.
 * - Content-free: the emitted payload carries ids and the condition kind only.
 * - States: every move of a commitment goes through COMMITMENT_LIFECYCLE (commitment-lifecycle.ts), the table the site draws.
 */
import type { CommitmentFiredPayload } from '../../generated/ts/index.ts';
import type { Clock } from '../shared/clock.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import { transition } from '../shared/state-machine.ts';
import { StoreCorruptError, isJsonDoc, type ArmedCommitment, type JsonDoc, type StoredDoc, type StoreKind, type Tx, type Units } from '../storage/index.ts';
import { COMMITMENT_LIFECYCLE } from './commitment-lifecycle.ts';
import { tagRuleInference, type Commitment, type CommitmentInference, type FireCondition, type InferenceSource, type InferredCommitment } from './inference.ts';

/**
 * The `commitment.fired` payload (RFC 0068 §C) this engine emits: the generated payload plus `conditionInstance`,
 * an additive identifier (allowed: the payload is open) that lets replay rebuild the fired ledger.
 */
export type FiredCommitmentPayload = CommitmentFiredPayload & { conditionInstance: string };

export class CommitmentError extends WopkitError<'commitment_invalid_memory_ref' | 'commitment_replay_mode'> {
  constructor(code: CommitmentError['code'], message: string) {
    super(code, message, BAD_REQUEST);
  }
}

/** Plan the follow-up run of a fired commitment in its tenant; its run id. */
export type FollowUpStarter = (tx: Tx, req: { readonly tenantId: string; readonly commitmentId: string; readonly memoryRef: string; readonly memoryId?: string }) => string;

/** Plan a `commitment.fired` event: into the follow-up run's log when there is one, else the tenant's background log. */
export type CommitmentEventSink = (tx: Tx, payload: FiredCommitmentPayload, ctx: { readonly tenantId: string; readonly runId?: string }) => void;

export interface CommitmentEngineOptions {
  /** Opens the unit of work each fire (and each look at what is due) runs in: the engine's background work. */
  readonly units: Units;
  /** The store's kind (how many fires to hand it at once). */
  readonly storeKind: StoreKind;
  readonly clock: Clock;
  /** CTI-1 resolver: tenant of a memoryRef, or undefined for a malformed / unknown ref. */
  readonly tenantOf: (memoryRef: string) => string | undefined;
  readonly emit: CommitmentEventSink;
  readonly startFollowUp?: FollowUpStarter;
  readonly inference?: CommitmentInference;
  readonly mode?: 'live' | 'replay';
  /** Armed commitments one tenant may hold (default DEFAULT_MAX_ARMED_PER_TENANT). */
  readonly maxArmedPerTenant?: number;
  /** Due fires a tick hands to the store at once (default firesInFlightFor(storeKind)). */
  readonly firesInFlight?: number;
}

export const DEFAULT_MAX_ARMED_PER_TENANT = 10_000;
/** Due commitments (and dirty predicates) one tick looks at; the rest wait for the next tick. */
export const COMMITMENTS_PER_TICK = 256;
/** Due commitments a tick hands to the store at once (each still its own transaction), on SQLite and in memory. */
export const FIRES_IN_FLIGHT = 16;
/**
 * The same on PostgreSQL: each fire there holds a pooled connection until it commits, and a tenant's fires queue on
 * its background run's row, so more of them in flight would only take connections requests are waiting for.
 */
export const FIRES_IN_FLIGHT_POSTGRES = 4;

/** How many due fires a tick hands to a store of `kind` at once. */
export const firesInFlightFor = (kind: StoreKind): number => (kind === 'postgres' ? FIRES_IN_FLIGHT_POSTGRES : FIRES_IN_FLIGHT);

export interface FireOutcome {
  readonly commitmentId: string;
  readonly instance: string;
  readonly payload: FiredCommitmentPayload;
}

/** A commitment as the store keeps it. */
const asDoc = (c: Commitment): StoredDoc => ({
  commitmentId: c.commitmentId, memoryRef: c.memoryRef, tenantId: c.tenantId, enqueueRun: c.enqueueRun,
  condition: c.condition.kind === 'time' ? { kind: 'time', at: c.condition.at } : { kind: 'predicate', predicateId: c.condition.predicateId },
  ...(c.memoryId !== undefined ? { memoryId: c.memoryId } : {}),
});

/** The commitments table's decoder: a stored document back into a commitment (what `asDoc` wrote). */
export function commitmentOf(doc: JsonDoc): Commitment {
  const { commitmentId, memoryRef, memoryId, tenantId, enqueueRun, condition } = doc;
  const c = isJsonDoc(condition) ? condition : undefined;
  const fire: FireCondition | undefined = c?.kind === 'time' && typeof c.at === 'number' ? { kind: 'time', at: c.at }
    : c?.kind === 'predicate' && typeof c.predicateId === 'string' ? { kind: 'predicate', predicateId: c.predicateId } : undefined;
  if (typeof commitmentId !== 'string' || typeof memoryRef !== 'string' || typeof tenantId !== 'string' || typeof enqueueRun !== 'boolean' || fire === undefined || (memoryId !== undefined && typeof memoryId !== 'string')) {
    throw new StoreCorruptError('commitments', `commitment document ${String(commitmentId)} is not one this runtime wrote`);
  }
  return { commitmentId, memoryRef, tenantId, enqueueRun, condition: fire, ...(typeof memoryId === 'string' ? { memoryId } : {}) };
}

export class CommitmentEngine {
  readonly #o: CommitmentEngineOptions;
  readonly #inference: CommitmentInference;
  readonly maxArmedPerTenant: number;
  readonly #firesInFlight: number;

  constructor(o: CommitmentEngineOptions) {
    this.#o = o;
    this.#firesInFlight = Math.max(1, Math.floor(o.firesInFlight ?? firesInFlightFor(o.storeKind)));
    this.#inference = o.inference ?? tagRuleInference;
    this.maxArmedPerTenant = o.maxArmedPerTenant ?? DEFAULT_MAX_ARMED_PER_TENANT;
  }

  get mode(): 'live' | 'replay' {
    return this.#o.mode ?? 'live';
  }

  /** Infer commitments from an entry of `memoryRef` and tx their arming. Returns what was planned (none in replay mode). */
  inferFrom(tx: Tx, memoryRef: string, entry: InferenceSource): Commitment[] {
    if (this.mode === 'replay') return [];
    return this.#inference.infer(memoryRef, entry).map((c) => this.arm(tx, c));
  }

  /**
   * Plan the arming of a commitment, bound to the tenant of its memoryRef (refused when the ref is malformed).
   * Arming an id the store knows already (armed, fired or cancelled) changes nothing: the id is deterministic from
   * the commitment's source and condition.
   */
  arm(tx: Tx, c: InferredCommitment): Commitment {
    if (this.mode === 'replay') throw new CommitmentError('commitment_replay_mode', 'replay never arms commitments');
    const tenantId = this.#o.tenantOf(c.memoryRef);
    if (tenantId === undefined) throw new CommitmentError('commitment_invalid_memory_ref', 'memoryRef does not resolve to a tenant (CTI-1)');
    const armed: Commitment = c.memoryId === undefined
      ? { commitmentId: c.commitmentId, memoryRef: c.memoryRef, condition: c.condition, enqueueRun: c.enqueueRun, tenantId }
      : { commitmentId: c.commitmentId, memoryRef: c.memoryRef, memoryId: c.memoryId, condition: c.condition, enqueueRun: c.enqueueRun, tenantId };
    tx.add('commitment.arm', {
      tenant: tenantId,
      commitmentId: c.commitmentId,
      kind: c.condition.kind,
      ...(c.condition.kind === 'time' ? { dueMs: c.condition.at } : { predicateId: c.condition.predicateId }),
      doc: asDoc(armed),
      limit: this.maxArmedPerTenant,
    });
    return armed;
  }

  /**
   * Plan the cancelling of a tenant's armed commitment — armed, or held by a predicate last seen true (its fired
   * ledger stays); whether it was armed when read. A commitment that fired, was cancelled or is unknown: false.
   */
  async cancel(tx: Tx, tenant: string, commitmentId: string): Promise<boolean> {
    const c = await tx.read.commitmentGet({ tenant, commitmentId });
    if (c === undefined || c.state !== 'armed') return false;
    transition(COMMITMENT_LIFECYCLE, c.predLast ? 'held' : 'armed', 'cancelled');
    tx.add('commitment.cancel', { tenant, commitmentId });
    return true;
  }

  /** Plan setting a tenant's predicate; its commitments are evaluated by the next tick after the commit. */
  setPredicate(tx: Tx, tenant: string, predicateId: string, value: boolean): void {
    tx.add('predicate.set', { tenant, predicateId, value });
  }

  /**
   * Fire every time commitment due now, then evaluate every predicate that changed since its last evaluation: each
   * fire in its own transaction. The fires this call made (a fire another process made first is not among them).
   */
  async tick(): Promise<FireOutcome[]> {
    if (this.mode === 'replay') return [];
    const units = this.#o.units;
    const out: FireOutcome[] = [];
    // Each due commitment fires in a transaction of its own, a few of them handed to the store at once: a
    // store that groups concurrent commits (SQLite's group commit, PostgreSQL's pool) shares its disk syncs among
    // them instead of syncing once per fire in turn, and a backlog never takes more of the store than requests do.
    // Outcomes come back in due order.
    const due = await units((tx) => tx.read.dueCommitments({ nowMs: this.#o.clock.now(), limit: COMMITMENTS_PER_TICK }));
    for (let i = 0; i < due.length; i += this.#firesInFlight) {
      const fires = await Promise.all(due.slice(i, i + this.#firesInFlight).map((c) => {
        transition(COMMITMENT_LIFECYCLE, 'armed', 'fired');
        const commitment = commitmentOf(c.doc);
        return this.#fire(c, `time:${commitment.condition.kind === 'time' ? commitment.condition.at : 0}`, { disarm: true });
      }));
      for (const fired of fires) if (fired !== undefined) out.push(fired);
    }
    for (const p of await units((tx) => tx.read.dirtyPredicates({ limit: COMMITMENTS_PER_TICK }))) {
      out.push(...(await this.#evaluatePredicate(p.tenant, p.predicateId, p.value)));
    }
    return out;
  }

  /** One predicate's armed commitments against its value, in arming order; then the predicate is clean (unless it changed again). */
  async #evaluatePredicate(tenant: string, predicateId: string, value: boolean): Promise<FireOutcome[]> {
    const out: FireOutcome[] = [];
    const units = this.#o.units;
    for (const c of await units((tx) => tx.read.armedOnPredicate({ tenant, predicateId, limit: this.maxArmedPerTenant }))) {
      if (value === c.predLast) continue;
      transition(COMMITMENT_LIFECYCLE, c.predLast ? 'held' : 'armed', value ? 'held' : 'armed');
      if (value) {
        const fired = await this.#fire(c, `predicate:${c.predTransitions + 1}`, { disarm: false });
        if (fired !== undefined) out.push(fired);
      } else {
        await this.#ifFirst(units((tx) => void tx.add('commitment.release', { tenant, commitmentId: c.commitmentId, transitionsRead: c.predTransitions })));
      }
    }
    await units((tx) => void tx.add('predicate.clean', { tenant, predicateId, value }));
    return out;
  }

  /**
   * Fire one instance in one transaction: the claim (from the state read), the follow-up run when the commitment
   * asks for one, and the `commitment.fired` event. Undefined when another request fired it first, or when its
   * follow-up run would pass the tenant's bound (it stays armed and fires once runs retire).
   */
  async #fire(c: ArmedCommitment, instance: string, o: { readonly disarm: boolean }): Promise<FireOutcome | undefined> {
    const commitment = commitmentOf(c.doc);
    return this.#ifFirst(this.#o.units((tx) => this.#planFire(tx, c, commitment, instance, o)));
  }

  #planFire(tx: Tx, c: ArmedCommitment, commitment: Commitment, instance: string, o: { readonly disarm: boolean }): FireOutcome {
    const payload: FiredCommitmentPayload = { commitmentId: commitment.commitmentId, memoryRef: commitment.memoryRef, condition: commitment.condition.kind, conditionInstance: instance };
    if (commitment.memoryId !== undefined) payload.memoryId = commitment.memoryId;
    let runId: string | undefined;
    if (commitment.enqueueRun && this.#o.startFollowUp !== undefined) {
      const req = { tenantId: c.tenant, commitmentId: commitment.commitmentId, memoryRef: commitment.memoryRef };
      runId = this.#o.startFollowUp(tx, commitment.memoryId === undefined ? req : { ...req, memoryId: commitment.memoryId });
      payload.enqueuedRunId = runId;
    }
    tx.add('commitment.fire', {
      tenant: c.tenant, commitmentId: commitment.commitmentId, instance, firedMs: this.#o.clock.now(), disarm: o.disarm,
      ...(o.disarm ? {} : { transitionsRead: c.predTransitions }),
      ...(runId !== undefined ? { runId } : {}),
    });
    this.#o.emit(tx, payload, { tenantId: c.tenant, ...(runId !== undefined ? { runId } : {}) });
    return { commitmentId: commitment.commitmentId, instance, payload };
  }

  /** What a committed unit answered; undefined when another request did the work first (or a bound makes it wait). */
  async #ifFirst<T>(unit: Promise<T>): Promise<T | undefined> {
    try {
      return await unit;
    } catch (err) {
      if (err instanceof WopkitError && (err.code === 'claim_taken' || err.code === 'quota_exceeded')) return undefined;
      throw err;
    }
  }

  /** The fires the ledger holds of one commitment (whichever process fired them), as their `commitment.fired` payloads. */
  async fires(tx: Tx, tenant: string, commitmentId: string): Promise<FiredCommitmentPayload[]> {
    const row = await tx.read.commitmentGet({ tenant, commitmentId });
    if (row === undefined) return [];
    const c = commitmentOf(row.doc);
    return (await tx.read.firesOf({ tenant, commitmentId, limit: 1000 })).map((f) => ({
      commitmentId, memoryRef: c.memoryRef, condition: c.condition.kind, conditionInstance: f.instance,
      ...(c.memoryId !== undefined ? { memoryId: c.memoryId } : {}), ...(f.runId !== undefined ? { enqueuedRunId: f.runId } : {}),
    }));
  }

  /** Replay: the `commitment.fired` payloads recorded in the log, in log order, without firing anything. */
  replayFromLog(events: Iterable<{ readonly type: string; readonly payload?: unknown }>): FiredCommitmentPayload[] {
    const out: FiredCommitmentPayload[] = [];
    for (const e of events) {
      if (e.type !== 'commitment.fired' || typeof e.payload !== 'object' || e.payload === null) continue;
      out.push(e.payload as FiredCommitmentPayload);
    }
    return out;
  }
}
