/**
 * Storage back-ends side by side, in one run, on the same workload: memory-entry writes (one awaited upsert at a
 * time, as a request acknowledges them: each is one committed transaction) and lists (a 100-entry memoryRef read
 * back whole) through the storage port, on the in-memory, SQLite and PostgreSQL back-ends. Rounds are interleaved
 * (the back-end order rotates every round) and each figure is the median of the per-round rates.
 *
 * Then the recovery time of a SQLite store holding 10k memory entries (and their 10k run events): open it
 * (schema check), and read back what a host loads at start (every entry, run record, event log, armed
 * commitment and schedule).
 *
 * PostgreSQL comes from WOPKIT_DATABASE_URL, or the local cluster as the tests reach it; without one its column is
 * left out (and the file says so).
 * Run: npm run bench:storage   → bench/results/storage-backends.json
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { MemoryEntry } from '../../generated/ts/index.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import type { StoragePort, StoreKind } from '../../runtime/storage/port.ts';
import { freshDatabase, postgresAvailable, type TestDatabase } from '../../test/support/postgres.ts';
import { rng } from '../rng.ts';
import { median, round, writeResult, type BenchRow } from '../summary.ts';

const ROUNDS = 5;
const WRITES_PER_ROUND = 200;
const LISTS_PER_ROUND = 100;
const LIST_SIZE = 100;
const RECOVERY_ENTRIES = 10_000;
/** Goals, as limits: what a host needs from a back-end (see docs/storage.md). */
const GOALS = { sqliteWrites: 100, postgresWrites: 100, lists: 200, recoveryMs: 2_000 } as const;

const random = rng(13);
const content = (n: number): string => `note ${n}: ${'x'.repeat(150 + Math.floor(random() * 300))}`;
const entryFor = (n: number): MemoryEntry => ({ id: `e${String(n).padStart(7, '0')}`, content: content(n), tags: ['bench', `k:${n % 7}`], createdAt: new Date(1_780_000_000_000 + n).toISOString() });

interface Backend {
  readonly kind: StoreKind;
  readonly port: StoragePort;
  readonly writes: number[];
  readonly lists: number[];
  next: number;
}

async function writeRound(b: Backend): Promise<void> {
  const start = performance.now();
  for (let i = 0; i < WRITES_PER_ROUND; i++) {
    const n = b.next++;
    await b.port.memory.upsert('bench', `mem://bench/w${n % 10}`, entryFor(n));
  }
  b.writes.push((WRITES_PER_ROUND * 1000) / (performance.now() - start));
}

async function listRound(b: Backend): Promise<void> {
  const start = performance.now();
  for (let i = 0; i < LISTS_PER_ROUND; i++) {
    const got = await b.port.memory.list('bench', `mem://bench/list${i % 5}`);
    if (got.length !== LIST_SIZE) throw new Error(`${b.kind}: list returned ${got.length} entries, expected ${LIST_SIZE}`);
  }
  b.lists.push((LISTS_PER_ROUND * 1000) / (performance.now() - start));
}

async function sideBySide(dir: string, pgUrl: string | undefined) {
  const kinds: { kind: StoreKind; open: () => Promise<StoragePort> }[] = [
    { kind: 'memory', open: () => openStore({ kind: 'memory' }) },
    { kind: 'sqlite', open: () => openStore({ kind: 'sqlite', dataDir: join(dir, 'side-by-side') }) },
    ...(pgUrl !== undefined ? [{ kind: 'postgres' as const, open: () => openStore({ kind: 'postgres', url: pgUrl }) }] : []),
  ];
  const backends: Backend[] = [];
  for (const k of kinds) {
    const port = await k.open();
    // The list workload: 5 refs of LIST_SIZE entries each, written before timing.
    for (let r = 0; r < 5; r++) for (let i = 0; i < LIST_SIZE; i++) await port.memory.upsert('bench', `mem://bench/list${r}`, entryFor(r * LIST_SIZE + i));
    backends.push({ kind: k.kind, port, writes: [], lists: [], next: 1_000_000 });
  }
  for (const b of backends) await writeRound(b); // warm-up (statements prepared, caches filled)
  for (const b of backends) b.writes.length = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = backends.map((_, i) => backends[(i + round) % backends.length]!);
    for (const b of order) await writeRound(b);
    for (const b of order.reverse()) await listRound(b);
  }
  for (const b of backends) await b.port.close();
  return backends.map((b) => ({ kind: b.kind, writesPerSec: Math.round(median(b.writes)), listsPerSec: Math.round(median(b.lists)), rounds: ROUNDS }));
}

/**
 * A SQLite store with RECOVERY_ENTRIES entries and one event each; then the time to open and load it, median of 5.
 * Built on tmpfs when there is one: 20k fsynced commits take minutes on a slow disk, and the reads measured come
 * from the page cache either way.
 */
