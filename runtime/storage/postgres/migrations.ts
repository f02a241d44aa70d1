/**
 * The PostgreSQL schema, as data: an ordered list of steps, each applied once (see `migrate` in connection.ts) and
 * recorded in `schema_version`. Never edit a step that has shipped; add the next version instead.
 *
 * Conventions of the tables:
 * - Documents are stored as `text`, exactly as the runtime serialised them, so a read returns the same bytes
 *   (`jsonb` would normalise key order and whitespace).
 * - Keys compared or ordered on use `COLLATE "C"` (byte order, as in JavaScript and SQLite), so `list` orders the
 *   same on every back-end.
 * - `ord` identity columns record insertion order where the port promises it (a rolled-back insert leaves a gap in
 *   `ord`, never a reordering). Sequence numbers that must be gap-free are not identities: they come from a counter
 *   row updated in the same transaction (`event_logs.next_seq`, `doc_log_heads.next_pos`).
 */
import { columnsOf } from '../sql/columns.ts';
import type { Migration } from '../port.ts';
import { StoreUpgradeBlockedError } from '../port.ts';
import { upgradeLegacy } from '../sql/legacy.ts';

const C = 'COLLATE "C"';

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema: memory entries, runs and event logs, commitments, schedules, consolidation, replay, questions, document logs',
    sql: `
      CREATE TABLE memory_entries (
        memory_ref text ${C} NOT NULL,
        id text ${C} NOT NULL,
        tenant text ${C} NOT NULL,
        doc text NOT NULL,
        PRIMARY KEY (memory_ref, id)
      );
      CREATE INDEX memory_entries_tenant ON memory_entries (tenant, memory_ref, id);

      CREATE TABLE runs (
        run_id text ${C} PRIMARY KEY,
        tenant text ${C} NOT NULL,
        doc text NOT NULL,
        ord bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE TABLE event_logs (
        run_id text ${C} PRIMARY KEY,
        next_seq bigint NOT NULL,
        ord bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE TABLE run_events (
        run_id text ${C} NOT NULL,
        seq bigint NOT NULL,
        doc text NOT NULL,
        PRIMARY KEY (run_id, seq)
      );

      CREATE TABLE commitments_armed (
        tenant text ${C} NOT NULL,
        commitment_id text ${C} NOT NULL,
        doc text NOT NULL,
        arm_seq bigint GENERATED ALWAYS AS IDENTITY,
        predicate_last boolean,
        predicate_transitions integer,
        PRIMARY KEY (tenant, commitment_id)
      );
      CREATE TABLE commitments_fired (
        tenant text ${C} NOT NULL,
        commitment_id text ${C} NOT NULL,
        instance text ${C} NOT NULL,
        fired_at bigint NOT NULL,
        ord bigint GENERATED ALWAYS AS IDENTITY,
        PRIMARY KEY (tenant, commitment_id, instance)
      );

      CREATE TABLE schedules (
        schedule_id text ${C} PRIMARY KEY,
        tenant text ${C} NOT NULL,
        doc text NOT NULL,
        ord bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE TABLE schedule_runs (
        schedule_id text ${C} NOT NULL,
        slot bigint NOT NULL,
        outcome text,
        PRIMARY KEY (schedule_id, slot)
      );

      CREATE TABLE consolidation_passes (
        memory_ref text ${C} PRIMARY KEY,
        tenant text ${C} NOT NULL,
        doc text NOT NULL
      );

      CREATE TABLE replay_journal (
        jseq bigint PRIMARY KEY,
        memory_ref text ${C} NOT NULL,
        doc text NOT NULL
      );
      CREATE TABLE replay_watermarks (
        run_id text ${C} NOT NULL,
        seq bigint NOT NULL,
        jseq bigint NOT NULL,
        at bigint NOT NULL,
        PRIMARY KEY (run_id, seq)
      );

      CREATE TABLE questions (
        tenant text ${C} NOT NULL,
        ref text ${C} NOT NULL,
        doc text NOT NULL,
        ord bigint GENERATED ALWAYS AS IDENTITY,
        PRIMARY KEY (tenant, ref)
      );
      CREATE TABLE question_history (
        tenant text ${C} NOT NULL,
        ref text ${C} NOT NULL,
        pos bigint GENERATED ALWAYS AS IDENTITY,
        doc text NOT NULL,
        PRIMARY KEY (tenant, ref, pos)
      );

      CREATE TABLE doc_log_heads (
        log text ${C} PRIMARY KEY,
        next_pos bigint NOT NULL
      );
      CREATE TABLE doc_logs (
        log text ${C} NOT NULL,
        pos bigint NOT NULL,
        doc text NOT NULL,
        PRIMARY KEY (log, pos)
      );
    `,
  },
  {
    version: 2,
    name: 'the fired ledger keeps the claimed commitment, so a claim whose announcement a crash lost can be announced at start',
    sql: 'ALTER TABLE commitments_fired ADD COLUMN doc text;',
  },
  {
    version: 3,
    name: 'RFC 0096 proposals, approval gates and the installed-artefact registry',
    sql: `
      CREATE TABLE proposals (
        proposal_id text ${C} PRIMARY KEY,
        tenant text ${C} NOT NULL,
        doc text NOT NULL,
        ord bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE TABLE approval_gates (
        approval_id text ${C} PRIMARY KEY,
        proposal_id text ${C} NOT NULL,
        doc text NOT NULL,
        ord bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE TABLE installed_artifacts (
        ord bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant text ${C} NOT NULL,
        proposal_id text ${C} NOT NULL,
        doc text NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'cluster lease: which host process is active, its fencing epoch and where it answers',
    sql: `
      CREATE TABLE cluster_lease (
        id smallint PRIMARY KEY CHECK (id = 1),
        epoch bigint NOT NULL,
        url text,
        pid integer NOT NULL,
        since timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 5,
    name: 'the store is the source of truth: no active host or lease, indexed reads, a journal position per event, counted bounds, sealed secret registries (every 0.2 record moved across)',
    run: async (s, exec) => {
      // A 0.2 host still serving holds the active-host lease: it reads the old tables, so they must not move under it.
      const holder = await s.get("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid::bigint = (hashtext('wopkit.active-host')::bigint & 4294967295) AND objsubid = 1 LIMIT 1");
      if (holder !== undefined) throw new StoreUpgradeBlockedError(columnsOf('pg_locks').int(holder, 'pid'));
      await upgradeLegacy(s, exec);
    },
  },
];

