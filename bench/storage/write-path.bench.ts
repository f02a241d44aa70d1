/**
 * The write path (issue 22): durable memory writes through the reference host against the database's own fastest
 * durable loop, in one run, interleaved.
 *
 * - Ours: the host as a process (bench/host/child-host.ts, `npm start` bundled) on an empty store; autocannon sends
 *   `POST /v1/host/sample/memory/seed` with one entry per request over real HTTP, from 1 client and from 32
 *   concurrent clients (tenants spread over 64, so a write path that serialises per tenant is not what is measured),
 *   for DURATION_S each. A seed is acknowledged once its transaction committed (its entry, tag rows, journal record,
 *   event and counts).
 * - SQLite peer: a raw `node:sqlite` loop on the main thread of this process, one `INSERT` of the same entry row
 *   (the same table, indexes and document text) per transaction, with the store's own settings (WAL,
 *   `synchronous=FULL`, its checkpoint interval), on a store the runtime created. Goals: the host at 1 writer ≥ 0.5× the loop, at 32 writers ≥ 2× the same loop; the host's event-loop
 *   delay p99 during the 32-writer run ≤ 5 ms (monitorEventLoopDelay in the host process, bench/host/report-signal.ts;
 *   a bare Fastify process under the same load, in the same round, gives the machine's own floor).
 * - SQLite ceiling: the same bare Fastify process committing the raw loop's INSERT, one transaction per request, on
 *   its main thread (bench/host/bare-host.ts, BARE_DURABLE_FILE), at 1 writer: the raw loop behind an HTTP round trip,
 *   which bounds what any HTTP host can reach against the 1-writer goal on this machine. Reported with that row.
 * - SQLite floor: the plans the host commits for these seeds (recorded from the runtime: a host on an in-memory store
 *   answering the same bodies, every plan its store was asked to commit), replayed on a store file by the runtime's
 *   own group commit (`commitGroup`, the writer thread's function) on the main thread of this process, with the
 *   store's own pragmas: one plan per transaction, and 32 per transaction. No HTTP, no thread, no request handling —
 *   what the transaction the issue asks of every write (entry, tag row, journal record, counts, event) costs on this
 *   disk by itself, so the most a host can reach against each goal. Reported with the SQLite rows.
 * - PostgreSQL peer: a raw `pg` loop, `BEGIN; INSERT; COMMIT` per entry row, through a pool of the host's size (10),
 *   from as many concurrent writers as the host has clients. Goals: ≥ 0.5× at 1 writer, ≥ 0.4× at 32.
 * Rounds rotate the order of the runs; each ratio is the median of its per-round ratios. Load average recorded.
 * Run: npm run bench:write-path   → bench/results/storage-write-path.json (BENCH_ROUNDS, default 5)
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { DEFAULT_LIMITS } from '../../runtime/host/limits.ts';
import { createHost } from '../../runtime/host/server.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import type { WritePlan } from '../../runtime/storage/port.ts';
import { commitGroup } from '../../runtime/storage/sqlite/group-commit.ts';
import { applyPragmas } from '../../runtime/storage/sqlite/pragmas.ts';
import { SqliteSession } from '../../runtime/storage/sqlite/session.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { SQLITE_FILE } from '../../runtime/storage/open-store.ts';
import { DEFAULT_POSTGRES_OPTIONS } from '../../runtime/storage/postgres/index.ts';
import { BARE_DURABLE_ENV } from '../host/peer-env.ts';
import { BENCH_TOKEN, launchHost, type HostProcess } from '../host/child-host.ts';
import { EVENT_LOOP_ENV, WINDOW_RESTART_MS } from '../host/report-signal.ts';
import { median, round, writeResult, type BenchRow } from '../summary.ts';
import { eachDurableKind, KIND_LABEL, loadAverage, loadNote, type DurableKind } from './environment.ts';
import { contentOf, entryRows, idOf, TAGS } from './rows.ts';
import { emptyStore, type StoreCopy } from './store-cache.ts';
import { withCommit } from '../../test/runtime/support.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_S = 3;
const WRITERS = [1, 32] as const;
const TENANTS = 64;
const GOALS = {
  sqlite: { 1: 0.5, 32: 2, eventLoopP99Ms: 5 },
  postgres: { 1: 0.5, 32: 0.4 },
} as const;

let written = 0;
/** The body of the n-th seed any host is sent: one entry, a tenant of 64, content and tags as the history store's. */
const seedBody = (n: number): string => JSON.stringify({ memoryRef: `mem://w${n % TENANTS}/notes`, entries: [{ content: contentOf(n), tags: [TAGS[n % TAGS.length]!] }] });
/** The n-th entry row any side writes: a fresh id, a tenant of 64, content and tags as the history store's. */
const rowOf = (n: number) => entryRows({ tenant: `w${n % TENANTS}`, memoryRef: `mem://w${n % TENANTS}/notes`, id: idOf('mem', `write-path/${process.pid}/${n}`), content: contentOf(n), tags: [TAGS[n % TAGS.length]!], createdMs: Date.now() }).rows[0]![1];

