/**
 * Memory lists a page at a time (issue 22 §3): `limit` + an opaque `cursor`, the next cursor in the answer, newest
 * first by the immutable key (createdAt, id).
 * - A cursor resumes only the list it was minted for: one minted for another tenant, memoryRef, tag or view (a
 *   fork's snapshot), a tampered one, or one signed with another key is 400 `invalid_cursor` naming `/cursor`, and
 *   says nothing of the list it came from.
 * - It is signed with the host's configured key, so it survives a restart and resumes on another host of the store.
 * - Property: paging through a list while writes go on (inserts, replacements, deletions, entries expiring) returns
 *   every entry present for the whole walk exactly once, never an entry twice, in key order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../generated/ts/index.ts';
import { validateErrorEnvelope, validateHostSampleMemoryEntriesResponse } from '../../generated/validators/validators.js';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost, type Host } from '../../runtime/host/server.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { openSqliteStore } from '../../runtime/storage/sqlite/index.ts';
import { inUnit } from '../support/in-unit.ts';

const KEY_ACME = 'acme-tenant-key-0123456789abcdef';
const KEY_GLOBEX = 'globex-tenant-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef0123';
const credentials = () => new Credentials(parseApiKeysEnv(`${KEY_ACME}=acme:tenant,${KEY_GLOBEX}=globex:tenant,${OPERATOR}=*:operator`));
const as = (key: string) => ({ authorization: `Bearer ${key}` });

interface Page {
  readonly entries: readonly MemoryEntry[];
  readonly nextCursor?: string;
}

/** GET /v1/memory/{memoryRef} with these query parameters, as `key`. */
const listAs = (host: Host, key: string, memoryRef: string, query: { limit?: number; tag?: string; cursor?: string } = {}) =>
  host.app.inject({
    method: 'GET',
    headers: as(key),
    url: targetOf(ROUTES.memoryList, { params: { memoryRef }, query: { ...(query.limit !== undefined ? { limit: String(query.limit) } : {}), ...(query.tag !== undefined ? { tag: query.tag } : {}), ...(query.cursor !== undefined ? { cursor: query.cursor } : {}) } }),
  });

async function pageOk(host: Host, key: string, memoryRef: string, query: { limit?: number; tag?: string; cursor?: string } = {}): Promise<Page> {
  const r = await listAs(host, key, memoryRef, query);
  expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
  expect(validateHostSampleMemoryEntriesResponse(r.json())).toBe(true);
  return r.json<Page>();
}

/** The answer to a cursor that does not belong to the list: 400 invalid_cursor at /cursor. */
function expectInvalidCursor(r: Awaited<ReturnType<typeof listAs>>, what: string): void {
  expect(r.statusCode, what).toBe(400);
  expect(validateErrorEnvelope(r.json())).toBe(true);
  expect(r.json(), what).toMatchObject({ error: 'invalid_cursor', details: { failures: [{ instancePath: '/cursor' }] } });
}

const seed = (host: Host, memoryRef: string, entries: readonly { content: string; tags?: string[] }[]) =>
  host.app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: { ...as(OPERATOR), 'content-type': 'application/json' }, payload: JSON.stringify({ memoryRef, entries }) });

