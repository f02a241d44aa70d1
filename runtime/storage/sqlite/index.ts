/**
 * The SQLite back-end of the storage port, on Node's built-in `node:sqlite` (no native build).
 *
 * - Durability: WAL journal, `synchronous=FULL` (a committed transaction survives power loss), so a port call
 *   that resolved is on disk; `busy_timeout` lets another connection (a tool reading the file, a `lock: false`
 *   handle) wait for the write lock instead of failing.
 * - Atomicity: every call that writes runs in one `BEGIN IMMEDIATE` transaction, which takes SQLite's single
 *   write lock up front; the read-then-write operations (`appendEvent`, `claimFire`, `claimRun`) are therefore
 *   atomic across every connection to the same file (the file lock below keeps it to one store; the tests of
 *   this rule open with `lock: false`).
 * - Statements are prepared once per SQL text and cached. The database is synchronous; the port's promises
 *   resolve after the call has committed.
 * - Schema: `SQLITE_MIGRATIONS`, applied at open in order, each in a transaction and recorded in `schema_version`.
 *   A file whose recorded version is newer than the code is refused (StoreVersionError) before anything is read.
 * - One process per file: opening takes the exclusive lock `<file>.lock` (runtime/shared/writer-lock.ts) before the
 *   database is touched, and `close()` releases it. The host keeps its working state in memory, so a second host on
 *   the same file would silently diverge from the first; a second open — in another process or in this one — is
 *   refused with StoreLockedError. A lock left by a killed process is taken over.
 *
 * `openMemoryStore` (../memory/) is this back-end on an in-memory database: same SQL, nothing on disk.
 */
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { RunEvent } from '../../../generated/ts/index.ts';
import {
  StoreVersionError,
  type ArmedCommitmentRow,
  type CommitmentStore,
  type ConsolidationStore,
  type DocumentLog,
  type FiredRow,
  type JsonDoc,
  type MemoryEntryStore,
  type Migration,
  type ProposalRecordStore,
  type QuestionStore,
  type ReplayStore,
  type RunStore,
  type ScheduleStore,
  type StoragePort,
  type StoreKind,
  type StoredMemoryEntry,
} from '../port.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { WopkitError } from '../../shared/errors.ts';
import { acquireWriterLock, describeHolder, LogLockedError, type LockHolder, type WriterLock } from '../../shared/writer-lock.ts';

type Row = Record<string, SQLInputValue>;
const parse = <T>(text: unknown): T => JSON.parse(String(text)) as T;
const text = (doc: unknown): string => JSON.stringify(doc);

export interface SqliteStoreOptions {
  /** Milliseconds a writer waits for another process's write lock before failing (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Migrations to apply (default SQLITE_MIGRATIONS; tests pass a longer list to simulate a newer store). */
  readonly migrations?: readonly Migration[];
  /** Reported as the port's kind (the in-memory back-end reuses this class). */
  readonly kind?: StoreKind;
  /**
   * Take the file's exclusive lock (default true). `false` lets several handles share the file at once — only for
   * tests of SQLite's own cross-connection atomicity: two hosts on one file diverge (see StoreLockedError).
   */
  readonly lock?: boolean;
}

/** A second open of a SQLite store that is already open (in another process, or in this one) was refused. */
export class StoreLockedError extends WopkitError<'store_locked'> {
  constructor(
    readonly file: string,
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    super(
      'store_locked',
      `data directory ${dirname(file)} is in use: its SQLite store ${file} is open in ${describeHolder(holder)} since ${holder.lockedAt} (lock file ${lockPath}); ` +
        'a data directory serves one host process: stop the other host, or use another --data-dir (for several host processes use PostgreSQL, --store postgres)',
    );
  }
}

/** Whether `path` names a file on disk (not a private in-memory or temporary database). */
const onDisk = (path: string): boolean => path !== '' && path !== ':memory:';

