/**
 * A store with a long history, as issue 22 sizes it: 1,000,000 memory entries, 1,000,000 run events (100,000 ended
 * runs of 10 events each), 100,000 replay-journal records (the newest; the older ones pruned, as retention leaves a
 * store), and 10,000 each of armed commitments, distillation schedules, open operator questions and proposals, over
 * 200 tenants — each tenant within every default bound, so requests on it are not refused for want of room.
 *
 * How the rows hang together (so that what the runtime reads is consistent):
 * - each run wrote 9 entries into one of its tenant's memoryRefs, one `memory.written` event each after its
 *   `run.started`; the other 100,000 entries were written outside any run;
 * - every entry has a put position in time order; the newest `journal` of them are in the journal, the rest pruned
 *   (`journal_pruned_through`); an event carries the position of its write, so a fork of a recent run is served
 *   from its snapshot and a fork of an old one is refused `retention_expired`, as on a real store;
 * - the counts every bound is checked against (`quotas`) are the sums of what was loaded.
 *
 * `historyPlan` is the first pass (who wrote what, when — typed arrays); `historyRows` writes the tables in key order;
 * `HistoryKeys` picks random existing keys for requests.
 */
import { MAX_QUESTION_TIMEOUT_MS } from '../../runtime/inquirium/operator-questions.ts';
import { rng } from '../rng.ts';
import {
  commitmentRow, entryRows, eventRow, hexOf, idOf, journalRow, proposalRow, questionRows, quotaRow, runRow, scheduleRow, tagsOf, contentOf,
  type EntrySpec, type Row, type Templates,
} from './rows.ts';

export interface HistoryLayout {
  readonly tenants: number;
  readonly refsPerTenant: number;
  readonly runs: number;
  /** Events per run: `run.started` and one `memory.written` per entry the run wrote. */
  readonly eventsPerRun: number;
  /** Entries in all (at least runs × (eventsPerRun − 1); the rest written outside runs). */
  readonly entries: number;
  /** The newest entries' journal records kept. */
  readonly journal: number;
  readonly commitments: number;
  readonly schedules: number;
  readonly questions: number;
  readonly proposals: number;
  /** The history covers this long before the build. */
  readonly spanMs: number;
}

const DAY = 86_400_000;

/** Issue 22's store. */
export const HISTORY: HistoryLayout = {
  tenants: 200, refsPerTenant: 5, runs: 100_000, eventsPerRun: 10, entries: 1_000_000, journal: 100_000,
  commitments: 10_000, schedules: 10_000, questions: 10_000, proposals: 10_000, spanMs: 30 * DAY,
};

export const tenantOf = (t: number): string => `h${String(t).padStart(3, '0')}`;
export const refOf = (t: number, k: number): string => `mem://${tenantOf(t)}/notes-${k}`;
export const entryIdOf = (n: number): string => idOf('mem', `history/entry/${n}`);
export const runIdOf = (r: number): string => idOf('run', `history/run/${r}`);
/** The workflow every history run names. */
export const HISTORY_WORKFLOW = 'bench-history';

/** Who wrote what, when: the first pass of the generator. */
export interface HistoryPlan {
  readonly layout: HistoryLayout;
  readonly builtMs: number;
  /** Per entry: tenant, ref index, creation time, put position (1-based, time order). */
  readonly entryTenant: Uint16Array;
  readonly entryRef: Uint8Array;
  readonly entryCreated: Float64Array;
  readonly putSeq: Uint32Array;
  /** Per run: tenant, ref index, creation time. */
  readonly runTenant: Uint16Array;
  readonly runRef: Uint8Array;
  readonly runCreated: Float64Array;
  /** Entries each run wrote (eventsPerRun − 1); run r wrote entries r·w … r·w + w − 1. */
  readonly perRun: number;
  /** Journal positions up to this one were pruned. */
  readonly prunedThrough: number;
}

