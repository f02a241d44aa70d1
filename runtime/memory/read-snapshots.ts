/**
 * Read-snapshot holds: which runs currently read a memoryRef through a pinned snapshot.
 *
 * Used by consolidation (RFC 0068 §D: a run must not trigger a pass that mutates its own read snapshot) and by
 * replay snapshots (MAE-3: a fork's pinned watermark is protected from journal pruning while held).
 */
export class ReadSnapshotHolds {
  readonly #byRun = new Map<string, Map<string, number>>(); // runId -> memoryRef -> watermark (journal seq)

  acquire(runId: string, memoryRef: string, watermark = Number.POSITIVE_INFINITY): void {
    let m = this.#byRun.get(runId);
    if (m === undefined) this.#byRun.set(runId, (m = new Map()));
    m.set(memoryRef, Math.min(watermark, m.get(memoryRef) ?? Number.POSITIVE_INFINITY));
  }

  release(runId: string, memoryRef?: string): void {
    if (memoryRef === undefined) this.#byRun.delete(runId);
    else this.#byRun.get(runId)?.delete(memoryRef);
  }

  holds(runId: string, memoryRef: string): boolean {
    return this.#byRun.get(runId)?.has(memoryRef) ?? false;
  }

  /** Lowest watermark any hold pins (Infinity when none). */
  minWatermark(): number {
    let min = Number.POSITIVE_INFINITY;
    for (const m of this.#byRun.values()) for (const w of m.values()) if (w < min) min = w;
    return min;
  }
}