describe('a cursor resumes only the list it was minted for', () => {
  let host: Host;
  let cursor: string;
  let redCursor: string;
  const NOTES = 'mem://acme/notes';

  beforeAll(async () => {
    host = await createHost({ credentials: credentials(), logger: false });
    const five = (prefix: string) => Array.from({ length: 5 }, (_, i) => ({ content: `${prefix} ${i}`, tags: i % 2 === 0 ? ['red'] : [] }));
    for (const ref of [NOTES, 'mem://acme/other', 'mem://globex/notes']) expect((await seed(host, ref, five(ref))).statusCode).toBe(200);
    cursor = (await pageOk(host, KEY_ACME, NOTES, { limit: 2 })).nextCursor!;
    redCursor = (await pageOk(host, KEY_ACME, NOTES, { limit: 1, tag: 'red' })).nextCursor!;
    expect([typeof cursor, typeof redCursor]).toEqual(['string', 'string']);
  });
  afterAll(() => host.app.close());

  it('resumes its own list, for its tenant and for an operator reading as that tenant, to the end', async () => {
    const first = await pageOk(host, KEY_ACME, NOTES, { limit: 2 });
    const rest = await pageOk(host, KEY_ACME, NOTES, { limit: 10, cursor });
    expect(rest.nextCursor).toBeUndefined();
    const all = (await pageOk(host, KEY_ACME, NOTES)).entries.map((e) => e.id);
    expect([...first.entries, ...rest.entries].map((e) => e.id)).toEqual(all);
    expect(all).toHaveLength(5);
    expect((await pageOk(host, OPERATOR, NOTES, { limit: 10, cursor })).entries).toEqual(rest.entries);
    expect((await pageOk(host, KEY_ACME, NOTES, { tag: 'red', cursor: redCursor })).entries).toHaveLength(2);
  });

  it('another tenant, another memoryRef, another tag (or none), a tag cursor without its tag: 400 invalid_cursor', async () => {
    expectInvalidCursor(await listAs(host, KEY_GLOBEX, 'mem://globex/notes', { cursor }), 'globex on its own ref');
    // (globex's key on acme's ref is refused before the cursor is read: the ref is not its tenant's.)
    expect((await listAs(host, KEY_GLOBEX, NOTES, { cursor })).statusCode).toBe(403);
    expectInvalidCursor(await listAs(host, OPERATOR, 'mem://globex/notes', { cursor }), 'an operator on globex\'s ref');
    expectInvalidCursor(await listAs(host, KEY_ACME, 'mem://acme/other', { cursor }), 'acme on another ref');
    expectInvalidCursor(await listAs(host, KEY_ACME, NOTES, { cursor, tag: 'red' }), 'the list filtered by a tag');
    expectInvalidCursor(await listAs(host, KEY_ACME, NOTES, { cursor: redCursor }), 'a tag cursor without its tag');
    expectInvalidCursor(await listAs(host, KEY_ACME, NOTES, { cursor: redCursor, tag: 'blue' }), 'a tag cursor with another tag');
    // The same through the sample seam: the cursor belongs to the list, whichever route reads it.
    const seam = await host.app.inject({ method: 'GET', headers: as(KEY_GLOBEX), url: targetOf(ROUTES.memoryEntries, { query: { tenant: 'globex', memoryRef: 'mem://globex/notes', cursor } }) });
    expectInvalidCursor(seam, 'the seam, globex');
  });

  it('the refusal says nothing of the list the cursor came from', async () => {
    const r = await listAs(host, KEY_GLOBEX, 'mem://globex/notes', { cursor });
    expect(r.body).not.toMatch(/acme|notes/);
  });

  it('tampered, truncated, forged or oversized cursors: 400 invalid_cursor', async () => {
    const [payload, mac] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(['acme', NOTES, null, null, 0, 'zzz'])).toString('base64url');
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const bad of [flip(payload, 3) + '.' + mac, payload + '.' + flip(mac, 2), payload, `${payload}.${mac}.x`, `${forged}.${mac}`, 'not-a-cursor', 'x'.repeat(3000), '.']) {
      expectInvalidCursor(await listAs(host, KEY_ACME, NOTES, { cursor: bad }), bad.slice(0, 40));
    }
  });

  it('a live list\'s cursor does not resume a fork\'s snapshot of the same ref, nor the reverse', async () => {
    const run = await inUnit(host.store, (tx) => host.runtime.startRun(tx, { workflowId: 'pagination', memoryRef: NOTES }));
    await inUnit(host.store, (tx) => host.runtime.write(tx, NOTES, { content: 'written in the run' }, { tenant: 'acme', runId: run.runId })).then((p) => p.value);
    const fork = await inUnit(host.store, (tx) => host.runtime.fork(tx, run.runId, 0));
    const forkList = (c?: string, key = KEY_ACME) => host.app.inject({ method: 'GET', headers: as(key), url: targetOf(ROUTES.runMemory, { params: { runId: fork.runId }, query: { memoryRef: NOTES, limit: '2', ...(c !== undefined ? { cursor: c } : {}) } }) });
    expectInvalidCursor(await forkList(cursor), 'a live cursor on the fork');
    const forkCursor = (await forkList()).json<Page>().nextCursor!;
    expect((await forkList(forkCursor)).statusCode).toBe(200);
    expectInvalidCursor(await listAs(host, KEY_ACME, NOTES, { cursor: forkCursor }), 'a fork cursor on the live list');
  });
});

