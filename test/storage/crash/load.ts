/**
 * The mixed write load of the crash tests, over HTTP only, and the client's record of what was acknowledged.
 *
 * Operations (chosen by a seeded RNG):
 * - memory writes through the seed seam, in a small set of named runs shared by every worker and every host
 *   process (so one run's event log receives concurrent appends), with non-ASCII content;
 * - transactional writes into the refs that distillation schedules distil;
 * - commitments armed and fired through the commitment seam (the seam fires them at once; one killed mid-request
 *   is due and must fire exactly once after the restart);
 * - distillation schedules (every second, from now), a bounded number of them.
 *
 * A request counts as acknowledged only when its 2xx answer was received in full; the answer is kept as the
 * expected state.
 */
import { ROUTES, urlOf } from '../../../runtime/host/seam-catalogue.ts';
import { CRASH_TOKEN } from './host-process.ts';

export const TENANTS = ['crash-a', 'crash-b', 'crash-c'] as const;
/** Distillation schedules the load registers at most (each runs every second until the test ends). */
export const MAX_SCHEDULES = 6;

export interface AckedWrite {
  readonly tenant: string;
  readonly memoryRef: string;
  readonly runId: string;
  readonly id: string;
  /** The entry as the acknowledgement returned it, serialised: what a read must return byte for byte. */
  readonly json: string;
  /** A transactional entry: a scheduled distillation may consume it (a recorded delete, not a loss). */
  readonly transactional: boolean;
}
export interface AckedCommitment {
  readonly tenant: string;
  readonly memoryRef: string;
  readonly commitmentId: string;
}
export interface AckedSchedule {
  readonly tenant: string;
  readonly memoryRef: string;
  readonly scheduleId: string;
}

/** What the clients were told: the expected state after any number of crashes. */
export class AckLedger {
  readonly writes: AckedWrite[] = [];
  readonly commitments: AckedCommitment[] = [];
  readonly schedules: AckedSchedule[] = [];
  /** Requests sent, and requests that got no answer (the host died under them). */
  sent = 0;
  unanswered = 0;
  /** Per host start: how long until it served (ms; for a standby, until some host was active). */
  readonly waitedForServiceMs: number[] = [];
  /** Answers other than 2xx (e.g. a request caught by shutdown), by status. */
  readonly refused = new Map<number, number>();
}

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** The named runs writes are attributed to: a few per tenant, shared by all workers and hosts. */
export const runIdsOf = (tenant: string): string[] => [0, 1].map((k) => `crash-run-${tenant}-${k}`);
/** The ref a tenant's distillation schedules distil (its transactional writes go there too). */
export const dreamRefOf = (tenant: string): string => `mem://${tenant}/dreams`;

const CONTENT_FLAVOURS = ['plain ascii', 'ünïcödé ✓', '漢字かな', 'emoji 🧠🗄️', 'quotes "x" and \\ backslash', 'tab\tand\nnewline'];

async function post(baseUrl: string, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${CRASH_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text.length > 0 ? (JSON.parse(text) as unknown) : undefined };
}

/** One operation against `baseUrl`; the ledger records it only when acknowledged. False: no answer (host gone). */
async function oneOperation(baseUrl: string, r: Rng, ledger: AckLedger, label: string): Promise<boolean> {
  const tenant = pick(r, TENANTS);
  const roll = r();
  ledger.sent++;
  let answer: { status: number; json: unknown };
  try {
    if (roll < 0.6) {
      const transactional = roll < 0.12;
      const memoryRef = transactional ? dreamRefOf(tenant) : `mem://${tenant}/notes`;
      const runId = pick(r, runIdsOf(tenant));
      const content = `${label} ${pick(r, CONTENT_FLAVOURS)} ${Math.floor(r() * 1e9)}`;
      answer = await post(baseUrl, urlOf(ROUTES.memorySeed), { memoryRef, runId, entries: [{ content, tags: [`crash:${label}`], ...(transactional ? { tier: 'transactional' } : {}) }] });
      if (answer.status === 200) {
        const { entries } = answer.json as { entries: { id: string }[] };
        for (const e of entries) ledger.writes.push({ tenant, memoryRef, runId, id: e.id, json: JSON.stringify(e), transactional });
      }
    } else if (roll < 0.9 || ledger.schedules.length >= MAX_SCHEDULES) {
      const memoryRef = `mem://${tenant}/commitments`;
      answer = await post(baseUrl, urlOf(ROUTES.commitmentFire), { memoryRef, condition: 'time' });
      if (answer.status === 200) ledger.commitments.push({ tenant, memoryRef, commitmentId: (answer.json as { event: { commitmentId: string } }).event.commitmentId });
    } else {
      const memoryRef = dreamRefOf(tenant);
      answer = await post(baseUrl, urlOf(ROUTES.distillSchedule), { memoryRef, every: 'PT1S', firstAt: new Date().toISOString() });
      if (answer.status === 201 || answer.status === 200) ledger.schedules.push({ tenant, memoryRef, scheduleId: (answer.json as { scheduleId: string }).scheduleId });
    }
  } catch {
    ledger.unanswered++;
    return false;
  }
  if (answer.status >= 300) ledger.refused.set(answer.status, (ledger.refused.get(answer.status) ?? 0) + 1);
  return true;
}

/**
 * `workers` concurrent clients sending operations to `baseUrl` until `signal` aborts (or the host dies: each worker
 * then stops at its first unanswered request).
 */
export async function driveLoad(baseUrl: string, r: Rng, ledger: AckLedger, opts: { readonly workers: number; readonly signal: AbortSignal; readonly label: string }): Promise<void> {
  await Promise.all([...Array(opts.workers).keys()].map(async () => {
    while (!opts.signal.aborted && (await oneOperation(baseUrl, r, ledger, opts.label)));
  }));
}
