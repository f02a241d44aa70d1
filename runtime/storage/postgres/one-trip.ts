/**
 * Write plans in one round trip to PostgreSQL. The write path's usual plan — a memory write with its event (a
 * secret-registry version check, new entries, the tenant's background run kept, events appended) — would otherwise
 * cost a round trip per statement plus BEGIN and COMMIT (ten for a one-entry seed). Here the operations are lowered to
 * plain values in TypeScript (the entry's document and counts, the event's text around its sequence) and handed to a
 * PL/pgSQL function that runs their statements on the server as one statement — one transaction, committed under the
 * connection's `synchronous_commit`. Plans that wait together go in one call (one-trip-queue.ts), each inside a
 * subtransaction of its own: one commit, and one sync to disk, for all of them.
 *
 * The function does only the plain case of each operation. Anything else — an entry id that exists already, a count
 * past its bound, a stale registry version, a run of another tenant or unknown, an event past a run's bound, and any
 * error at all — makes it hand that plan back (its subtransaction rolls back, so nothing of it stays; the other plans
 * of the call go on), and the plan then runs operation by operation through the ordinary path (ops/), which decides
 * the outcome. So every refusal and every unusual case has one implementation, and this module can only make a plan
 * faster, never different (test/storage/postgres-one-trip.test.ts compares the rows both paths leave).
 *
 * The function is created in each connection's temporary schema the first time the connection commits a plan, so it
 * always matches the code of the host using it: nothing is added to the database's schema.
 */
import { createHash } from 'node:crypto';
import { entryColumns, entryMoves, type PutEntryArgs } from '../ops/memory.ts';
import { journalHeadSql, storedEvent, type AppendEventArgs, type CreateRunArgs } from '../ops/runs.ts';
import type { WriteOp } from '../ops/index.ts';

/** What the function answers for a plan it handed back. */
export const HANDED_BACK_MARK = 'back';

/** The SQLSTATE of a plan handed back. */
export const HANDED_BACK_STATE = 'WKFB0';

const fallback = `RAISE EXCEPTION 'plan handed back' USING ERRCODE = '${HANDED_BACK_STATE}'`;

/**
 * The longest a plan of a call waits for a row lock before it is handed back (the ordinary path then waits its full
 * lock_timeout): a row another transaction holds delays that plan, not the call and every plan behind it.
 */
export const ONE_TRIP_LOCK_WAIT = '50ms';