describe('a cursor is signed with the configured key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wopkit-cursor-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const KEY = Buffer.from('cursor-key-of-this-fleet-0123456789');
  const REF = 'mem://acme/keyed';
  const hostOn = async (cursorKey: Buffer) => createHost({ credentials: credentials(), logger: false, cursorKey, storage: await openSqliteStore(join(dir, 'store.db')) });

  it('survives a restart (and resumes on another host with the key); a host with another key refuses it', async () => {
    const first = await hostOn(KEY);
    expect((await seed(first, REF, Array.from({ length: 6 }, (_, i) => ({ content: `entry ${i}` })))).statusCode).toBe(200);
    const page1 = await pageOk(first, KEY_ACME, REF, { limit: 4 });
    const all = (await pageOk(first, KEY_ACME, REF)).entries.map((e) => e.id);
    await first.app.close();

    const restarted = await hostOn(KEY);
    const page2 = await pageOk(restarted, KEY_ACME, REF, { limit: 4, cursor: page1.nextCursor! });
    expect([...page1.entries, ...page2.entries].map((e) => e.id)).toEqual(all);
    await restarted.app.close();

    const otherKey = await hostOn(Buffer.from('another-fleet-key-0123456789abcdef'));
    expectInvalidCursor(await listAs(otherKey, KEY_ACME, REF, { limit: 4, cursor: page1.nextCursor! }), 'another key');
    await otherKey.app.close();
  });
});

// ── The property ───────────────────────────────────────────────────────────────────────────────────────────────

/** Writes that go on between two pages of a walk. */
type Op =
  | { readonly kind: 'insert'; readonly n: number; readonly red: boolean; readonly ttlMs?: number }
  | { readonly kind: 'replace'; readonly pick: number }
  | { readonly kind: 'delete'; readonly pick: number; readonly count: number }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'none' };

const ttlArb = fc.option(fc.integer({ min: 1, max: 4_000 }), { nil: undefined });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), n: fc.integer({ min: 1, max: 3 }), red: fc.boolean(), ttlMs: ttlArb }, { requiredKeys: ['kind', 'n', 'red'] }),
  fc.record({ kind: fc.constant('replace' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(), count: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2_500 }) }),
  fc.constant({ kind: 'none' as const }),
);
const initialArb = fc.array(fc.record({ gapMs: fc.constantFrom(0, 0, 1, 7), red: fc.boolean(), ttlMs: ttlArb }, { requiredKeys: ['gapMs', 'red'] }), { minLength: 0, maxLength: 30 });

/** What the model knows of an entry. */
interface Known {
  readonly createdMs: number;
  red: boolean;
  expiresMs: number | undefined;
  deleted: boolean;
  /** Was absent (deleted or expired) at some instant of the walk. */
  gone: boolean;
}

