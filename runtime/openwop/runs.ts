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

export class RunRegistry {
  readonly #runs = new Map<string, RunRecord>();
  add(r: RunRecord): RunRecord {
    if (this.#runs.has(r.runId)) throw new RangeError(`run ${r.runId} already exists`);
    this.#runs.set(r.runId, r);
    return r;
  }
  get(runId: string): RunRecord | undefined {
    return this.#runs.get(runId);
  }
  /** Forget a run (e.g. a retired test fixture): its id reads as unknown afterwards. */
  remove(runId: string): boolean {
    return this.#runs.delete(runId);
  }
  /** Runs of one tenant only (CTI-1 for run listings). */
  ofTenant(tenant: string): RunRecord[] {
    return [...this.#runs.values()].filter((r) => r.tenant === tenant);
  }
}