const DEFINITION = `
CREATE OR REPLACE FUNCTION pg_temp.wopkit_one_trip_{V}(plans jsonb) RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  plan jsonb;
  answers jsonb := '[]'::jsonb;
BEGIN
  PERFORM set_config('lock_timeout', '${ONE_TRIP_LOCK_WAIT}', true);
  FOR plan IN SELECT value FROM jsonb_array_elements(plans) LOOP
    BEGIN
      answers := answers || jsonb_build_array(pg_temp.wopkit_one_plan_{V}(plan));
    EXCEPTION WHEN OTHERS THEN
      answers := answers || to_jsonb('${HANDED_BACK_MARK}'::text);
    END;
  END LOOP;
  RETURN answers;
END
$fn$;
CREATE OR REPLACE FUNCTION pg_temp.wopkit_one_plan_{V}(plan jsonb) RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  st jsonb;
  m jsonb;
  out jsonb := '[]'::jsonb;
  v_n bigint;
  v_owner text;
BEGIN
  PERFORM set_config('lock_timeout', '${ONE_TRIP_LOCK_WAIT}', true);
  FOR st IN SELECT value FROM jsonb_array_elements(plan) LOOP
    CASE st->>'op'
    WHEN 'expect' THEN
      SELECT version INTO v_n FROM secret_versions WHERE tenant = st->>'tenant';
      IF coalesce(v_n, 0) <> (st->>'version')::bigint THEN ${fallback}; END IF;
      out := out || 'null'::jsonb;
    WHEN 'put' THEN
      INSERT INTO entries (tenant, memory_ref, id, neg_created, expires_ms, bytes, doc)
        VALUES (st->>'tenant', st->>'memoryRef', st->>'id', (st->>'negCreated')::bigint, (st->>'expiresMs')::bigint, (st->>'bytes')::bigint, st->>'doc')
        ON CONFLICT DO NOTHING;
      IF NOT FOUND THEN ${fallback}; END IF;
      INSERT INTO entry_tags (tenant, memory_ref, tag, neg_created, id, expires_ms)
        SELECT st->>'tenant', st->>'memoryRef', t, (st->>'negCreated')::bigint, st->>'id', (st->>'expiresMs')::bigint FROM jsonb_array_elements_text(st->'tags') AS t;
      INSERT INTO journal (tenant, memory_ref, memory_id, at_ms, run_id, after_doc)
        VALUES (st->>'tenant', st->>'memoryRef', st->>'id', (st->>'atMs')::bigint, st->>'runId', st->>'doc');
      FOR m IN SELECT value FROM jsonb_array_elements(st->'moves') LOOP
        INSERT INTO quotas AS q (tenant, resource, scope, n) VALUES (st->>'tenant', m->>'resource', m->>'scope', (m->>'delta')::bigint)
          ON CONFLICT (tenant, resource, scope) DO UPDATE SET n = q.n + excluded.n RETURNING q.n INTO v_n;
        -- A count past its bound, or at zero or below (the ordinary path then removes its row): handed back.
        IF v_n > (m->>'limit')::bigint OR v_n <= 0 THEN ${fallback}; END IF;
      END LOOP;
      out := out || 'null'::jsonb;
    WHEN 'keepRun' THEN
      SELECT tenant INTO v_owner FROM runs WHERE run_id = st->>'runId';
      IF NOT FOUND THEN
        INSERT INTO runs (run_id, tenant, kind, status, created_ms, ended_ms, next_seq, parent_run_id, anchor_jseq, anchor_at_ms, fixture_ref, doc)
          VALUES (st->>'runId', st->>'tenant', st->>'kind', st->>'status', (st->>'createdMs')::bigint, NULL, 0, NULL, NULL, NULL, NULL, st->>'doc');
        out := out || 'true'::jsonb;
      ELSIF v_owner <> st->>'tenant' THEN ${fallback};
      ELSE out := out || 'false'::jsonb;
      END IF;
    WHEN 'event' THEN
      UPDATE runs SET next_seq = next_seq + 1 WHERE run_id = st->>'runId' RETURNING next_seq - 1 INTO v_n;
      IF NOT FOUND THEN ${fallback}; END IF;
      IF st ? 'maxEvents' AND v_n >= (st->>'maxEvents')::bigint THEN ${fallback}; END IF;
      INSERT INTO events (run_id, seq, jseq, at_ms, type, doc)
        VALUES (st->>'runId', v_n, ${journalHeadSql({ dialect: 'postgres' })}, (st->>'atMs')::bigint, st->>'type', (st->>'head') || v_n || (st->>'tail'));
      IF st ? 'keepLast' AND v_n >= (st->>'keepLast')::bigint THEN
        DELETE FROM events WHERE run_id = st->>'runId' AND seq <= v_n - (st->>'keepLast')::bigint;
      END IF;
      out := out || to_jsonb(v_n);
    ELSE ${fallback};
    END CASE;
  END LOOP;
  RETURN out;
END
$fn$`;

/**
 * The functions' names carry a hash of their text, so a session that kept another version's definition (behind a
 * pooler) is never called by this code: its call finds no such function (42883), and the connection gets this one.
 */
const VERSION = createHash('sha256').update(DEFINITION).digest('hex').slice(0, 12);
const versioned = (sql: string): string => sql.replaceAll('{V}', VERSION);

/** The functions' definitions (run once per connection). */
export const ONE_TRIP_FUNCTION = versioned(DEFINITION);

/**
 * Calls the function with several plans' lowered steps (`$1`, a JSON array of step arrays), each plan in a
 * subtransaction of its own. The answer is a JSON array, one value per plan: the array of its steps' values, or
 * `HANDED_BACK_MARK`.
 */
export const ONE_TRIP_CALL = versioned('SELECT pg_temp.wopkit_one_trip_{V}($1::jsonb) AS out');

/**
 * Calls the function's core with one plan's steps (`$1`), without a subtransaction: the answer is the array of its
 * steps' values, and a plan handed back is an error with SQLSTATE `HANDED_BACK_STATE` (the statement rolls back).
 */
export const ONE_PLAN_CALL = versioned('SELECT pg_temp.wopkit_one_plan_{V}($1::jsonb) AS out');