export function historyPlan(layout: HistoryLayout, builtMs: number): HistoryPlan {
  const r = rng(22);
  const start = builtMs - layout.spanMs;
  const perRun = layout.eventsPerRun - 1;
  if (layout.entries < layout.runs * perRun) throw new RangeError('a history layout needs at least runs × (eventsPerRun − 1) entries');
  const runTenant = new Uint16Array(layout.runs);
  const runRef = new Uint8Array(layout.runs);
  const runCreated = new Float64Array(layout.runs);
  for (let i = 0; i < layout.runs; i++) {
    runTenant[i] = Math.floor(r() * layout.tenants);
    runRef[i] = Math.floor(r() * layout.refsPerTenant);
    runCreated[i] = start + Math.floor((i * (layout.spanMs - 60_000)) / layout.runs);
  }
  const entryTenant = new Uint16Array(layout.entries);
  const entryRef = new Uint8Array(layout.entries);
  const entryCreated = new Float64Array(layout.entries);
  for (let n = 0; n < layout.entries; n++) {
    if (n < layout.runs * perRun) {
      const run = Math.floor(n / perRun);
      entryTenant[n] = runTenant[run]!;
      entryRef[n] = runRef[run]!;
      entryCreated[n] = runCreated[run]! + 1 + (n % perRun);
    } else {
      entryTenant[n] = Math.floor(r() * layout.tenants);
      entryRef[n] = Math.floor(r() * layout.refsPerTenant);
      entryCreated[n] = start + Math.floor(r() * layout.spanMs);
    }
  }
  const order = Uint32Array.from({ length: layout.entries }, (_, i) => i).sort((a, b) => entryCreated[a]! - entryCreated[b]! || a - b);
  const putSeq = new Uint32Array(layout.entries);
  order.forEach((n, rank) => (putSeq[n] = rank + 1));
  return { layout, builtMs, entryTenant, entryRef, entryCreated, putSeq, runTenant, runRef, runCreated, perRun, prunedThrough: layout.entries - layout.journal };
}

/** The entry `n` as written. */
export function historyEntry(p: HistoryPlan, n: number): EntrySpec {
  const t = p.entryTenant[n]!;
  // Entries written outside runs: one in twenty carries a TTL (half a year from the build).
  const expires = n >= p.layout.runs * p.perRun && n % 20 === 0 ? p.builtMs + 180 * DAY : undefined;
  return { tenant: tenantOf(t), memoryRef: refOf(t, p.entryRef[n]!), id: entryIdOf(n), content: contentOf(n), tags: tagsOf(n), createdMs: p.entryCreated[n]!, ...(expires !== undefined ? { expiresMs: expires } : {}) };
}

/** The run that wrote entry `n` (undefined for an entry written outside runs). */
const writerOf = (p: HistoryPlan, n: number): number | undefined => (n < p.layout.runs * p.perRun ? Math.floor(n / p.perRun) : undefined);