/** Open (creating and migrating when needed) the SQLite store at `path` (`:memory:` for an in-memory one). */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<StoragePort> {
  return new SqliteStore(path, options);
}

class SqliteStore implements StoragePort {
  readonly kind: StoreKind;
  readonly location: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  readonly #lock: WriterLock | undefined;
  #closed = false;
  #batching = false;

  constructor(path: string, options: SqliteStoreOptions) {
    this.kind = options.kind ?? 'sqlite';
    this.location = path;
    // The lock first: a refused second opener must not touch the file (no pragma, no migration).
    this.#lock = options.lock !== false && onDisk(path) ? lockStore(path) : undefined;
    try {
      this.#db = new DatabaseSync(path);
    } catch (err) {
      this.#lock?.release();
      throw err;
    }
    try {
      this.#db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      if (path !== ':memory:') this.#db.exec('PRAGMA journal_mode = WAL');
      this.#db.exec('PRAGMA synchronous = FULL');
      this.#migrate(options.migrations ?? SQLITE_MIGRATIONS);
    } catch (err) {
      this.#db.close();
      this.#lock?.release();
      throw err;
    }
  }

  #migrate(migrations: readonly Migration[]): void {
    this.#tx(() => this.#db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)'));
    const current = Number(this.#db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM schema_version').get()!.v);
    const supported = migrations.at(-1)?.version ?? 0;
    if (current > supported) throw new StoreVersionError(current, supported, this.location);
    for (const m of migrations) {
      if (m.version <= current) continue;
      this.#tx(() => {
        this.#db.exec(m.sql);
        this.#db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
      });
    }
  }

  #stmt(sql: string): StatementSync {
    if (this.#closed) throw new Error('storage port is closed');
    let s = this.#statements.get(sql);
    if (s === undefined) this.#statements.set(sql, (s = this.#db.prepare(sql)));
    return s;
  }
  #run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.#stmt(sql).run(...params).changes);
  }
  #get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.#stmt(sql).get(...params) as Row | undefined;
  }
  #all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.#stmt(sql).all(...params) as Row[];
  }
  /** One write transaction, holding SQLite's write lock from the start (inside a batch: part of the batch's). */
  #tx<T>(f: () => T): T {
    if (this.#closed) throw new Error('storage port is closed');
    if (this.#batching) return f();
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const out = f();
      this.#db.exec('COMMIT');
      return out;
    } catch (err) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw err;
    }
  }

  async batch<T>(f: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new Error('storage port is closed');
    if (this.#batching) throw new Error('batches do not nest');
    this.#db.exec('BEGIN IMMEDIATE');
    this.#batching = true;
    try {
      const out = await f();
      this.#db.exec('COMMIT');
      return out;
    } catch (err) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw err;
    } finally {
      this.#batching = false;
    }
  }

  readonly memory: MemoryEntryStore = {
    upsert: async (tenant, memoryRef, entry) => {
      // The owning tenant is checked in the same statement: a row of another tenant is never replaced.
      this.#tx(() => this.#run(
        'INSERT INTO memory_entries (tenant, memory_ref, id, doc) VALUES (?, ?, ?, ?) ON CONFLICT (memory_ref, id) DO UPDATE SET doc = excluded.doc WHERE memory_entries.tenant = excluded.tenant',
        tenant, memoryRef, entry.id, text(entry),
      ));
    },
    remove: async (tenant, memoryRef, id) => this.#tx(() => this.#run('DELETE FROM memory_entries WHERE tenant = ? AND memory_ref = ? AND id = ?', tenant, memoryRef, id)) > 0,
    get: async (tenant, memoryRef, id) => {
      const row = this.#get('SELECT doc FROM memory_entries WHERE tenant = ? AND memory_ref = ? AND id = ?', tenant, memoryRef, id);
      return row === undefined ? undefined : parse<StoredMemoryEntry>(row.doc);
    },
    list: async (tenant, memoryRef) => this.#all('SELECT doc FROM memory_entries WHERE tenant = ? AND memory_ref = ? ORDER BY id', tenant, memoryRef).map((r) => parse<StoredMemoryEntry>(r.doc)),
    all: async () => this.#all('SELECT tenant, memory_ref, doc FROM memory_entries ORDER BY memory_ref, id')
      .map((r) => ({ tenant: String(r.tenant), memoryRef: String(r.memory_ref), entry: parse<StoredMemoryEntry>(r.doc) })),
  };

  readonly runs: RunStore = {
    putRun: async ({ runId, tenant, record }) => {
      this.#tx(() => this.#run('INSERT INTO runs (run_id, tenant, doc) VALUES (?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET tenant = excluded.tenant, doc = excluded.doc', runId, tenant, text(record)));
    },
    removeRun: async (runId) => this.#tx(() => this.#run('DELETE FROM runs WHERE run_id = ?', runId)) > 0,
    runs: async () => this.#all('SELECT run_id, tenant, doc FROM runs ORDER BY ord').map((r) => ({ runId: String(r.run_id), tenant: String(r.tenant), record: parse<JsonDoc>(r.doc) })),
    appendEvent: async (runId, build) => this.#tx(() => {
      const sequence = Number(this.#get('SELECT next_seq FROM event_logs WHERE run_id = ?', runId)?.next_seq ?? 0);
      const event: RunEvent = build(sequence);
      if (event.runId !== runId || event.sequence !== sequence) throw new RangeError(`appendEvent: built event must carry runId ${runId} and sequence ${sequence}`);
      const doc = text(event);
      this.#run('INSERT INTO events (run_id, seq, doc) VALUES (?, ?, ?)', runId, sequence, doc);
      this.#run('INSERT INTO event_logs (run_id, next_seq) VALUES (?, 1) ON CONFLICT (run_id) DO UPDATE SET next_seq = next_seq + 1', runId);
      return parse<RunEvent>(doc);
    }),
    readEvents: async (runId, fromSeq = 0) => this.#all('SELECT doc FROM events WHERE run_id = ? AND seq >= ? ORDER BY seq', runId, Math.max(0, Math.floor(fromSeq))).map((r) => parse<RunEvent>(r.doc)),
    lastSequence: async (runId) => Number(this.#get('SELECT next_seq FROM event_logs WHERE run_id = ?', runId)?.next_seq ?? 0) - 1,
    eventRunIds: async () => this.#all('SELECT run_id FROM event_logs ORDER BY ord').map((r) => String(r.run_id)),
    dropEvents: async (runId) => this.#tx(() => {
      this.#run('DELETE FROM events WHERE run_id = ?', runId);
      return this.#run('DELETE FROM event_logs WHERE run_id = ?', runId) > 0;
    }),
  };

  readonly commitments: CommitmentStore = {
    arm: async ({ tenant, commitmentId, commitment }) =>
      this.#tx(() => this.#run('INSERT INTO commitments_armed (tenant, commitment_id, doc) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', tenant, commitmentId, text(commitment))) > 0,
    disarm: async (tenant, commitmentId) => this.#tx(() => this.#run('DELETE FROM commitments_armed WHERE tenant = ? AND commitment_id = ?', tenant, commitmentId)) > 0,
    listArmed: async () => this.#all('SELECT arm_seq, tenant, commitment_id, doc, pred_last, pred_transitions FROM commitments_armed ORDER BY arm_seq').map((r): ArmedCommitmentRow => ({
      tenant: String(r.tenant),
      commitmentId: String(r.commitment_id),
      commitment: parse<JsonDoc>(r.doc),
      armSeq: Number(r.arm_seq),
      ...(r.pred_last === null ? {} : { predicate: { last: Number(r.pred_last) === 1, transitions: Number(r.pred_transitions) } }),
    })),
    setPredicateState: async (tenant, commitmentId, { last, transitions }) => {
      this.#tx(() => this.#run('UPDATE commitments_armed SET pred_last = ?, pred_transitions = ? WHERE tenant = ? AND commitment_id = ?', last ? 1 : 0, transitions, tenant, commitmentId));
    },
    claimFire: async ({ tenant, commitmentId, instance, firedAt, disarm, commitment }) => this.#tx(() => {
      const claimed = this.#run('INSERT INTO commitments_fired (tenant, commitment_id, instance, fired_at, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', tenant, commitmentId, instance, firedAt, commitment === undefined ? null : text(commitment)) > 0;
      if (claimed && disarm === true) this.#run('DELETE FROM commitments_armed WHERE tenant = ? AND commitment_id = ?', tenant, commitmentId);
      return claimed;
    }),
    hasFired: async (tenant, commitmentId, instance) => this.#get('SELECT 1 AS x FROM commitments_fired WHERE tenant = ? AND commitment_id = ? AND instance = ?', tenant, commitmentId, instance) !== undefined,
    listFired: async () => this.#all('SELECT tenant, commitment_id, instance, fired_at, doc FROM commitments_fired ORDER BY ord')
      .map((r): FiredRow => ({ tenant: String(r.tenant), commitmentId: String(r.commitment_id), instance: String(r.instance), firedAt: Number(r.fired_at), ...(r.doc === null ? {} : { commitment: parse<JsonDoc>(r.doc) }) })),
  };

  readonly schedules: ScheduleStore = {
    put: async ({ scheduleId, tenant, schedule }) => {
      this.#tx(() => this.#run('INSERT INTO schedules (schedule_id, tenant, doc) VALUES (?, ?, ?) ON CONFLICT (schedule_id) DO UPDATE SET tenant = excluded.tenant, doc = excluded.doc', scheduleId, tenant, text(schedule)));
    },
    remove: async (scheduleId) => this.#tx(() => {
      this.#run('DELETE FROM schedule_runs WHERE schedule_id = ?', scheduleId);
      return this.#run('DELETE FROM schedules WHERE schedule_id = ?', scheduleId) > 0;
    }),
    list: async () => this.#all('SELECT s.schedule_id, s.tenant, s.doc, (SELECT MAX(slot) FROM schedule_runs r WHERE r.schedule_id = s.schedule_id) AS last_slot FROM schedules s ORDER BY s.ord')
      .map((r) => ({ scheduleId: String(r.schedule_id), tenant: String(r.tenant), schedule: parse<JsonDoc>(r.doc), ...(r.last_slot === null ? {} : { lastSlot: Number(r.last_slot) }) })),
    claimRun: async (scheduleId, slot) => this.#tx(() => this.#run('INSERT INTO schedule_runs (schedule_id, slot) VALUES (?, ?) ON CONFLICT DO NOTHING', scheduleId, slot)) > 0,
    recordOutcome: async (scheduleId, slot, outcome) => {
      this.#tx(() => this.#run('INSERT INTO schedule_runs (schedule_id, slot, outcome) VALUES (?, ?, ?) ON CONFLICT (schedule_id, slot) DO UPDATE SET outcome = excluded.outcome', scheduleId, slot, text(outcome)));
    },
    runs: async (scheduleId) => this.#all('SELECT slot, outcome FROM schedule_runs WHERE schedule_id = ? ORDER BY slot', scheduleId)
      .map((r) => ({ scheduleId, slot: Number(r.slot), ...(r.outcome === null ? {} : { outcome: parse<JsonDoc>(r.outcome) }) })),
  };

  readonly consolidation: ConsolidationStore = {
    recordPass: async ({ tenant, memoryRef, pass }) => {
      this.#tx(() => this.#run('INSERT INTO consolidation_passes (memory_ref, tenant, doc) VALUES (?, ?, ?) ON CONFLICT (memory_ref) DO UPDATE SET doc = excluded.doc WHERE consolidation_passes.tenant = excluded.tenant', memoryRef, tenant, text(pass)));
    },
    lastPass: async (tenant, memoryRef) => {
      const r = this.#get('SELECT doc FROM consolidation_passes WHERE tenant = ? AND memory_ref = ?', tenant, memoryRef);
      return r === undefined ? undefined : parse<JsonDoc>(r.doc);
    },
    all: async () => this.#all('SELECT tenant, memory_ref, doc FROM consolidation_passes ORDER BY memory_ref').map((r) => ({ tenant: String(r.tenant), memoryRef: String(r.memory_ref), pass: parse<JsonDoc>(r.doc) })),
  };

  readonly replay: ReplayStore = {
    appendJournal: async ({ jseq, memoryRef, record }) => {
      this.#tx(() => this.#run('INSERT INTO replay_journal (jseq, memory_ref, doc) VALUES (?, ?, ?)', jseq, memoryRef, text(record)));
    },
    pruneJournal: async (throughJseq) => this.#tx(() => this.#run('DELETE FROM replay_journal WHERE jseq <= ?', throughJseq)),
    journal: async () => this.#all('SELECT jseq, memory_ref, doc FROM replay_journal ORDER BY jseq').map((r) => ({ jseq: Number(r.jseq), memoryRef: String(r.memory_ref), record: parse<JsonDoc>(r.doc) })),
    putWatermark: async ({ runId, seq, jseq, at }) => {
      this.#tx(() => this.#run('INSERT INTO replay_watermarks (run_id, seq, jseq, at) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, seq) DO UPDATE SET jseq = excluded.jseq, at = excluded.at', runId, seq, jseq, at));
    },
    watermarks: async () => this.#all('SELECT run_id, seq, jseq, at FROM replay_watermarks ORDER BY run_id, seq').map((r) => ({ runId: String(r.run_id), seq: Number(r.seq), jseq: Number(r.jseq), at: Number(r.at) })),
    dropWatermarks: async (runId) => this.#tx(() => this.#run('DELETE FROM replay_watermarks WHERE run_id = ?', runId)),
  };

  readonly questions: QuestionStore = {
    transition: async (tenant, ref, record, stateDto) => {
      this.#tx(() => {
        this.#run('INSERT INTO questions (tenant, ref, doc) VALUES (?, ?, ?) ON CONFLICT (tenant, ref) DO UPDATE SET doc = excluded.doc', tenant, ref, text(record));
        this.#run('INSERT INTO question_history (tenant, ref, n, doc) VALUES (?, ?, (SELECT COALESCE(MAX(n), -1) + 1 FROM question_history WHERE tenant = ? AND ref = ?), ?)', tenant, ref, tenant, ref, text(stateDto));
      });
    },
    remove: async (tenant, ref) => this.#tx(() => {
      this.#run('DELETE FROM question_history WHERE tenant = ? AND ref = ?', tenant, ref);
      return this.#run('DELETE FROM questions WHERE tenant = ? AND ref = ?', tenant, ref) > 0;
    }),
    get: async (tenant, ref) => {
      const r = this.#get('SELECT doc FROM questions WHERE tenant = ? AND ref = ?', tenant, ref);
      return r === undefined ? undefined : { tenant, ref, record: parse<JsonDoc>(r.doc), history: this.#history(tenant, ref) };
    },
    all: async () => {
      const questions = this.#all('SELECT tenant, ref, doc FROM questions ORDER BY ord');
      // Every history in one query (in primary-key order), grouped here, instead of one query per question.
      const histories = groupHistories(this.#all('SELECT tenant, ref, doc FROM question_history ORDER BY tenant, ref, n'));
      return questions.map((r) => {
        const tenant = String(r.tenant);
        const ref = String(r.ref);
        return { tenant, ref, record: parse<JsonDoc>(r.doc), history: histories.get(tenant)?.get(ref) ?? [] };
      });
    },
  };
  #history(tenant: string, ref: string): JsonDoc[] {
    return this.#all('SELECT doc FROM question_history WHERE tenant = ? AND ref = ? ORDER BY n', tenant, ref).map((h) => parse<JsonDoc>(h.doc));
  }

  #documentLog(log: string): DocumentLog {
    return {
      append: async (doc) => this.#tx(() => {
        const pos = Number(this.#get('SELECT COALESCE(MAX(pos), -1) + 1 AS pos FROM document_logs WHERE log = ?', log)!.pos);
        this.#run('INSERT INTO document_logs (log, pos, doc) VALUES (?, ?, ?)', log, pos, text(doc));
        return pos;
      }),
      all: async () => this.#all('SELECT doc FROM document_logs WHERE log = ? ORDER BY pos', log).map((r) => parse<JsonDoc>(r.doc)),
    };
  }
  readonly transcripts: DocumentLog = this.#documentLog('transcripts');
  readonly traces: DocumentLog = this.#documentLog('traces');

  readonly proposals: ProposalRecordStore = {
    put: async ({ proposalId, tenant, proposal }) => {
      this.#tx(() => this.#run('INSERT INTO proposals (proposal_id, tenant, doc) VALUES (?, ?, ?) ON CONFLICT (proposal_id) DO UPDATE SET tenant = excluded.tenant, doc = excluded.doc', proposalId, tenant, text(proposal)));
    },
    all: async () => this.#all('SELECT proposal_id, tenant, doc FROM proposals ORDER BY ord').map((r) => ({ proposalId: String(r.proposal_id), tenant: String(r.tenant), proposal: parse<JsonDoc>(r.doc) })),
    putGate: async ({ approvalId, proposalId, gate }) => {
      this.#tx(() => this.#run('INSERT INTO approval_gates (approval_id, proposal_id, doc) VALUES (?, ?, ?) ON CONFLICT (approval_id) DO UPDATE SET proposal_id = excluded.proposal_id, doc = excluded.doc', approvalId, proposalId, text(gate)));
    },
    gates: async () => this.#all('SELECT approval_id, proposal_id, doc FROM approval_gates ORDER BY ord').map((r) => ({ approvalId: String(r.approval_id), proposalId: String(r.proposal_id), gate: parse<JsonDoc>(r.doc) })),
    install: async ({ tenant, proposalId, artifact }) => {
      this.#tx(() => this.#run('INSERT INTO installed_artifacts (tenant, proposal_id, doc) VALUES (?, ?, ?)', tenant, proposalId, text(artifact)));
    },
    installed: async () => this.#all('SELECT tenant, proposal_id, doc FROM installed_artifacts ORDER BY ord').map((r) => ({ tenant: String(r.tenant), proposalId: String(r.proposal_id), artifact: parse<JsonDoc>(r.doc) })),
  };

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#statements.clear();
    try {
      this.#db.close();
    } finally {
      this.#lock?.release();
    }
  }
}

/** History rows (in order within each question) grouped by tenant, then ref. */
function groupHistories(rows: readonly Row[]): Map<string, Map<string, JsonDoc[]>> {
  const byTenant = new Map<string, Map<string, JsonDoc[]>>();
  for (const h of rows) {
    const tenant = String(h.tenant);
    const ref = String(h.ref);
    let refs = byTenant.get(tenant);
    if (refs === undefined) byTenant.set(tenant, (refs = new Map()));
    let docs = refs.get(ref);
    if (docs === undefined) refs.set(ref, (docs = []));
    docs.push(parse<JsonDoc>(h.doc));
  }
  return byTenant;
}

/** Take the exclusive lock of the store file at `path`, or throw StoreLockedError naming the holder. */
function lockStore(path: string): WriterLock {
  const file = resolve(path);
  try {
    return acquireWriterLock(file);
  } catch (err) {
    if (err instanceof LogLockedError) throw new StoreLockedError(file, err.lockPath, err.holder);
    throw err;
  }
}