// ── Ours: the host over HTTP ─────────────────────────────────────────────────────────────────────────────────────

async function hostRate(host: HostProcess, writers: number): Promise<number> {
  const out = await autocannon({
    url: host.url,
    connections: writers,
    duration: DURATION_S,
    requests: [{
      method: 'POST',
      path: ROUTES.memorySeed.path,
      headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
      setupRequest: (req) => {
        const n = written++;
        return { ...req, body: seedBody(n) };
      },
    }],
  });
  // A kept-alive connection is closed after maxRequestsPerSocket answers; a request already sent on it gets 429.
  const closings = Math.ceil(out.requests.total / DEFAULT_LIMITS.maxRequestsPerSocket) + writers;
  if (out.non2xx > closings || out.errors > 0) throw new Error(`host seeds: ${out.non2xx} non-2xx, ${out.errors} errors, of ${out.requests.total}`);
  return (out.requests.total - out.non2xx) / DURATION_S;
}

// ── Peers: the database's raw durable loop ───────────────────────────────────────────────────────────────────────

interface Peer {
  rate(writers: number): Promise<number>;
  close(): Promise<void>;
}

const INSERT = 'INSERT INTO entries (tenant, memory_ref, id, neg_created, expires_ms, bytes, doc) VALUES (?, ?, ?, ?, ?, ?, ?)';

/** One INSERT per transaction on the main thread, WAL + synchronous=FULL and the store's checkpoint setting (one writer: SQLite has one). */
function sqlitePeer(store: StoreCopy): Peer {
  const db = new DatabaseSync(join(store.dataDir!, SQLITE_FILE));
  // The store's own settings (WAL, synchronous=FULL, its checkpoint interval): the loop gets whatever the host gets.
  applyPragmas(db, { busyTimeoutMs: 5000, wal: true });
  const insert: StatementSync = db.prepare(INSERT);
  return {
    async rate() {
      const end = performance.now() + DURATION_S * 1000;
      let n = 0;
      while (performance.now() < end) {
        db.exec('BEGIN');
        insert.run(...rowOf(written++));
        db.exec('COMMIT');
        n++;
      }
      return n / DURATION_S;
    },
    close: async () => db.close(),
  };
}

/** Plans the floor commits per run: about a second of work at each group size, enough for a steady rate. */
const FLOOR_PLANS = { 1: 2_000, 32: 6_400 } as const;

/**
 * The plans a host commits for `count` seeds, in order (as JSON text, parsed when replayed): a host on an in-memory
 * store, answering the bodies hostRate sends, through a store that records every plan it is asked to commit.
 */
async function recordSeedPlans(count: number): Promise<string[]> {
  const plans: string[] = [];
  const storage = withCommit(await openMemoryStore(), (plan, inner) => (plans.push(JSON.stringify(plan)), inner.commit(plan)));
  const { app } = await createHost({ token: BENCH_TOKEN, storage });
  try {
    for (let n = 0; plans.length < count; n++) {
      const res = await app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' }, payload: seedBody(n) });
      if (res.statusCode !== 200) throw new Error(`recording seed ${n}: ${res.statusCode} ${res.body}`);
    }
  } finally {
    await app.close();
  }
  return plans;
}

/** The SQLite floor: recorded seed plans committed by the runtime's group commit on this thread, `group` per transaction. */
function floorPeer(store: StoreCopy, plans: readonly string[]): { rate(group: 1 | 32): Promise<number>; close(): void } {
  const db = new DatabaseSync(join(store.dataDir!, SQLITE_FILE));
  applyPragmas(db, { busyTimeoutMs: 5000, wal: true });
  const session = new SqliteSession(db);
  let next = 0;
  return {
    async rate(group) {
      const batch = plans.slice(next, (next += FLOOR_PLANS[group])).map((p) => JSON.parse(p) as WritePlan);
      if (batch.length < FLOOR_PLANS[group]) throw new Error('the floor ran out of recorded plans');
      const started = performance.now();
      for (let i = 0; i < batch.length; i += group) {
        const failed = (await commitGroup(session, batch.slice(i, i + group))).find((x) => 'error' in x);
        if (failed !== undefined) throw (failed as { error: unknown }).error;
      }
      return batch.length / ((performance.now() - started) / 1000);
    },
    close: () => db.close(),
  };
}