/** One operation lowered for the function, and how its result becomes the operation's result. */
interface Lowered {
  readonly step: Readonly<Record<string, unknown>>;
  readonly result: (value: unknown) => unknown;
}

/** A sequence number no event's own text contains, put where the sequence goes and cut out again. */
const SEQ_MARK = 9_007_199_254_740_000;

function lowerEvent(a: AppendEventArgs): Lowered | undefined {
  const text = JSON.stringify(storedEvent(a, SEQ_MARK));
  const [head, tail, ...more] = text.split(String(SEQ_MARK));
  if (tail === undefined || more.length > 0) return undefined;
  // The ordinary path never refuses a log that keeps only its newest events; only an unbounded count is checked.
  const bound = a.maxEvents !== undefined && a.keepLast === undefined ? { maxEvents: a.maxEvents } : {};
  return {
    step: { op: 'event', runId: a.runId, atMs: a.atMs, type: a.event.type, head, tail, ...bound, ...(a.keepLast !== undefined ? { keepLast: a.keepLast } : {}) },
    result: (seq) => storedEvent(a, Number(seq)),
  };
}

function lowerPut(a: PutEntryArgs): Lowered {
  const c = entryColumns(a.entry);
  const moves = entryMoves(a.memoryRef, c.bytes, undefined, a.bounds).map((m) => ({ resource: m.resource, scope: m.scope, delta: m.delta, limit: m.limit }));
  return {
    step: { op: 'put', tenant: a.tenant, memoryRef: a.memoryRef, id: c.stored.id, negCreated: c.negCreated, expiresMs: c.expiresMs, bytes: c.bytes, doc: c.doc, tags: [...new Set(c.stored.tags)], atMs: a.atMs, runId: a.runId ?? null, moves },
    result: () => c.stored,
  };
}

function lowerRun(a: CreateRunArgs): Lowered | undefined {
  const plain = a.ifExists === 'keep' && a.bound === undefined && a.parentRunId === undefined && a.anchor === undefined && a.fixtureRef === undefined;
  if (!plain) return undefined;
  return { step: { op: 'keepRun', runId: a.runId, tenant: a.tenant, kind: a.kind, status: a.status, createdMs: a.createdMs, doc: JSON.stringify(a.doc) }, result: (created) => created === true };
}

/** How each operation the function knows is lowered; an operation missing here sends its plan the ordinary way. */
const LOWER: { readonly [N in WriteOp['op']]?: (args: Extract<WriteOp, { op: N }>['args']) => Lowered | undefined } = {
  'secrets.expect': (a) => ({ step: { op: 'expect', tenant: a.tenant, version: a.version }, result: () => undefined }),
  'memory.put': lowerPut,
  'run.create': lowerRun,
  'event.append': lowerEvent,
};

/** A plan the function can commit: its steps (as JSON text) and how to read the function's answer for it. */
export interface OneTripPlan {
  readonly steps: string;
  /** Orders the plans of one call (by tenant), so two calls take their row locks in the same order. */
  readonly order: string;
  results(out: readonly unknown[]): unknown[];
}

/**
 * What JSON.stringify writes for a character PostgreSQL's JSON cannot carry into text: U+0000, and a lone surrogate
 * (the ordinary path refuses either in a column of its own, 400, and keeps it inside a document). Text that merely
 * spells such an escape (a document holding `\\u0000`) matches too and goes the ordinary way: harmless.
 */
const UNCARRIED = /\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/**
 * The plan lowered for the function, or undefined when any of its operations is one the function does not know (or
 * carries a value PostgreSQL's JSON cannot: UNCARRIED).
 */
export function lowerPlan(plan: readonly WriteOp[]): OneTripPlan | undefined {
  const lowered: Lowered[] = [];
  for (const op of plan) {
    const lower = LOWER[op.op] as ((args: unknown) => Lowered | undefined) | undefined;
    const l = lower?.(op.args);
    if (l === undefined) return undefined;
    lowered.push(l);
  }
  const steps = JSON.stringify(lowered.map((l) => l.step));
  if (UNCARRIED.test(steps)) return undefined;
  const order = String(lowered.find((l) => typeof l.step.tenant === 'string')?.step.tenant ?? '');
  return { steps, order, results: (out) => lowered.map((l, i) => l.result(out[i])) };
}
