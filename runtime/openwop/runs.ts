/** Which runs exist, which tenant and memory scope each belongs to, and how it started. */
import type { ForkOrigin } from '../../generated/ts/index.ts';

export interface RunRecord {
  readonly runId: string;
  readonly tenant: string;
  readonly memoryRef: string;
  readonly workflowId: string;
  readonly parentRunId?: string;
  readonly forkedFrom?: Readonly<ForkOrigin>;
}

/** Told about every run added (`record`) or removed (`null`). */
export type RunObserver = (runId: string, record: RunRecord | null) => void;

export class RunRegistry {
  readonly #runs = new Map<string, RunRecord>();
  readonly #observers = new Set<RunObserver>();
  add(r: RunRecord): RunRecord {
    this.restore(r);
    for (const o of this.#observers) o(r.runId, r);
    return r;
  }
  /** Put back a run loaded from a durable store at start, telling no observer. */
  restore(r: RunRecord): void {
    if (this.#runs.has(r.runId)) throw new RangeError(`run ${r.runId} already exists`);
    this.#runs.set(r.runId, r);
  }
  observe(observer: RunObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }
  get(runId: string): RunRecord | undefined {
    return this.#runs.get(runId);
  }
  /** Forget a run (e.g. a retired test fixture): its id reads as unknown afterwards. */
  remove(runId: string): boolean {
    const had = this.#runs.delete(runId);
    if (had) for (const o of this.#observers) o(runId, null);
    return had;
  }
  /** Runs of one tenant only (CTI-1 for run listings). */
  ofTenant(tenant: string): RunRecord[] {
    return [...this.#runs.values()].filter((r) => r.tenant === tenant);
  }
}
