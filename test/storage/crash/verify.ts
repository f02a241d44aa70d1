/**
 * The crash tests' checks, each returning findings (empty = held):
 * - over HTTP, against the restarted host: every acknowledged write reads back byte-identical; the shared runs'
 *   event logs are gap-free and record each acknowledged write once; every acknowledged schedule still exists
 *   and ran after the last restart (resumed);
 * - in the store, after the host stopped: every event log of every run is gap-free; no commitment fired twice
 *   (events and ledger); every acknowledged commitment fired exactly once, every claim has its event, nothing
 *   armed was left unfired; no schedule slot ran twice (distillation events ≤ claimed slots).
 */
import type { RunEvent } from '../../../generated/ts/index.ts';
import { ROUTES, urlOf } from '../../../runtime/host/seam-catalogue.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { entryGet } from '../../../runtime/storage/reads/memory.ts';
import { eventPage } from '../../../runtime/storage/reads/runs.ts';
import { CRASH_TOKEN } from './host-process.ts';
import { runIdsOf, TENANTS, type AckLedger } from './load.ts';

async function get(baseUrl: string, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${CRASH_TOKEN}` } });
  return { status: res.status, text: await res.text() };
}

/** Run `f` over `items`, `width` at a time. */
async function eachLimited<T>(items: readonly T[], width: number, f: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all([...Array(width).keys()].map(async () => {
    while (next < items.length) await f(items[next++]!);
  }));
}

/** Sequences 0..n-1 in order, eventIds unique: the findings for one run's log. */
export function sequenceFindings(runId: string, events: readonly Pick<RunEvent, 'sequence' | 'eventId'>[]): string[] {
  const out: string[] = [];
  events.forEach((e, i) => {
    if (e.sequence !== i) out.push(`run ${runId}: event at position ${i} has sequence ${e.sequence} (gap or duplicate)`);
  });
  const ids = new Set(events.map((e) => e.eventId));
  if (ids.size !== events.length) out.push(`run ${runId}: ${events.length - ids.size} duplicate eventIds`);
  return out;
}

export async function verifyOverHttp(baseUrl: string, ledger: AckLedger, resumedSince: number): Promise<string[]> {
  const findings: string[] = [];
  await eachLimited(ledger.writes, 8, async (w) => {
    const r = await get(baseUrl, urlOf(ROUTES.memoryEntry, { query: { tenant: w.tenant, memoryRef: w.memoryRef, id: w.id } }));
    if (r.status === 404 && w.transactional) return; // distilled away, perhaps: verifyStore looks for its recorded delete
    if (r.status !== 200) findings.push(`lost write: ${w.memoryRef} ${w.id} reads ${r.status}`);
    else if (JSON.stringify(JSON.parse(r.text)) !== w.json) findings.push(`torn write: ${w.memoryRef} ${w.id} reads ${r.text}, acknowledged ${w.json}`);
  });
  for (const tenant of TENANTS) {
    for (const runId of runIdsOf(tenant)) {
      const acked = ledger.writes.filter((w) => w.runId === runId);
      // The whole log, page by page (a page holds at most 1000 events; hasMore and nextSeq say where the next starts).
      const events: RunEvent[] = [];
      let status = 200;
      for (let fromSeq = 0; ; ) {
        const r = await get(baseUrl, urlOf(ROUTES.runEvents, { params: { runId }, query: { fromSeq: String(fromSeq) } }));
        if (r.status !== 200) {
          status = r.status;
          break;
        }
        const page = JSON.parse(r.text) as { events: RunEvent[]; hasMore?: boolean; nextSeq?: number };
        events.push(...page.events);
        if (page.hasMore !== true || page.nextSeq === undefined) break;
        fromSeq = page.nextSeq;
      }
      if (status !== 200) {
        if (acked.length > 0) findings.push(`run ${runId}: event log reads ${status} after ${acked.length} acknowledged writes`);
        continue;
      }
      findings.push(...sequenceFindings(runId, events));
      const written = new Map<string, number>();
      for (const e of events) {
        if (e.type === 'memory.written' && e.payload.operation === 'put') written.set(String(e.payload.memoryId), (written.get(String(e.payload.memoryId)) ?? 0) + 1);
      }
      for (const w of acked) {
        const n = written.get(w.id) ?? 0;
        if (n !== 1) findings.push(`run ${runId}: acknowledged write ${w.id} has ${n} memory.written events`);
      }
    }
  }
  for (const s of ledger.schedules) {
    const r = await get(baseUrl, urlOf(ROUTES.distillScheduleRead, { query: { id: s.scheduleId, tenant: s.tenant } }));
    if (r.status !== 200) {
      findings.push(`lost schedule: ${s.scheduleId} reads ${r.status}`);
      continue;
    }
    const instant = (JSON.parse(r.text) as { lastOutcome?: { instant: string } }).lastOutcome?.instant;
    if (instant === undefined || Date.parse(instant) < resumedSince) findings.push(`schedule ${s.scheduleId} did not resume after the last restart (last instant ${instant ?? 'none'})`);
  }
  return findings;
}

const crashTenant = (tenant: string): boolean => (TENANTS as readonly string[]).includes(tenant);

/** Every row of a store query (the store's own reads take a limit; a finished campaign's store is small). */
const rows = (store: StoragePort, sql: string, params: (string | number)[] = []) => store.reads.all(sql, params, 1_000_000);
const intOrNull = (v: unknown): number | null => (v === null ? null : Number(v));

/** Every event of a run's log, page by page. */
async function allEvents(store: StoragePort, runId: string): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for (let from = 0; ; ) {
    const page = await eventPage(store.reads, { runId, fromSeq: from, limit: 1000 });
    out.push(...page.events);
    if (page.nextSeq === undefined) return out;
    from = page.nextSeq;
  }
}

export async function verifyStore(store: StoragePort, ledger: AckLedger): Promise<string[]> {
  const findings: string[] = [];
  const fired = new Map<string, number>();
  const compactedPerRef = new Map<string, number>();
  const deleted = new Set<string>();
  for (const r of await rows(store, 'SELECT run_id, kind FROM runs ORDER BY run_id')) {
    const runId = String(r.run_id);
    const kind = String(r.kind);
    const events = await allEvents(store, runId);
    // A tenant's background log keeps its newest events only: gap-free from its oldest kept event on.
    const from = kind === 'background' ? (events[0]?.sequence ?? 0) : 0;
    findings.push(...sequenceFindings(runId, events.map((e) => ({ ...e, sequence: e.sequence - from }))));
    for (const e of events) {
      if (e.type === 'memory.written' && e.payload.operation === 'delete') deleted.add(`${String(e.payload.memoryRef)}#${String(e.payload.memoryId)}`);
      if (e.type === 'commitment.fired') fired.set(String(e.payload.commitmentId), (fired.get(String(e.payload.commitmentId)) ?? 0) + 1);
      if (e.type === 'memory.compacted' && e.payload.trigger === 'host-managed') compactedPerRef.set(String(e.payload.memoryRef), (compactedPerRef.get(String(e.payload.memoryRef)) ?? 0) + 1);
    }
  }
  for (const w of ledger.writes.filter((x) => x.transactional)) {
    const stored = await entryGet(store.reads, { tenant: w.tenant, memoryRef: w.memoryRef, id: w.id });
    if (stored === undefined && !deleted.has(`${w.memoryRef}#${w.id}`)) findings.push(`lost write: transactional ${w.memoryRef} ${w.id} is gone with no recorded delete`);
    if (stored !== undefined && JSON.stringify(stored) !== w.json) findings.push(`torn write: ${w.memoryRef} ${w.id} stored as ${JSON.stringify(stored)}, acknowledged ${w.json}`);
  }
  for (const [commitmentId, n] of fired) if (n > 1) findings.push(`double fire: commitment ${commitmentId} has ${n} commitment.fired events`);
  for (const c of ledger.commitments) if (!fired.has(c.commitmentId)) findings.push(`lost fire: acknowledged commitment ${c.commitmentId} has no commitment.fired event`);

  const claims = (await rows(store, 'SELECT tenant, commitment_id, instance FROM commitment_fires')).map((f) => ({ tenant: String(f.tenant), commitment_id: String(f.commitment_id), instance: String(f.instance) })).filter((f) => crashTenant(f.tenant));
  for (const f of claims) {
    if (!fired.has(f.commitment_id)) findings.push(`lost fire: commitment ${f.commitment_id} was claimed (${f.instance}) but no commitment.fired event exists`);
  }
  const now = Date.now();
  for (const r of await rows(store, "SELECT tenant, commitment_id, due_ms FROM commitments WHERE state = 'armed' AND kind = 'time'")) {
    const a = { tenant: String(r.tenant), commitment_id: String(r.commitment_id), due_ms: intOrNull(r.due_ms) };
    if (crashTenant(a.tenant) && a.due_ms !== null && a.due_ms < now - 5_000) findings.push(`lost fire: commitment ${a.commitment_id} is armed and was due ${now - a.due_ms} ms ago but never fired`);
  }

  // Each slot runs at most once: a schedule's distillations are at most the instants between its creation and the
  // last slot it took (its ledger keeps only its newest slots, so it cannot be counted directly).
  const slotsPerRef = new Map<string, number>();
  const schedules = (await rows(store, 'SELECT schedule_id, tenant, memory_ref, created_ms, last_slot, doc FROM schedules'))
    .map((r) => ({ schedule_id: String(r.schedule_id), tenant: String(r.tenant), memory_ref: String(r.memory_ref), created_ms: Number(r.created_ms), last_slot: intOrNull(r.last_slot), doc: String(r.doc) }));
  for (const s of ledger.schedules) {
    if (!schedules.some((row) => row.schedule_id === s.scheduleId)) findings.push(`lost schedule: ${s.scheduleId} is not in the store`);
  }
  for (const row of schedules.filter((r) => crashTenant(r.tenant))) {
    const periodMs = (JSON.parse(row.doc) as { periodMs: number }).periodMs;
    const instants = row.last_slot === null ? 0 : Math.floor((row.last_slot - row.created_ms) / periodMs) + 1;
    slotsPerRef.set(row.memory_ref, (slotsPerRef.get(row.memory_ref) ?? 0) + instants);
  }
  for (const [memoryRef, n] of compactedPerRef) {
    if (!memoryRef.startsWith('mem://crash-')) continue;
    const slots = slotsPerRef.get(memoryRef) ?? 0;
    if (n > slots) findings.push(`double run: ${memoryRef} has ${n} scheduled distillations for ${slots} claimed slots`);
  }
  return findings;
}
