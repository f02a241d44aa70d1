/**
 * Commitment fires through the store: the CommitmentEngine's `tick()` on a SQLite store (the embedded default: a
 * writer thread, WAL, synchronous=FULL) against a raw `node:sqlite` loop doing the same durable work in its fastest
 * mode, side by side in one run.
 *
 * Workload: N time commitments of one tenant, armed before the clock starts (untimed), all due; the timed part fires
 * every one of them. A fire of the engine is one transaction: the claim (a conditional update from `armed`), the
 * fired-ledger row (one per condition instance, ever), the quota count and the content-free `commitment.fired` event
 * in the tenant's background log; a tick hands FIRES_IN_FLIGHT of them to the store at once (each its own plan, so
 * the writer's group commit can share a disk sync among them). The peer is a hand-written loop on its own file
 * with the store's own pragmas (applyPragmas: WAL, synchronous=FULL, its checkpoint interval), prepared statements on the main thread: it selects the due rows in
 * the same batches and, per fire, commits one transaction with the claim UPDATE, the ledger INSERT and the event
 * INSERT. Both fire exactly N, each once (checked). Rounds alternate which goes first; the ratio is the median of the
 * per-round ratios (peer time / engine time: 1 would be the raw loop's own speed).
 *
 * This replaces the in-memory engine-vs-its-TimerHeap benchmark: that engine (and its heap) is gone, and what a fire
 * costs now is a durable transaction, so the peer is the fastest durable loop.
 * Run: npm run bench:scheduler   → bench/results/scheduler.json
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { COMMITMENTS_PER_TICK, FIRES_IN_FLIGHT } from '../../runtime/commitments/engine.ts';
import { createOpenwopRuntime } from '../../runtime/openwop/index.ts';
import { ManualClock, SequentialIds } from '../../runtime/shared/clock.ts';
import { commitDetached, detachedTx } from '../../runtime/storage/unit-of-work.ts';
import { openSqliteStore } from '../../runtime/storage/sqlite/index.ts';
import { applyPragmas } from '../../runtime/storage/sqlite/pragmas.ts';
import { rng } from '../rng.ts';
import { median, round, writeResult } from '../summary.ts';

/** Due commitments (BENCH_N overrides, for a quick look). */
const N = Number(process.env.BENCH_N ?? 2_000);
const ROUNDS = 5;
const T0 = Date.UTC(2026, 0, 1);
const HORIZON = 86_400_000;
/** The issue-22 goal for one writer: at least half the raw durable loop. */
const GOAL = 0.5;

function dueTimes(): number[] {
  const r = rng(N + 7);
  return Array.from({ length: N }, () => T0 + Math.floor(r() * HORIZON));
}

/** The engine: arm N commitments (untimed), then fire them all through tick(); ms and fires. */
async function engineRun(dir: string, due: readonly number[]): Promise<{ ms: number; fired: number }> {
  const port = await openSqliteStore(join(dir, 'engine.sqlite'));
  try {
    const clock = new ManualClock(T0);
    const rt = createOpenwopRuntime({ port, clock, ids: new SequentialIds() });
    const plan = detachedTx(port);
    due.forEach((at, i) => rt.commitments.arm(plan, { commitmentId: `cmt_${i}`, memoryRef: 'mem://acme/a', memoryId: `m${i}`, condition: { kind: 'time', at }, enqueueRun: false }));
    await commitDetached(plan, port);
    clock.set(T0 + HORIZON);
    let fired = 0;
    const start = performance.now();
    for (let batch = await rt.commitments.tick(); batch.length > 0; batch = await rt.commitments.tick()) fired += batch.length;
    return { ms: performance.now() - start, fired };
  } finally {
    await port.close();
  }
}

