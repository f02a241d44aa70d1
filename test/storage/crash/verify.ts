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
      const r = await get(baseUrl, urlOf(ROUTES.runEvents, { params: { runId } }));
      if (r.status !== 200) {
        if (acked.length > 0) findings.push(`run ${runId}: event log reads ${r.status} after ${acked.length} acknowledged writes`);
        continue;
      }
      const events = (JSON.parse(r.text) as { events: RunEvent[] }).events;
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

export async function verifyStore(store: StoragePort, ledger: AckLedger): Promise<string[]> {
  const findings: string[] = [];
  const fired = new Map<string, number>();
  const compactedPerRef = new Map<string, number>();
  const deleted = new Set<string>();
  for (const runId of await store.runs.eventRunIds()) {
    const events = await store.runs.readEvents(runId);
    findings.push(...sequenceFindings(runId, events));
    for (const e of events) {
      if (e.type === 'memory.written' && e.payload.operation === 'delete') deleted.add(`${String(e.payload.memoryRef)}#${String(e.payload.memoryId)}`);
      if (e.type === 'commitment.fired') fired.set(String(e.payload.commitmentId), (fired.get(String(e.payload.commitmentId)) ?? 0) + 1);
      if (e.type === 'memory.compacted' && e.payload.trigger === 'host-managed') compactedPerRef.set(String(e.payload.memoryRef), (compactedPerRef.get(String(e.payload.memoryRef)) ?? 0) + 1);
    }
  }
  for (const w of ledger.writes.filter((x) => x.transactional)) {
    const stored = await store.memory.get(w.tenant, w.memoryRef, w.id);
    if (stored === undefined && !deleted.has(`${w.memoryRef}#${w.id}`)) findings.push(`lost write: transactional ${w.memoryRef} ${w.id} is gone with no recorded delete`);
    if (stored !== undefined && JSON.stringify(stored) !== w.json) findings.push(`torn write: ${w.memoryRef} ${w.id} stored as ${JSON.stringify(stored)}, acknowledged ${w.json}`);
  }
  for (const [commitmentId, n] of fired) if (n > 1) findings.push(`double fire: commitment ${commitmentId} has ${n} commitment.fired events`);
  for (const c of ledger.commitments) if (!fired.has(c.commitmentId)) findings.push(`lost fire: acknowledged commitment ${c.commitmentId} has no commitment.fired event`);

  const claims = (await store.commitments.listFired()).filter((f) => crashTenant(f.tenant));
  const claimKeys = new Set<string>();
  for (const f of claims) {
    const key = `${f.tenant}/${f.commitmentId}/${f.instance}`;
    if (claimKeys.has(key)) findings.push(`double claim in the fired ledger: ${key}`);
    claimKeys.add(key);
    if (!fired.has(f.commitmentId)) findings.push(`lost fire: commitment ${f.commitmentId} was claimed (${f.instance}) but no commitment.fired event exists`);
  }
  const claimedIds = new Set(claims.map((f) => f.commitmentId));
  for (const a of await store.commitments.listArmed()) {
    if (crashTenant(a.tenant) && !claimedIds.has(a.commitmentId)) findings.push(`lost fire: commitment ${a.commitmentId} is armed and due but never fired`);
  }

  const slotsPerRef = new Map<string, number>();
  const schedules = await store.schedules.list();
  for (const s of ledger.schedules) {
    if (!schedules.some((row) => row.scheduleId === s.scheduleId)) findings.push(`lost schedule: ${s.scheduleId} is not in the store`);
  }
  for (const row of schedules.filter((r) => crashTenant(r.tenant))) {
    const slots = (await store.schedules.runs(row.scheduleId)).map((r) => r.slot);
    if (new Set(slots).size !== slots.length) findings.push(`double run: schedule ${row.scheduleId} claimed a slot twice`);
    const memoryRef = String(row.schedule.memoryRef);
    slotsPerRef.set(memoryRef, (slotsPerRef.get(memoryRef) ?? 0) + slots.length);
  }
  for (const [memoryRef, n] of compactedPerRef) {
    if (!memoryRef.startsWith('mem://crash-')) continue;
    const slots = slotsPerRef.get(memoryRef) ?? 0;
    if (n > slots) findings.push(`double run: ${memoryRef} has ${n} scheduled distillations for ${slots} claimed slots`);
  }
  return findings;
}
