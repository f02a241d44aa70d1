/**
 * The OpenWOP runtime on a storage port (issue 13). The runtime keeps its working state in memory, as before, and
 * this module makes that state durable:
 *
 * - at start, `attach` loads what the store holds — memory entries, the replay journal and event watermarks (so a
 *   fork of a run from before the restart reads its snapshot), runs, event logs, the fired ledger and armed
 *   commitments (re-armed), distillation schedules with their latest taken instant — without writing it back;
 * - from then on every mutation is written through the ordered `WriteQueue` (entries, journal records and
 *   watermarks, runs, events, dropped logs, arms and disarms, schedule saves, claims and outcomes, and the last
 *   consolidation pass per memoryRef);
 * - a commitment fires only after the store's `claimFire` answered true for it (fire-once across restarts); the
 *   claim stores the commitment, and `attach` announces every claim a crash left without its `commitment.fired`
 *   event (none lost);
 * - a schedule's instant runs only after the store's `claimRun` answered true for it (one run per slot);
 * - RFC 0096 proposals, gates and installed artefacts are written through and loaded too (durable-proposals.ts).
 *
 * The host awaits `queue.flush()` before acknowledging a request, so whatever a response reports is committed.
 */
import type { Commitment } from '../commitments/inference.ts';
import type { CommitmentPersistence } from '../commitments/persistence.ts';
import type { DistillationSchedule, SchedulePersistence } from '../distillation/schedule.ts';
import type { JournalRecord } from '../multi-agent/replay-snapshots.ts';
import type { JsonDoc, StoragePort } from '../storage/port.ts';
import { WriteQueue } from '../storage/write-queue.ts';
import { tenantOf } from '../memory/memory-ref.ts';
import type { InstalledArtifacts, ProposalStore } from '../proposals/store.ts';
import { durableProposals } from './durable-proposals.ts';
import type { OpenwopRuntime } from './index.ts';
import type { RunRecord } from './runs.ts';

/** A runtime record as the JSON document the store keeps (the store serialises it; records here are plain data). */
const asDoc = (record: object): JsonDoc => record as JsonDoc;

const firedKey = (commitmentId: string, instance: string): string => `${commitmentId}#${instance}`;

/** What was loaded at start. */
export interface RestoreReport {
  readonly entries: number;
  readonly runs: number;
  readonly events: number;
  readonly journalRecords: number;
  readonly armedCommitments: number;
  readonly firedInstances: number;
  /** Claimed fires a crash had left unannounced, announced at this start. */
  readonly announcedAtStart: number;
  readonly schedules: number;
  readonly proposals: number;
  readonly installedArtifacts: number;
}

export interface OpenwopDurability {
  /** Pass to `createOpenwopRuntime({ persistence })`. */
  readonly persistence: {
    readonly commitments: CommitmentPersistence;
    readonly schedules: SchedulePersistence;
    readonly proposals: { readonly store: ProposalStore; readonly installed: InstalledArtifacts };
  };
  readonly queue: WriteQueue;
  /** Load the store into `rt` (built with `persistence` above), then write every later mutation through. */
  attach(rt: OpenwopRuntime): Promise<RestoreReport>;
}