/** The peer: the same fires, one durable transaction each, hand-written over node:sqlite. */
function rawRun(dir: string, due: readonly number[]): { ms: number; fired: number } {
  const db = new DatabaseSync(join(dir, 'raw.sqlite'));
  try {
    applyPragmas(db, { busyTimeoutMs: 5000, wal: true }); // the store's own settings, checkpoint interval included
    db.exec(`CREATE TABLE commitments (id TEXT PRIMARY KEY, due_ms INTEGER NOT NULL, state TEXT NOT NULL, doc TEXT NOT NULL);
      CREATE INDEX commitments_due ON commitments (due_ms) WHERE state = 'armed';
      CREATE TABLE fires (id TEXT NOT NULL, instance TEXT NOT NULL, fired_ms INTEGER NOT NULL, PRIMARY KEY (id, instance));
      CREATE TABLE events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (run_id, seq));`);
    const arm = db.prepare("INSERT INTO commitments (id, due_ms, state, doc) VALUES (?, ?, 'armed', ?)");
    db.exec('BEGIN');
    due.forEach((at, i) => arm.run(`cmt_${i}`, at, JSON.stringify({ commitmentId: `cmt_${i}`, memoryRef: 'mem://acme/a', memoryId: `m${i}`, condition: { kind: 'time', at } })));
    db.exec('COMMIT');
    const select = db.prepare(`SELECT id, due_ms, doc FROM commitments WHERE state = 'armed' AND due_ms <= ? ORDER BY due_ms LIMIT ${COMMITMENTS_PER_TICK}`);
    const claim = db.prepare("UPDATE commitments SET state = 'fired' WHERE id = ? AND state = 'armed'");
    const ledger = db.prepare('INSERT INTO fires (id, instance, fired_ms) VALUES (?, ?, ?)');
    const event = db.prepare('INSERT INTO events (run_id, seq, doc) VALUES (?, ?, ?)');
    const now = T0 + HORIZON;
    let fired = 0;
    const start = performance.now();
    for (let rows = select.all(now); rows.length > 0; rows = select.all(now)) {
      for (const r of rows as { id: string; due_ms: number; doc: string }[]) {
        const c = JSON.parse(r.doc) as { memoryRef: string; memoryId: string };
        db.exec('BEGIN');
        if (claim.run(r.id).changes !== 1) throw new Error('claim lost');
        ledger.run(r.id, `time:${r.due_ms}`, now);
        event.run('bg-acme', fired, JSON.stringify({ type: 'commitment.fired', payload: { commitmentId: r.id, memoryRef: c.memoryRef, memoryId: c.memoryId, condition: 'time', conditionInstance: `time:${r.due_ms}` } }));
        db.exec('COMMIT');
        fired++;
      }
    }
    return { ms: performance.now() - start, fired };
  } finally {
    db.close();
  }
}

const due = dueTimes();
const rounds: { engineMs: number; rawMs: number; ratio: number }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const dir = mkdtempSync(join(tmpdir(), 'wopkit-bench-scheduler-'));
  try {
    const run = async () => {
      if (r % 2 === 0) return { engine: await engineRun(dir, due), raw: rawRun(dir, due) };
      const raw = rawRun(dir, due);
      return { engine: await engineRun(dir, due), raw };
    };
    const { engine, raw } = await run();
    if (engine.fired !== N || raw.fired !== N) throw new Error(`fired ${engine.fired} (engine) and ${raw.fired} (raw), expected ${N} each`);
    rounds.push({ engineMs: round(engine.ms, 1), rawMs: round(raw.ms, 1), ratio: round(raw.ms / engine.ms, 3) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.table(rounds);

const ratio = round(median(rounds.map((x) => x.ratio)), 3);
const engineMs = median(rounds.map((x) => x.engineMs));
const rawMs = median(rounds.map((x) => x.rawMs));
const summary = {
  row: `commitment fires through the SQLite store, ${N} due time commitments (one durable transaction each)`,
  ratio,
  peer: `a raw node:sqlite loop, one transaction per fire (claim, ledger row, event), the store's pragmas (WAL, synchronous=FULL): ${Math.round(rawMs)} ms`,
  goal: `≥ ${GOAL}× (issue 22's one-writer goal; a tick hands ${FIRES_IN_FLIGHT} fires at a time to the store's group commit)`,
  figure: `${Math.round(engineMs)} ms (${round((N * 1000) / engineMs, 0)} fires/s, median of the rounds)`,
};
const path = writeResult('scheduler', { benchmark: 'commitment-fires', node: process.version, loadAverage: (await import('node:os')).loadavg().map((x) => round(x)), summary, results: { commitments: N, rounds } }, `${N} time commitments of one tenant, all due, on a SQLite store the runtime created and on the raw loop's own file; ${ROUNDS} interleaved rounds`);
console.log(`scheduler → ${path}`);