/** Every row of the store, each table in its key order. */
export function* historyRows(p: HistoryPlan, templates: Templates): Generator<Row> {
  const L = p.layout;
  const entryBytes = new Uint32Array(L.entries);
  const perRef = new Map<string, number>();
  const bytesPerTenant = new Float64Array(L.tenants);
  // Entries and their tags, by (tenant, ref, id).
  const groups: number[][] = Array.from({ length: L.tenants * L.refsPerTenant }, () => []);
  for (let n = 0; n < L.entries; n++) groups[p.entryTenant[n]! * L.refsPerTenant + p.entryRef[n]!]!.push(n);
  for (const group of groups) {
    const ids = group.map((n) => [entryIdOf(n), n] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    for (const [, n] of ids) {
      const e = historyEntry(p, n);
      const { rows, bytes } = entryRows(e);
      entryBytes[n] = bytes;
      bytesPerTenant[p.entryTenant[n]!]! += bytes;
      perRef.set(`${e.tenant}\u0000${e.memoryRef}`, (perRef.get(`${e.tenant}\u0000${e.memoryRef}`) ?? 0) + 1);
      yield* rows;
    }
  }
  // The journal: the newest puts, in position order.
  const byPut = new Uint32Array(L.entries);
  for (let n = 0; n < L.entries; n++) byPut[p.putSeq[n]! - 1] = n;
  for (let seq = p.prunedThrough + 1; seq <= L.entries; seq++) {
    const n = byPut[seq - 1]!;
    const e = historyEntry(p, n);
    const writer = writerOf(p, n);
    yield journalRow(seq, e, writer === undefined ? null : runIdOf(writer), entryRows(e).doc);
  }
  yield ['meta', ['journal_pruned_through', String(p.prunedThrough)]];
  // Runs and their events, by run id.
  const endedPerTenant = new Uint32Array(L.tenants);
  const runs = Array.from({ length: L.runs }, (_, i) => [runIdOf(i), i] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  for (const [runId, i] of runs) {
    const t = p.runTenant[i]!;
    const memoryRef = refOf(t, p.runRef[i]!);
    const created = p.runCreated[i]!;
    endedPerTenant[t]!++;
    yield runRow({ runId, tenant: tenantOf(t), memoryRef, workflowId: HISTORY_WORKFLOW, createdMs: created, endedMs: created + p.perRun + 1, events: L.eventsPerRun });
  }
  for (const [runId, i] of runs) {
    const memoryRef = refOf(p.runTenant[i]!, p.runRef[i]!);
    const first = i * p.perRun;
    yield eventRow(runId, 0, p.putSeq[first]! - 1, p.runCreated[i]!, 'run.started', { workflowId: HISTORY_WORKFLOW, memoryRef });
    for (let j = 0; j < p.perRun; j++) {
      const n = first + j;
      yield eventRow(runId, j + 1, p.putSeq[n]!, p.entryCreated[n]!, 'memory.written', { memoryRef, memoryId: entryIdOf(n), operation: 'put', byteSize: Buffer.byteLength(contentOf(n), 'utf8') });
    }
  }
  // Armed commitments (due in a year), schedules (next slot in a year), open questions (deadline within the
  // runtime's longest timeout), proposals: spread evenly over the tenants.
  const r = rng(2222);
  const some = (t: number): number => {
    // A random entry of tenant t (of one of its memoryRefs that holds any).
    const held = groups.slice(t * L.refsPerTenant, (t + 1) * L.refsPerTenant).filter((g) => g.length > 0);
    const g = held[Math.floor(r() * held.length)];
    if (g === undefined) throw new RangeError(`history layout: tenant ${tenantOf(t)} holds no entry to arm a commitment on`);
    return g[Math.floor(r() * g.length)]!;
  };
  for (let c = 0; c < L.commitments; c++) {
    const t = c % L.tenants;
    const n = some(t);
    yield commitmentRow(c + 1, tenantOf(t), `cmt_${hexOf(`history/commitment/${c}`, 24)}`, refOf(t, p.entryRef[n]!), entryIdOf(n), p.builtMs + 365 * DAY + c);
  }
  for (let s = 0; s < L.schedules; s++) {
    const t = s % L.tenants;
    yield scheduleRow(idOf('dsch', `history/schedule/${s}`), tenantOf(t), `mem://${tenantOf(t)}/dreams-${s}`, 'P1D', DAY, p.builtMs + 365 * DAY, p.builtMs - Math.floor(r() * L.spanMs));
  }
  for (let q = 0; q < L.questions; q++) {
    const t = q % L.tenants;
    const opened = p.builtMs - Math.floor(r() * DAY);
    yield* questionRows(templates, tenantOf(t), `question/history/${q}`, opened, opened + MAX_QUESTION_TIMEOUT_MS - DAY);
  }
  for (let k = 0; k < L.proposals; k++) yield proposalRow(templates, idOf('prop', `history/proposal/${k}`), tenantOf(k % L.tenants), p.builtMs - Math.floor(r() * L.spanMs));
  // The counts the bounds are checked against.
  for (const [key, n] of perRef) {
    const [tenant, ref] = key.split('\u0000') as [string, string];
    yield quotaRow(tenant, 'memory-entries', ref, n);
  }
  const even = (total: number, t: number) => Math.floor(total / L.tenants) + (t < total % L.tenants ? 1 : 0);
  for (let t = 0; t < L.tenants; t++) {
    const tenant = tenantOf(t);
    yield quotaRow(tenant, 'memory-bytes', '', bytesPerTenant[t]!);
    if (endedPerTenant[t]! > 0) yield quotaRow(tenant, 'ended-runs', '', endedPerTenant[t]!);
    for (const [resource, total] of [['armed-commitments', L.commitments], ['commitment-ledger', L.commitments], ['distillation-schedules', L.schedules], ['open-operator-questions', L.questions], ['proposals', L.proposals]] as const) {
      if (even(total, t) > 0) yield quotaRow(tenant, resource, '', even(total, t));
    }
  }
}

/** Random existing keys of a history store, for requests. */
export class HistoryKeys {
  readonly #p: HistoryPlan;
  readonly #r: () => number;

  constructor(plan: HistoryPlan, seed: number) {
    this.#p = plan;
    this.#r = rng(seed);
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#r() * n);
  }

  tenant(): string {
    return tenantOf(this.int(this.#p.layout.tenants));
  }

  /** A memoryRef of the store. */
  ref(): { readonly tenant: string; readonly memoryRef: string } {
    const t = this.int(this.#p.layout.tenants);
    return { tenant: tenantOf(t), memoryRef: refOf(t, this.int(this.#p.layout.refsPerTenant)) };
  }

  /** An entry of the store. */
  entry(): { readonly tenant: string; readonly memoryRef: string; readonly id: string } {
    const n = this.int(this.#p.layout.entries);
    const t = this.#p.entryTenant[n]!;
    return { tenant: tenantOf(t), memoryRef: refOf(t, this.#p.entryRef[n]!), id: entryIdOf(n) };
  }

  /** A run of the store; `recent`: one whose events the journal still covers (a fork of it is served). */
  run(recent = false): { readonly runId: string; readonly events: number } {
    const L = this.#p.layout;
    // Runs are in time order; the journal covers roughly its share of the newest ones.
    const covered = Math.max(1, Math.floor((L.runs * L.journal) / L.entries / 2));
    const r = recent ? L.runs - 1 - this.int(covered) : this.int(L.runs);
    return { runId: runIdOf(r), events: L.eventsPerRun };
  }

  tag(): string {
    return tagsOf(this.int(1_000_000))[0]!;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }

  chance(p: number): boolean {
    return this.#r() < p;
  }
}
