/**
 * The PostgreSQL fault campaigns of issue 32 against a real host process (test/storage/crash/host-process.ts), shared
 * by the fast test in `npm test` and the soak test: 8 concurrent writers seed entries while the test
 * - terminates (`pg_terminate_backend`) every busy connection of the host, round after round, or
 * - freezes the host (SIGSTOP) while it holds a write transaction open — checked on the server: a session of its
 *   database idle in a transaction — for longer than the server's idle-in-transaction timeout, then thaws it (SIGCONT).
 * What must hold: the host never exits; every request is answered 200, or 503 with Retry-After; every write it
 * acknowledged is in the database afterwards; and it serves again after each fault.
 */
import { request } from 'node:http';
import pg from 'pg';
import { expect } from 'vitest';
import { ROUTES } from '../../../runtime/host/seam-catalogue.ts';
import { CRASH_TOKEN, type RunningHost } from '../crash/host-process.ts';

const H = { authorization: `Bearer ${CRASH_TOKEN}`, 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  /** Why no answer came (status 0). */
  readonly error?: string;
}

/** What the writers saw: every answer, and each acknowledged entry as (memoryRef, id). */
export interface LoadReport {
  readonly answers: readonly Answer[];
  readonly acknowledged: readonly (readonly [string, string])[];
}

/**
 * POST `body` as JSON on a connection of its own (no keep-alive: a kept-alive socket idle when the host froze is
 * closed by the host's keep-alive timer as it thaws, before it reads what the client wrote meanwhile — a transport
 * race of any frozen HTTP server, not the database fault under test).
 */
export function post(url: string, path: string, body: unknown, timeoutMs = 60_000): Promise<{ status: number; retryAfter: string | null; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(`${url}${path}`, { method: 'POST', agent: false, headers: { ...H, 'content-length': Buffer.byteLength(payload) }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          json = undefined;
        }
        const ra = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, retryAfter: typeof ra === 'string' ? ra : null, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer in time')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** `writers` loops seeding one entry per request into scopes of their own until `stop()`. */
export function writeLoad(url: string, writers = 8): { stop: () => Promise<LoadReport>; refused: () => number } {
  const answers: Answer[] = [];
  const acknowledged: [string, string][] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: writers }, async (_, w) => {
    while (running) {
      const i = n++;
      const memoryRef = `mem://w${w}/notes`;
      try {
        const r = await post(url, ROUTES.memorySeed.path, { memoryRef, runId: `run-w${w}`, entries: [{ content: `write ${i}` }] });
        answers.push({ status: r.status, retryAfter: r.retryAfter });
        if (r.status === 200) for (const id of entryIds(r.json)) acknowledged.push([memoryRef, id]);
      } catch (err) {
        answers.push({ status: 0, retryAfter: null, error: `${(err as Error).message} (${(err as NodeJS.ErrnoException).code ?? ''})` });
        await sleep(50);
      }
    }
  });
  return { stop: async () => { running = false; await Promise.all(loops); return { answers, acknowledged }; }, refused: () => answers.filter((a) => a.status === 503).length };
}

function entryIds(body: unknown): string[] {
  if (typeof body !== 'object' || body === null || !('entries' in body) || !Array.isArray(body.entries)) return [];
  return body.entries.flatMap((e: unknown) => (typeof e === 'object' && e !== null && 'id' in e && typeof e.id === 'string' ? [e.id] : []));
}

/** Connections of the host's database other than `admin`'s, in a transaction or running a statement now. */
const BUSY = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND (state = 'idle in transaction' OR (state = 'active' AND xact_start IS NOT NULL)) AND query NOT LIKE 'LISTEN%'";

/** Terminate every busy connection of the host, `rounds` times (each round waits for busy ones); how many were ended. */
export async function terminateBusy(admin: pg.Client, rounds: number): Promise<number> {
  let ended = 0;
  for (let round = 0; round < rounds; round++) {
    let pids: number[] = [];
    for (let i = 0; i < 400 && pids.length === 0; i++) {
      pids = (await admin.query<{ pid: number }>(BUSY)).rows.map((r) => r.pid);
      if (pids.length === 0) await sleep(5);
    }
    expect(pids.length, `round ${round}: the host had a busy connection to end`).toBeGreaterThan(0);
    for (const pid of pids) ended += (await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid])).rows[0]?.ok === true ? 1 : 0;
    await sleep(150);
  }
  return ended;
}

/**
 * Freeze the host while one of its sessions is inside a transaction, `pauses` times, each for `pauseMs` (past the
 * server's idle-in-transaction timeout); after each thaw, wait until it serves a write again. Attempts whose freeze
 * caught no open transaction do not count (at most `pauses * 4` attempts).
 */
export async function pauseInTransaction(host: RunningHost, admin: pg.Client, pauses: number, pauseMs: number): Promise<number> {
  let caught = 0;
  for (let attempt = 0; caught < pauses && attempt < pauses * 4; attempt++) {
    for (let i = 0; i < 400 && (await admin.query(BUSY)).rowCount === 0; i++) await sleep(5);
    host.signal('SIGSTOP');
    // A statement the server was running when the host froze ends soon: its session then idles in the transaction.
    let open = 0;
    for (let i = 0; i < 10 && open === 0; i++) {
      open = (await admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'")).rowCount ?? 0;
      if (open === 0) await sleep(30);
    }
    await sleep(open > 0 ? pauseMs : 50);
    host.signal('SIGCONT');
    if (open > 0) caught++;
    await servesAgain(host.url);
  }
  return caught;
}

/** Wait until the host acknowledges a write again (it may take a moment to notice its lost connections). */
export async function servesAgain(url: string): Promise<void> {
  let last = 0;
  for (let i = 0; i < 200; i++) {
    last = await post(url, ROUTES.memorySeed.path, { memoryRef: 'mem://probe/notes', entries: [{ content: 'probe' }] }, 30_000).then((r) => r.status, () => 0);
    if (last === 200) return;
    await sleep(100);
  }
  throw new Error(`the host did not serve a write again (last status ${last})`);
}

/**
 * The campaign's verdict: no exit, every answer 200 or 503 + Retry-After, some 503, every acknowledged write stored.
 * `frozen`: the host was stopped meanwhile, so a request it had begun to receive when it froze may also be answered
 * 408 (its request timeout ran out while it could not read; nothing of it was handled).
 */
export async function expectSurvived(host: RunningHost, exited: () => boolean, report: LoadReport, admin: pg.Client, frozen = false): Promise<void> {
  expect(exited(), `the host exited:\n${host.stderr().slice(-2000)}`).toBe(false);
  const bad = report.answers.filter((a) => !(a.status === 200 || (a.status === 503 && a.retryAfter !== null && /^\d+$/.test(a.retryAfter)) || (frozen && a.status === 408)));
  expect(bad.slice(0, 5), `${bad.length} of ${report.answers.length} answers neither 200 nor 503 + Retry-After`).toEqual([]);
  expect(report.answers.some((a) => a.status === 503), 'some requests met the fault (503)').toBe(true);
  expect(report.acknowledged.length).toBeGreaterThan(0);
  const stored = new Set((await admin.query<{ memory_ref: string; id: string }>('SELECT memory_ref, id FROM entries')).rows.map((r) => `${r.memory_ref} ${r.id}`));
  const lost = report.acknowledged.filter(([ref, id]) => !stored.has(`${ref} ${id}`));
  expect(lost.slice(0, 5), `${lost.length} of ${report.acknowledged.length} acknowledged writes lost`).toEqual([]);
}
