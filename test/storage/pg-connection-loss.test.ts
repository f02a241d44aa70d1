/**
 * A PostgreSQL connection lost under a request ends that request alone (issue 32, "a host that outlives its
 * database's faults"), in process, against the local server: a busy statement's session terminated (57P01), a session
 * ended for idling in its transaction past the timeout (25P03), and a COMMIT whose answer never arrived — settled by
 * what the server says became of the transaction (commit-outcome.ts): committed, its answer lost (the request
 * succeeds), ended with the session (503, nothing stored), still running (the store ends it, then 503, nothing
 * stored). An unhandled `'error'` event of the client would fail this file (Vitest reports it); each store has a pool
 * of one connection, so a broken client handed back to the pool would fail the next commit.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError, type StoragePort } from '../../runtime/storage/port.ts';
import { openPostgresStore, type PostgresStoreOptions } from '../../runtime/storage/postgres/index.ts';
import { OUTCOME_UNKNOWN, readCommitOutcome, txIdentity } from '../../runtime/storage/postgres/commit-outcome.ts';
import { freshDatabase, type TestDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';
import { tcpProxy, type TcpProxy } from './faults/tcp-proxy.ts';

const pgToolchain = toolchain('postgres');
const pgIt = it.skipIf(pgToolchain.skip);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A `meta` row whose write sleeps `seconds` in its statement (`fleet.busy`) or in COMMIT (`fleet.slowcommit`, a deferred trigger). */
const setMeta = (key: 'fleet.busy' | 'fleet.slowcommit' | 'fleet.plain', seconds = 0) => [{ op: 'meta.set' as const, args: { key, value: String(seconds) } }];