/** `BEGIN; INSERT; COMMIT` per row through a pool of the host's size, from `writers` concurrent loops. */
function postgresPeer(store: StoreCopy): Peer {
  const pool = new pg.Pool({ connectionString: store.url!, max: DEFAULT_POSTGRES_OPTIONS.poolSize });
  const text = (() => {
    let i = 0;
    return INSERT.replace(/\?/g, () => `$${++i}`);
  })();
  return {
    async rate(writers) {
      const end = performance.now() + DURATION_S * 1000;
      let n = 0;
      await Promise.all(Array.from({ length: writers }, async () => {
        while (performance.now() < end) {
          const c = await pool.connect();
          try {
            await c.query('BEGIN');
            await c.query(text, rowOf(written++) as unknown[]);
            await c.query('COMMIT');
          } finally {
            c.release();
          }
          n++;
        }
      }));
      return n / DURATION_S;
    },
    close: () => pool.end(),
  };
}

// ── Rounds ───────────────────────────────────────────────────────────────────────────────────────────────────────

type Run = 'peer 1' | 'peer 32' | 'host 1' | 'host 32' | 'bare 32' | 'ceiling 1' | 'floor 1' | 'floor 32';

async function measure(kind: DurableKind) {
  const hostStore = await emptyStore(kind);
  const peerStore = await emptyStore(kind);
  const ceilingStore = kind === 'sqlite' ? await emptyStore(kind) : undefined;
  const floorStore = kind === 'sqlite' ? await emptyStore(kind) : undefined;
  // Recorded before any process starts (a failed recording leaves nothing running). Every floor run of the warm-up
  // and the rounds replays plans of its own (ids are fresh in each).
  const floorPlans = floorStore !== undefined ? await recordSeedPlans((ROUNDS + 1) * (FLOOR_PLANS[1] + FLOOR_PLANS[32])) : [];
  const watched = { [EVENT_LOOP_ENV]: '1' };
  const host = await launchHost(kind === 'sqlite' ? { kind, dataDir: hostStore.dataDir! } : { kind, url: hostStore.url! }, watched);
  // The event-loop delay's peer: a bare Fastify process answering the same path under the same load, at the same time
  // of the run — what the machine's own load does to any process's event loop.
  const bare = kind === 'sqlite' ? await launchHost({ kind: 'memory' }, watched, { entry: 'bare' }) : undefined;
  const ceiling = ceilingStore !== undefined ? await launchHost({ kind: 'memory' }, { ...watched, [BARE_DURABLE_ENV]: join(ceilingStore.dataDir!, SQLITE_FILE) }, { entry: 'bare' }) : undefined;
  const peer = kind === 'sqlite' ? sqlitePeer(peerStore) : postgresPeer(peerStore);
  const floor = floorStore !== undefined ? floorPeer(floorStore, floorPlans) : undefined;
  try {
    const loadBefore = loadAverage();
    // SQLite has one writer: its peer is the one loop; PostgreSQL's peer runs as many writers as the host has clients.
    const runs: Run[] = kind === 'sqlite' ? ['peer 1', 'host 1', 'host 32', 'bare 32', 'ceiling 1', 'floor 1', 'floor 32'] : ['peer 1', 'host 1', 'peer 32', 'host 32'];
    const once = async (run: Run): Promise<{ rate: number; eventLoopP99Ms?: number }> => {
      const writers = run.endsWith('32') ? 32 : 1;
      if (run.startsWith('peer')) return { rate: await peer.rate(writers) };
      if (run.startsWith('floor')) return { rate: await floor!.rate(writers) };
      const target = run.startsWith('bare') ? bare! : run.startsWith('ceiling') ? ceiling! : host;
      await target.report(); // starts the process's event-loop delay window
      await new Promise((r) => setTimeout(r, WINDOW_RESTART_MS * 2));
      const rate = await hostRate(target, writers);
      return { rate, eventLoopP99Ms: (await target.report()).eventLoopDelayMs!.p99 };
    };
    for (const run of runs) await once(run); // warm-up
    const rounds: Record<Run, { rate: number; eventLoopP99Ms?: number }>[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const order = runs.map((_, k) => runs[(k + i) % runs.length]!);
      const got = {} as Record<Run, { rate: number; eventLoopP99Ms?: number }>;
      for (const run of order) got[run] = await once(run);
      rounds.push(got);
      console.log(`${KIND_LABEL[kind]} round ${i + 1}: ${order.map((r) => `${r} ${Math.round(got[r].rate)}/s${got[r].eventLoopP99Ms !== undefined ? ` (loop p99 ${got[r].eventLoopP99Ms} ms)` : ''}`).join(', ')}`);
    }
    return { kind, loadAverage: { before: loadBefore, after: loadAverage() }, rounds };
  } finally {
    await host.stop();
    await bare?.stop();
    await ceiling?.stop();
    await peer.close();
    floor?.close();
    await floorStore?.drop();
    await ceilingStore?.drop();
    await hostStore.drop();
    await peerStore.drop();
  }
}

