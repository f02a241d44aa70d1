/**
 * The SQLite schema's history, as data: an ordered list of migrations, each applied once in its own transaction and
 * recorded in `schema_version`. Append a new step to change the schema; never edit a step that has shipped. A new
 * store gets the current schema at once (sql/schema.ts); these steps bring an older store up to it — version 4
 * moves every record of a 0.2 store (versions 1–3) into the current tables (sql/legacy.ts).
 */
import type { Migration } from '../port.ts';
import { upgradeLegacy } from '../sql/legacy.ts';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema: memory entries, runs, event logs, commitments, schedules, consolidation, replay journal, questions, document logs',
    sql: `
      CREATE TABLE memory_entries (
        tenant TEXT NOT NULL, memory_ref TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (memory_ref, id)
      ) WITHOUT ROWID;
      CREATE INDEX memory_entries_tenant ON memory_entries (tenant, memory_ref);

      CREATE TABLE runs (ord INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL, doc TEXT NOT NULL);
      CREATE TABLE event_logs (ord INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL UNIQUE, next_seq INTEGER NOT NULL);
      CREATE TABLE events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (run_id, seq)) WITHOUT ROWID;

      CREATE TABLE commitments_armed (
        arm_seq INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, commitment_id TEXT NOT NULL, doc TEXT NOT NULL,
        pred_last INTEGER, pred_transitions INTEGER,
        UNIQUE (tenant, commitment_id)
      );
      CREATE TABLE commitments_fired (
        ord INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, commitment_id TEXT NOT NULL, instance TEXT NOT NULL,
        fired_at INTEGER NOT NULL,
        UNIQUE (tenant, commitment_id, instance)
      );

      CREATE TABLE schedules (ord INTEGER PRIMARY KEY AUTOINCREMENT, schedule_id TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL, doc TEXT NOT NULL);
      CREATE TABLE schedule_runs (schedule_id TEXT NOT NULL, slot INTEGER NOT NULL, outcome TEXT, PRIMARY KEY (schedule_id, slot)) WITHOUT ROWID;

      CREATE TABLE consolidation_passes (memory_ref TEXT NOT NULL PRIMARY KEY, tenant TEXT NOT NULL, doc TEXT NOT NULL) WITHOUT ROWID;

      CREATE TABLE replay_journal (jseq INTEGER PRIMARY KEY, memory_ref TEXT NOT NULL, doc TEXT NOT NULL);
      CREATE TABLE replay_watermarks (run_id TEXT NOT NULL, seq INTEGER NOT NULL, jseq INTEGER NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (run_id, seq)) WITHOUT ROWID;

      CREATE TABLE questions (ord INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, ref TEXT NOT NULL, doc TEXT NOT NULL, UNIQUE (tenant, ref));
      CREATE TABLE question_history (tenant TEXT NOT NULL, ref TEXT NOT NULL, n INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (tenant, ref, n)) WITHOUT ROWID;

      CREATE TABLE document_logs (log TEXT NOT NULL, pos INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (log, pos)) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'the fired ledger keeps the claimed commitment, so a claim whose announcement a crash lost can be announced at start',
    sql: 'ALTER TABLE commitments_fired ADD COLUMN doc TEXT;',
  },
  {
    version: 3,
    name: 'RFC 0096 proposals, approval gates and the installed-artefact registry',
    sql: `
      CREATE TABLE proposals (ord INTEGER PRIMARY KEY AUTOINCREMENT, proposal_id TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL, doc TEXT NOT NULL);
      CREATE TABLE approval_gates (ord INTEGER PRIMARY KEY AUTOINCREMENT, approval_id TEXT NOT NULL UNIQUE, proposal_id TEXT NOT NULL, doc TEXT NOT NULL);
      CREATE TABLE installed_artifacts (ord INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, proposal_id TEXT NOT NULL, doc TEXT NOT NULL);
    `,
  },
  {
    version: 4,
    name: 'the store is the source of truth: indexed reads, a journal position per event, counted bounds, sealed secret registries (every 0.2 record moved across)',
    run: upgradeLegacy,
  },
];

/** The newest schema version this code knows. */
export const SQLITE_SCHEMA_VERSION = SQLITE_MIGRATIONS.at(-1)!.version;