describe('paging while writes go on', () => {
  it('property: every entry present for the whole walk is returned exactly once, nothing twice, in (createdAt, id) order', async () => {
    const REF = 'mem://acme/walk';
    await fc.assert(
      fc.asyncProperty(initialArb, fc.array(opArb, { maxLength: 25 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), async (initial, ops, limit, byTag) => {
        const clock = new ManualClock();
        const host = await createHost({ credentials: credentials(), logger: false, clock });
        try {
          const known = new Map<string, Known>();
          const put = async (red: boolean, ttlMs: number | undefined) => {
            const e = await inUnit(host.store, (tx) => host.runtime.write(tx, REF, { content: `entry at ${clock.now()}`, tags: red ? ['red'] : [], ...(ttlMs !== undefined ? { ttlSeconds: ttlMs / 1000 } : {}) }, { tenant: 'acme' })).then((p) => p.value);
            known.set(e.id, { createdMs: Date.parse(e.createdAt), red, expiresMs: e.expiresAt === undefined ? undefined : Date.parse(e.expiresAt), deleted: false, gone: false });
          };
          const live = () => [...known].filter(([, k]) => !k.deleted && (k.expiresMs === undefined || k.expiresMs > clock.now())).map(([id]) => id).sort();
          const noteExpiries = () => {
            for (const k of known.values()) if (k.expiresMs !== undefined && k.expiresMs <= clock.now()) k.gone = true;
          };
          for (const i of initial) {
            clock.advance(i.gapMs);
            await put(i.red, i.ttlMs);
          }
          const atStart = new Set(live());

          const apply = async (op: Op) => {
            if (op.kind === 'insert') for (let i = 0; i < op.n; i++) await put(op.red, op.ttlMs);
            else if (op.kind === 'advance') {
              clock.advance(op.ms);
              noteExpiries();
            } else if (op.kind === 'replace') {
              const ids = live();
              if (ids.length === 0) return;
              const id = ids[op.pick % ids.length]!;
              const k = known.get(id)!;
              const e = await inUnit(host.store, (tx) => host.runtime.write(tx, REF, { id, content: `replaced at ${clock.now()}`, tags: k.red ? ['red'] : [] }, { tenant: 'acme' })).then((p) => p.value);
              expect(Date.parse(e.createdAt), 'a replaced entry keeps its createdAt').toBe(k.createdMs);
              k.expiresMs = undefined;
            } else if (op.kind === 'delete') {
              const ids = live();
              if (ids.length === 0) return;
              const victims = [...new Set(Array.from({ length: Math.min(op.count, ids.length) }, (_, i) => ids[(op.pick + i) % ids.length]!))];
              const r = await inUnit(host.store, (tx) => host.runtime.compact(tx, REF, 'acme', victims));
              for (const id of victims) Object.assign(known.get(id)!, { deleted: true, gone: true });
              const out = await inUnit(host.store, (tx) => host.runtime.memoryFor(tx, 'acme').get(REF, r.output.id));
              known.set(r.output.id, { createdMs: Date.parse(r.output.createdAt), red: (out?.tags ?? []).includes('red'), expiresMs: undefined, deleted: false, gone: false });
            }
          };

          const seen: MemoryEntry[] = [];
          let cursor: string | undefined;
          let pages = 0;
          do {
            const page = await pageOk(host, KEY_ACME, REF, { limit, ...(byTag ? { tag: 'red' } : {}), ...(cursor !== undefined ? { cursor } : {}) });
            expect(page.entries.length).toBeLessThanOrEqual(limit);
            seen.push(...page.entries);
            cursor = page.nextCursor;
            await apply(ops[pages] ?? { kind: 'none' });
            pages++;
            expect(pages, 'the walk ends').toBeLessThan(500);
          } while (cursor !== undefined);
          noteExpiries();

          const ids = seen.map((e) => e.id);
          expect(ids.filter((id, i) => ids.indexOf(id) !== i), 'returned twice').toEqual([]);
          expect(ids.filter((id) => !known.has(id)), 'never written').toEqual([]);
          const wanted = [...atStart].filter((id) => !known.get(id)!.gone && (!byTag || known.get(id)!.red));
          expect(wanted.filter((id) => !ids.includes(id)), 'present for the whole walk but not returned').toEqual([]);
          if (byTag) expect(seen.filter((e) => !(e.tags ?? []).includes('red')).map((e) => e.id), 'outside the tag').toEqual([]);
          // Newest first by (createdAt, id): strictly increasing in (−createdAt, id).
          const key = (e: MemoryEntry) => [-Date.parse(e.createdAt), e.id] as const;
          for (let i = 1; i < seen.length; i++) {
            const [a, b] = [key(seen[i - 1]!), key(seen[i]!)];
            expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]), `order at ${i}`).toBe(true);
          }
        } finally {
          await host.app.close();
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('the limit of a memory list', () => {
  it('is an integer from 1 to 1000; anything else is 400 validation_failed at /limit, on every list route', async () => {
    const { app } = await createHost({ token: 'limit-test-token-0123456789ab', logger: false });
    const H = { authorization: 'Bearer limit-test-token-0123456789ab' };
    const ref = encodeURIComponent('mem://acme/x');
    for (const bad of ['abc', '0', '-1', '1.5', '1001', '1e3', '', ' 5']) {
      for (const url of [`/v1/memory/${ref}?limit=${encodeURIComponent(bad)}`, `/v1/host/sample/memory/entries?tenant=acme&memoryRef=${ref}&limit=${encodeURIComponent(bad)}`]) {
        const r = await app.inject({ method: 'GET', url, headers: H });
        expect(r.statusCode, `${url}: ${r.body}`).toBe(400);
        expect(r.json()).toMatchObject({ error: 'validation_failed', details: { failures: [{ instancePath: '/limit' }] } });
      }
    }
    for (const good of ['1', '1000']) expect((await app.inject({ method: 'GET', url: `/v1/memory/${ref}?limit=${good}`, headers: H })).statusCode).toBe(200);
    await app.close();
  });
});