export function openwopDurability(port: StoragePort, queue = new WriteQueue(port.batch?.bind(port))): OpenwopDurability {
  /** True while loading: the runtime's re-arming must not be written back. */
  let restoring = false;

  const commitments: CommitmentPersistence = {
    armed(c) {
      if (restoring) return;
      queue.enqueue(() => port.commitments.arm({ tenant: c.tenantId, commitmentId: c.commitmentId, commitment: asDoc(c) }));
    },
    disarmed(c) {
      queue.enqueue(() => port.commitments.disarm(c.tenantId, c.commitmentId));
    },
    predicateChanged(c, state) {
      if (restoring) return;
      queue.enqueue(() => port.commitments.setPredicateState(c.tenantId, c.commitmentId, state));
    },
    claimFire: (c, instance, firedAt) =>
      queue.run(() => port.commitments.claimFire({ tenant: c.tenantId, commitmentId: c.commitmentId, instance, firedAt, disarm: c.condition.kind === 'time', commitment: asDoc(c) })),
  };

  const schedules: SchedulePersistence = {
    saved: (s) => queue.enqueue(() => port.schedules.put({ scheduleId: s.scheduleId, tenant: s.tenant, schedule: asDoc(s) })),
    removed: (scheduleId) => queue.enqueue(() => port.schedules.remove(scheduleId)),
    claim: (scheduleId, instant) => queue.run(() => port.schedules.claimRun(scheduleId, instant)),
    ran(outcome, instant) {
      // The outcome without the distillation result (archive ids are in the events; the ledger keeps what happened).
      const { kind, scheduleId, missed } = outcome;
      const detail: JsonDoc = outcome.kind === 'failed' ? { errorCode: outcome.errorCode } : outcome.kind === 'budget-exceeded' ? { tokensRequired: outcome.tokensRequired } : {};
      queue.enqueue(() => port.schedules.recordOutcome(scheduleId, instant, { kind, instant: outcome.instant, missed, ...detail }));
    },
  };

  const proposals = durableProposals(port, queue);

  async function attach(rt: OpenwopRuntime): Promise<RestoreReport> {
    const entries = await port.memory.all();
    const runs = await port.runs.runs();
    const logs = await port.runs.eventRunIds();
    const fired = await port.commitments.listFired();
    const armed = await port.commitments.listArmed();
    const stored = await port.schedules.list();

    for (const { memoryRef, entry } of entries) rt.store.restore(memoryRef, entry);
    const journal = await port.replay.journal();
    const watermarks = await port.replay.watermarks();
    rt.journal.restore({ records: journal.map((r) => r.record as unknown as JournalRecord), watermarks, entries });
    for (const { record } of runs) rt.runs.restore(record as unknown as RunRecord);
    let events = 0;
    /** Fires the logs announce, as `commitmentId#instance`. */
    const announced = new Set<string>();
    for (const runId of logs) {
      for (const e of await port.runs.readEvents(runId)) {
        rt.log.restore(e);
        events++;
        if (e.type === 'commitment.fired') announced.add(firedKey(String(e.payload.commitmentId), String(e.payload.conditionInstance)));
      }
    }
    restoring = true;
    try {
      for (const f of fired) rt.commitments.ledger.record({ commitmentId: f.commitmentId, instance: f.instance, firedAt: f.firedAt });
      for (const a of armed) {
        rt.commitments.arm(a.commitment as unknown as Commitment);
        if (a.predicate !== undefined) rt.commitments.ledger.setPredicateState(a.commitmentId, a.predicate);
      }
    } finally {
      restoring = false;
    }
    for (const s of stored) rt.distillationScheduler?.restore(s.schedule as unknown as DistillationSchedule, s.lastSlot);
    const restoredProposals = await proposals.restore();

    // From here on, every mutation goes to the store, in order.
    rt.store.observe((memoryRef, id, after) => {
      const tenant = tenantOf(memoryRef) ?? '';
      queue.enqueue(() => (after === null ? port.memory.remove(tenant, memoryRef, id) : port.memory.upsert(tenant, memoryRef, after)));
    });
    rt.runs.observe((runId, record) => {
      queue.enqueue(() => (record === null ? port.runs.removeRun(runId) : port.runs.putRun({ runId, tenant: record.tenant, record: asDoc(record) })));
    });
    rt.log.subscribe((event) => {
      queue.enqueue(() => port.runs.appendEvent(event.runId, (sequence) => {
        if (sequence !== event.sequence) throw new RangeError(`run ${event.runId}: the store's next sequence is ${sequence}, the runtime's ${event.sequence}`);
        return event;
      }));
      // Consolidation state: the last pass over each memoryRef and where its event lives.
      const memoryRef = event.type === 'agent.memory.consolidated' ? event.payload.memoryRef : undefined;
      const tenant = typeof memoryRef === 'string' ? tenantOf(memoryRef) : undefined;
      if (typeof memoryRef === 'string' && tenant !== undefined) {
        queue.enqueue(() => port.consolidation.recordPass({ tenant, memoryRef, pass: { eventId: event.eventId, runId: event.runId, timestamp: event.timestamp } }));
      }
    });
    rt.log.onDrop((runId) => queue.enqueue(() => port.runs.dropEvents(runId)));
    rt.journal.persistTo({
      recorded: (record) => queue.enqueue(() => port.replay.appendJournal({ jseq: record.jseq, memoryRef: record.memoryRef, record: asDoc(record) })),
      marked: (runId, { seq, jseq, at }) => queue.enqueue(() => port.replay.putWatermark({ runId, seq, jseq, at })),
      droppedRun: (runId) => queue.enqueue(() => port.replay.dropWatermarks(runId)),
      pruned: (throughJseq) => queue.enqueue(() => port.replay.pruneJournal(throughJseq)),
    });

    // A claim a crash left without its `commitment.fired` event (the claim commits before the announcement's
    // writes): announce it now, once, from the commitment stored with the claim. Fire-once holds — the claim
    // stays the only one — and no fire that was claimed is lost.
    let announcedAtStart = 0;
    for (const f of fired) {
      if (f.commitment === undefined || announced.has(firedKey(f.commitmentId, f.instance))) continue;
      await rt.commitments.announceClaimed(f.commitment as unknown as Commitment, f.instance);
      announcedAtStart++;
    }

    return { entries: entries.length, runs: runs.length, events, journalRecords: journal.length, armedCommitments: armed.length, firedInstances: fired.length, announcedAtStart, schedules: stored.length, proposals: restoredProposals.proposals, installedArtifacts: restoredProposals.installed };
  }

  return { persistence: { commitments, schedules, proposals: { store: proposals.store, installed: proposals.installed } }, queue, attach };
}