const { results, skipped } = await eachDurableKind(measure);

/** A median over the rounds of one run's rate, and of its ratio to the raw loop. */
const medianOf = (rounds: readonly Partial<Record<Run, { rate: number }>>[], run: Run) => ({
  rate: Math.round(median(rounds.map((x) => x[run]!.rate))),
  ratio: round(median(rounds.map((x) => x[run]!.rate / x['peer 1']!.rate))),
});

/** The SQLite rows' notes: what the seed's own transactions reach with no host around them, and (1 writer) any HTTP host. */
function sqliteNote(rounds: readonly Partial<Record<Run, { rate: number }>>[], writers: 1 | 32): string {
  const floor = medianOf(rounds, `floor ${writers}`);
  const floorLine = `The floor: the plans the host commits for these seeds, replayed by the runtime's own group commit on one thread with no HTTP, ${writers === 1 ? 'one per transaction' : '32 per transaction'}, reach ${floor.rate} writes/s = ${floor.ratio}× the loop in the same rounds`;
  if (writers === 32) return `${floorLine}.`;
  const ceiling = medianOf(rounds, 'ceiling 1');
  return `${floorLine}; the ceiling of any HTTP host here, a bare Fastify process committing the raw loop's INSERT, one transaction per request, reaches ${ceiling.rate} writes/s = ${ceiling.ratio}×.`;
}

const summary: BenchRow[] = results.flatMap((r) => {
  const label = KIND_LABEL[r.kind];
  const load = loadNote(r.loadAverage);
  const rate = (run: Run) => Math.round(median(r.rounds.map((x) => x[run]?.rate ?? 0)));
  const peerOf = (writers: number): Run => (r.kind === 'sqlite' ? 'peer 1' : writers === 1 ? 'peer 1' : 'peer 32');
  const rows: BenchRow[] = WRITERS.map((writers) => ({
    row: `durable memory writes through the host (${label}), ${writers} writer${writers > 1 ? 's' : ''}: seed seam over HTTP, one entry per request`,
    ratio: round(median(r.rounds.map((x) => x[`host ${writers}`].rate / x[peerOf(writers)].rate))),
    peer: r.kind === 'sqlite'
      ? `a raw node:sqlite loop, one INSERT per transaction, the store's pragmas (WAL, synchronous=FULL), main thread: ${rate('peer 1')} commits/s (${load})`
      : `a raw pg loop, BEGIN/INSERT/COMMIT per row, pool of ${DEFAULT_POSTGRES_OPTIONS.poolSize}, ${writers} writer${writers > 1 ? 's' : ''}: ${rate(peerOf(writers))} commits/s (${load})`,
    goal: `≥ ${GOALS[r.kind][writers]}×`,
    figure: `${rate(`host ${writers}`)} writes/s`,
    ...(r.kind === 'sqlite' ? { note: sqliteNote(r.rounds, writers) } : {}),
  }));
  if (r.kind === 'sqlite') {
    const p99 = median(r.rounds.map((x) => x['host 32'].eventLoopP99Ms ?? Number.POSITIVE_INFINITY));
    const bareP99 = median(r.rounds.map((x) => x['bare 32']?.eventLoopP99Ms ?? Number.POSITIVE_INFINITY));
    rows.push({
      row: `host event-loop delay p99 during 32 concurrent durable writers (${label})`,
      ratio: round(GOALS.sqlite.eventLoopP99Ms / p99),
      peer: `the limit, ${GOALS.sqlite.eventLoopP99Ms} ms; a bare Fastify process under the same 32-client load: p99 ${round(bareP99)} ms (${load})`,
      goal: `≥ 1× (p99 ≤ ${GOALS.sqlite.eventLoopP99Ms} ms)`,
      figure: `${round(p99)} ms`,
    });
  }
  return rows;
});
const path = writeResult(
  'storage-write-path',
  { benchmark: 'storage-write-path', node: process.version, summary, method: { rounds: ROUNDS, durationSec: DURATION_S, writers: WRITERS, tenants: TENANTS }, skipped, results },
  `empty stores made by the runtime; one-entry seeds over ${TENANTS} tenants (content and tags as the history benchmark's rows), ${DURATION_S} s per run, ${ROUNDS} interleaved rounds`,
);
for (const s of summary) console.log(`${s.row}: ${s.figure}, ${s.ratio}× (${s.peer}; goal ${s.goal})`);
console.log(`→ ${path}`);