describe('PostgreSQL: a connection lost under a request', () => {
  let db: TestDatabase;
  let admin: pg.Client;
  const opened: { store: StoragePort; proxy?: TcpProxy }[] = [];

  beforeAll(async () => {
    if (pgToolchain.skip) return;
    db = await freshDatabase('pg_conn_loss');
    const s = await openPostgresStore(db.url, { listen: false });
    await s.close();
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query(`
      CREATE FUNCTION slow_meta() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(NEW.value::float8); RETURN NULL; END $$;
      CREATE TRIGGER busy AFTER INSERT OR UPDATE ON meta FOR EACH ROW WHEN (NEW.key = 'fleet.busy') EXECUTE FUNCTION slow_meta();
      CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT OR UPDATE ON meta DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.key = 'fleet.slowcommit') EXECUTE FUNCTION slow_meta();`);
  });
  afterAll(async () => {
    for (const o of opened) {
      await o.store.close().catch(() => undefined);
      await o.proxy?.close();
    }
    await admin?.end();
    await db?.drop();
  });

  /** A store of one connection, reaching the server through a proxy the test can cut. */
  async function store(options: PostgresStoreOptions = {}): Promise<{ store: StoragePort; proxy: TcpProxy }> {
    const proxy = await tcpProxy(db.url);
    const o = { store: await openPostgresStore(proxy.url, { poolSize: 1, listen: false, ...options }), proxy };
    opened.push(o);
    return o;
  }

  /** The server process running `query` (a prefix) on this database, once it runs. */
  async function backendRunning(query: string): Promise<number> {
    for (let i = 0; i < 200; i++) {
      const row = (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND query LIKE $2 AND pid <> pg_backend_pid()", [db.name, `${query}%`])).rows[0];
      if (row !== undefined) return row.pid;
      await sleep(25);
    }
    throw new Error(`no session ran ${query}`);
  }

  const metaValue = async (key: string): Promise<string | undefined> => (await admin.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key])).rows[0]?.value;
  const refused = (p: Promise<unknown>): Promise<unknown> => p.then(() => 'committed', (err: unknown) => err);

  pgIt('a busy statement whose session is terminated (57P01): that request 503, the next one served on a fresh connection', async () => {
    const { store: s } = await store();
    const pending = refused(s.commit(setMeta('fleet.busy', 5)));
    const pid = await backendRunning('INSERT INTO meta');
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    const err = await pending;
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as StoreUnavailableError).reason).toContain('57P01');
    expect(await metaValue('fleet.busy')).toBeUndefined();
    // One connection in the pool: had the broken client gone back, these would fail "not queryable".
    for (let i = 0; i < 3; i++) await s.commit(setMeta('fleet.plain', i));
    expect(await metaValue('fleet.plain')).toBe('2');
    expect(s.health().writable).toBe(true);
  });

  pgIt('a client paused inside its transaction past idle_in_transaction_session_timeout (25P03): that request 503, the next one served', async () => {
    const { store: s, proxy } = await store({ idleInTransactionTimeoutMs: 300 });
    await s.commit(setMeta('fleet.plain', 1));
    // The statement after BEGIN reaches the server a second late: the session idles in its transaction meanwhile.
    proxy.hold((chunk) => chunk.includes('INSERT INTO meta'), 1_000);
    const err = await refused(s.commit(setMeta('fleet.plain', 2)));
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as StoreUnavailableError).reason).toMatch(/25P03|idle-in-transaction|terminat/i);
    proxy.hold(() => false, 0);
    expect(await metaValue('fleet.plain')).toBe('1');
    await s.commit(setMeta('fleet.plain', 3));
    expect(await metaValue('fleet.plain')).toBe('3');
  });

  pgIt('COMMIT done, its answer lost with the connection: the request succeeds (no 503 for a stored write)', async () => {
    const { store: s, proxy } = await store();
    // The server's "COMMIT" completion never reaches the store; the connection closes instead.
    proxy.loseReply((chunk) => chunk.includes('COMMIT\0'));
    expect(await refused(s.commit(setMeta('fleet.plain', 41)))).toBe('committed');
    expect(await metaValue('fleet.plain')).toBe('41');
    await s.commit(setMeta('fleet.plain', 42));
    expect(await metaValue('fleet.plain')).toBe('42');
  });

  pgIt('COMMIT sent, the session terminated before it committed: 503, nothing stored', async () => {
    const { store: s } = await store();
    await admin.query("DELETE FROM meta WHERE key = 'fleet.slowcommit'");
    const pending = refused(s.commit(setMeta('fleet.slowcommit', 5)));
    const pid = await backendRunning('COMMIT');
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    const err = await pending;
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as StoreUnavailableError).reason).not.toBe(OUTCOME_UNKNOWN);
    expect(await metaValue('fleet.slowcommit')).toBeUndefined();
  });

  pgIt('COMMIT sent, the connection lost, the server still committing: the store ends that session and answers 503, nothing stored', async () => {
    const { store: s, proxy } = await store();
    await admin.query("DELETE FROM meta WHERE key = 'fleet.slowcommit'");
    const pending = refused(s.commit(setMeta('fleet.slowcommit', 8)));
    const pid = await backendRunning('COMMIT');
    proxy.cut();
    const err = await pending;
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(await metaValue('fleet.slowcommit')).toBeUndefined();
    // The old session was ended by the store, long before its 8 s were up.
    expect((await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount).toBe(0);
  });

  pgIt('the LISTEN connection terminated: reopened by itself, and notices reach the store again', async () => {
    const s = await openPostgresStore(db.url);
    opened.push({ store: s });
    let heard = 0;
    const off = s.onWake(() => void heard++);
    try {
      const listening = async (not?: number): Promise<number> => {
        for (let i = 0; i < 400; i++) {
          const row = (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%' AND ($2::int IS NULL OR pid <> $2)", [db.name, not ?? null])).rows[0];
          if (row !== undefined) return row.pid;
          await sleep(25);
        }
        throw new Error('no LISTEN connection');
      };
      const hears = async (): Promise<void> => {
        const before = heard;
        for (let i = 0; i < 400 && heard === before; i++) {
          await admin.query('NOTIFY wopkit_work');
          await sleep(25);
        }
        expect(heard, 'a notice reached the store').toBeGreaterThan(before);
      };
      const first = await listening();
      await hears();
      await admin.query('SELECT pg_terminate_backend($1)', [first]);
      await listening(first);
      await hears();
    } finally {
      off();
    }
  });

  pgIt('the outcome of a transaction, read on another connection: committed, aborted, or unknown when the server cannot be reached', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    try {
      const c = await pool.connect();
      const done = txIdentity(await c.query('BEGIN; SELECT pg_current_xact_id()::text AS xid, pg_backend_pid() AS pid'));
      await c.query('COMMIT');
      const undone = txIdentity(await c.query('BEGIN; SELECT pg_current_xact_id()::text AS xid, pg_backend_pid() AS pid'));
      await c.query('ROLLBACK');
      c.release();
      expect(await readCommitOutcome(pool, done)).toBe('committed');
      expect(await readCommitOutcome(pool, undone)).toBe('aborted');
    } finally {
      await pool.end();
    }
    const nowhere = new pg.Pool({ connectionString: 'postgres://u:p@127.0.0.1:1/none', max: 1, connectionTimeoutMillis: 200 });
    nowhere.on('error', () => undefined);
    try {
      expect(await readCommitOutcome(nowhere, { xid: '1000', pid: 1 }, { attempts: 2, pauseMs: 10 })).toBe('unknown');
    } finally {
      await nowhere.end();
    }
  });
});