async function recovery(dir: string) {
  const dataDir = join(existsSync('/dev/shm') ? mkdtempSync('/dev/shm/wopkit-bench-') : dir, 'recovery');
  const port = await openStore({ kind: 'sqlite', dataDir });
  const buildStart = performance.now();
  for (let n = 0; n < RECOVERY_ENTRIES; n++) {
    const memoryRef = `mem://bench/r${n % 50}`;
    await port.memory.upsert('bench', memoryRef, entryFor(n));
    await port.runs.appendEvent(`run-${n % 20}`, (sequence) => ({ eventId: `ev-${n}`, runId: `run-${n % 20}`, type: 'memory.written', payload: { memoryRef, memoryId: entryFor(n).id, operation: 'put' }, timestamp: new Date().toISOString(), sequence }));
  }
  const buildMs = performance.now() - buildStart;
  await port.close();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const p = await openStore({ kind: 'sqlite', dataDir });
    const entries = await p.memory.all();
    await p.runs.runs();
    let events = 0;
    for (const runId of await p.runs.eventRunIds()) events += (await p.runs.readEvents(runId)).length;
    await p.commitments.listArmed();
    await p.schedules.list();
    times.push(performance.now() - start);
    await p.close();
    if (entries.length !== RECOVERY_ENTRIES || events !== RECOVERY_ENTRIES) throw new Error(`recovery read ${entries.length} entries and ${events} events, expected ${RECOVERY_ENTRIES} each`);
  }
  rmSync(dirname(dataDir), { recursive: true, force: true });
  return { entries: RECOVERY_ENTRIES, events: RECOVERY_ENTRIES, buildSeconds: round(buildMs / 1000, 1), recoveryMs: Math.round(median(times)), samplesMs: times.map((t) => Math.round(t)) };
}

const dir = mkdtempSync(join(tmpdir(), 'wopkit-bench-storage-'));
let db: TestDatabase | undefined;
try {
  const pgNote = postgresAvailable() ? undefined : 'no PostgreSQL server reachable (set WOPKIT_DATABASE_URL or run scripts/install-toolchains.sh)';
  if (pgNote === undefined) db = await freshDatabase('bench');
  const backends = await sideBySide(dir, db?.url);
  for (const b of backends) console.log(JSON.stringify(b));
  const rec = await recovery(dir);
  console.log(JSON.stringify(rec));

  const of = (kind: StoreKind) => backends.find((b) => b.kind === kind);
  const mem = of('memory')!;
  const sqlite = of('sqlite')!;
  const postgres = of('postgres');
  const side = `in-memory ${mem.writesPerSec}/s${postgres !== undefined ? `, PostgreSQL ${postgres.writesPerSec}/s` : ''}`;
  const summary: BenchRow[] = [
    { row: 'storage: durable memory writes, SQLite (WAL, synchronous=FULL)', figure: `${sqlite.writesPerSec} writes/s`, ratio: round(sqlite.writesPerSec / GOALS.sqliteWrites), peer: `a limit of ${GOALS.sqliteWrites} writes/s; same run: ${side}`, goal: `≥ 1× (≥ ${GOALS.sqliteWrites} acknowledged writes/s)` },
    ...(postgres !== undefined ? [{ row: 'storage: durable memory writes, PostgreSQL (synchronous_commit on)', figure: `${postgres.writesPerSec} writes/s`, ratio: round(postgres.writesPerSec / GOALS.postgresWrites), peer: `a limit of ${GOALS.postgresWrites} writes/s; same run: in-memory ${mem.writesPerSec}/s, SQLite ${sqlite.writesPerSec}/s`, goal: `≥ 1× (≥ ${GOALS.postgresWrites} acknowledged writes/s)` }] : []),
    { row: 'storage: list a 100-entry memoryRef, SQLite', figure: `${sqlite.listsPerSec} lists/s`, ratio: round(sqlite.listsPerSec / GOALS.lists), peer: `a limit of ${GOALS.lists} lists/s; same run: in-memory ${mem.listsPerSec}/s${postgres !== undefined ? `, PostgreSQL ${postgres.listsPerSec}/s` : ''}`, goal: `≥ 1× (≥ ${GOALS.lists} lists/s)` },
    ...(postgres !== undefined ? [{ row: 'storage: list a 100-entry memoryRef, PostgreSQL', figure: `${postgres.listsPerSec} lists/s`, ratio: round(postgres.listsPerSec / GOALS.lists), peer: `a limit of ${GOALS.lists} lists/s; same run: in-memory ${mem.listsPerSec}/s, SQLite ${sqlite.listsPerSec}/s`, goal: `≥ 1× (≥ ${GOALS.lists} lists/s)` }] : []),
    { row: 'storage: recovery of a 10k-entry SQLite store (open + load)', figure: `${rec.recoveryMs} ms`, ratio: round(GOALS.recoveryMs / rec.recoveryMs), peer: `a limit of ${GOALS.recoveryMs / 1000} s`, goal: `≥ 1× (≤ ${GOALS.recoveryMs / 1000} s)` },
  ];
  const path = writeResult('storage-backends', { benchmark: 'storage-backends', node: process.version, summary, backends, recovery: rec, ...(pgNote !== undefined ? { postgres: pgNote } : {}) });
  console.log(`wrote ${path}`);
} finally {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
}
