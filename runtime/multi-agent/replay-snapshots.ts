/**
 * Replay memory snapshots (RFC 0039 §B, MAE-3).
 *
 * Mechanism: the store's journal records every mutation of an entry with its before-image, and every event records
 * the journal's head when it was appended (its anchor). Memory "as it was at event index N of run R" is the state
 * after every mutation up to R's anchor at N — read by undoing, per entry, the mutations after it (the store's
 * snapshot queries, storage/reads/memory.ts). Entries the TTL rule (`memory/ttl.ts`) finds expired at the anchor's
 * clock are hidden (TTL evaluated at the snapshot anchor, not now). A fork keeps its anchor on its run; while the
 * fork lives, pruning never passes it.
 *
 * Tenancy (CTI-1): a fork view reads its snapshot through a `TenantReader` bound to the fork run's tenant, so a ref
 * of another tenant reads as empty from a fork exactly as it does from the live adapter.
 *
 * Availability: undoing needs every mutation after the anchor. Retention pruning drops mutations older than the
 * journal's retention (never past a live fork's anchor); a fork whose anchor precedes the pruned prefix is refused
 * with `replay_memory_snapshot_unavailable` / `retention_expired`. A fork of a run whose event index is gone (never
 * recorded, or dropped with the run's log) is refused with `event_log_unavailable`.
 */
import type { ReplayMemorySnapshotUnavailableDetails } from '../../generated/ts/index.ts';
import { WopkitError } from '../shared/errors.ts';
import type { SnapshotAnchor } from '../memory/tenant-reader.ts';

import type { RunRow, Tx } from '../storage/index.ts';

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

/** A fork point past the source run's last event: 422 fork_point_invalid (upstream's code), nothing created. */
export class ForkSeqOutOfRangeError extends WopkitError<'fork_seq_out_of_range'> {
  constructor(readonly fromSeq: number, readonly lastSeq: number, sourceRunId?: string) {
    super('fork_seq_out_of_range', `fork index ${fromSeq} is beyond the source run's last event (${lastSeq})`, {
      error: 'fork_point_invalid',
      message: "fromSeq is past the end of the source run's event log",
      details: { fromSeq, lastSeq, ...(sourceRunId !== undefined ? { sourceRunId } : {}) },
    });
  }
}

/**
 * The anchor a fork of `source` at `fromSeq` reads memory as of, or the typed refusal: the source's log does not
 * hold that event (`event_log_unavailable`; an index past the last event is ForkSeqOutOfRangeError), or the journal
 * no longer reaches back to it (`retention_expired`, with the oldest index still servable when there is one).
 */
export async function forkAnchor(tx: Tx, source: RunRow, fromSeq: number): Promise<SnapshotAnchor> {
  const anchor = await tx.read.eventAnchor({ runId: source.runId, seq: fromSeq });
  if (anchor === undefined) {
    if (fromSeq >= source.nextSeq && (await tx.read.hasEvents(source.runId))) throw new ForkSeqOutOfRangeError(fromSeq, source.nextSeq - 1, source.runId);
    throw new ReplayMemorySnapshotUnavailableError({ fromSeq, sourceRunId: source.runId, reason: 'event_log_unavailable' });
  }
  const pruned = await tx.read.journalPrunedThrough();
  if (anchor.jseq < pruned) {
    const details: ReplayMemorySnapshotUnavailableDetails = { fromSeq, sourceRunId: source.runId, reason: 'retention_expired' };
    const oldest = await tx.read.oldestEventAfter({ runId: source.runId, jseq: pruned });
    if (oldest !== undefined) details.oldestAvailableIdx = oldest;
    throw new ReplayMemorySnapshotUnavailableError(details);
  }
  return anchor;
}
