/**
 * Read cost does not depend on scope size (issue 22): a 10-entry page of a memoryRef holding 100,000 entries
 * against the same page of one holding 1,000, side by side, on SQLite and PostgreSQL, through the HTTP route
 * (`GET /v1/memory/{memoryRef}?limit=10`, app.inject on a host over the store) and through the port's read function
 * (`entryPage`, runtime/storage/reads/memory.ts). Four cases, each against the 1,000-entry scope:
 * - the first page;
 * - a page of a rare tag (`?tag=rare`): 10 of the 100,000 entries carry it (1 in 10,000), 10 of the 1,000;
 * - the first page of a 100,000-entry scope 99% expired (the live 1% spread evenly among them);
 * - a page from the middle of the scope, resumed with a cursor (entry 50,000 of 100,000 against 500 of 1,000).
 * Each round times a batch of pages of each scope (at least BATCH_MS of reading), alternating which goes first; a ratio is the median of the
 * per-round ratios, small scope time ÷ large scope time (1: the scope's size costs nothing; the goal, within 2×,
 * is a ratio of at least 0.5). Both sides are checked to answer the page asked for.
 *
 * The store is built once by bulk inserts (store-cache.ts) and kept under bench/.cache.
 * Run: npm run bench:pages   → bench/results/storage-pages.json (BENCH_ROUNDS, default 9)
 */
import { SecretKeyRing } from '../../runtime/redaction/sealing.ts';
import type { FastifyInstance } from 'fastify';
import type { MemoryEntry } from '../../generated/ts/index.ts';
import { ROUTES, urlOf } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { entryPage, type EntryPosition } from '../../runtime/storage/reads/memory.ts';
import { rng } from '../rng.ts';
import { median, round, writeResult, type BenchRow } from '../summary.ts';
import { eachDurableKind, KIND_LABEL, loadAverage, loadNote, type DurableKind } from './environment.ts';
import { contentOf, entryRows, idOf, quotaRow, TAGS, type Row } from './rows.ts';
import { storeCopy, type StoreRecipe } from './store-cache.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
/** A batch reads pages for at least this long (a loaded 2-core machine moves short timings a lot) … */
const BATCH_MS = 300;
/** … and at least this many. */
const PAGES_MIN = 50;
const PAGE = 10;
const GOAL = 2;
const GENERATOR_VERSION = 1;
const TENANT = 'pages';
const TOKEN = 'pages-bench-operator-token-0123';
const DAY = 86_400_000;
const RARE = 'rare';

/** The scopes of the store: size, which entries carry the rare tag, which are expired. */
const SCOPES = {
  large: { size: 100_000, rareEvery: 10_000, liveEvery: 1 },
  small: { size: 1_000, rareEvery: 100, liveEvery: 1 },
  expired: { size: 100_000, rareEvery: 0, liveEvery: 100 },
} as const;
type Scope = keyof typeof SCOPES;
const refOf = (s: Scope): string => `mem://${TENANT}/${s}`;

function* pageRows(builtMs: number): Generator<Row> {
  const r = rng(2024);
  let bytes = 0;
  for (const [name, s] of Object.entries(SCOPES) as [Scope, (typeof SCOPES)[Scope]][]) {
    const specs = Array.from({ length: s.size }, (_, i) => {
      const created = builtMs - DAY - Math.floor(r() * 30 * DAY);
      return { i, id: idOf('mem', `pages/${name}/${i}`), created };
    }).sort((a, b) => (a.id < b.id ? -1 : 1));
    // Rank in list order (newest first), so "every n-th" spreads evenly through the pages.
    const rank = new Map([...specs].sort((a, b) => b.created - a.created || (a.id < b.id ? -1 : 1)).map((x, k) => [x.i, k]));
    for (const { i, id, created } of specs) {
      const k = rank.get(i)!;
      const tags = [TAGS[i % TAGS.length]!, ...(s.rareEvery > 0 && k % s.rareEvery === s.rareEvery >> 1 ? [RARE] : [])];
      const expired = k % s.liveEvery !== 0;
      const e = entryRows({ tenant: TENANT, memoryRef: refOf(name), id, content: contentOf(i), tags, createdMs: created, ...(expired ? { expiresMs: builtMs - DAY / 2 } : {}) });
      bytes += e.bytes;
      yield* e.rows;
    }
    yield quotaRow(TENANT, 'memory-entries', refOf(name), s.size);
  }
  yield quotaRow(TENANT, 'memory-bytes', '', bytes);
}

const recipe: StoreRecipe = { name: 'pages', inputs: { SCOPES, GENERATOR_VERSION }, maxAgeMs: 30 * DAY, rows: pageRows };

interface Case {
  readonly name: string;
  readonly large: Scope;
  readonly tag?: string;
  /** Resume at this fraction of the scope (a cursor from the middle). */
  readonly from?: number;
}
const CASES: readonly Case[] = [
  { name: 'first page', large: 'large' },
  { name: `rare tag (1 in ${SCOPES.large.rareEvery.toLocaleString('en')})`, large: 'large', tag: RARE },
  { name: '99% expired scope', large: 'expired' },
  { name: 'page from the middle (cursor)', large: 'large', from: 0.5 },
];

/** One way of reading a page: through the route, or through the port. */
interface Reader {
  readonly via: 'HTTP route' | 'port read';
  /** Where a page from the middle starts (the route's cursor, the port's position). */
  start(scope: Scope, c: Case): Promise<string | EntryPosition | undefined>;
  page(scope: Scope, c: Case, start: string | EntryPosition | undefined): Promise<MemoryEntry[]>;
}

function httpReader(app: FastifyInstance): Reader {
  const get = async (scope: Scope, query: Record<string, string | number | undefined>) => {
    const res = await app.inject({ method: 'GET', url: urlOf(ROUTES.memoryList, { params: { memoryRef: refOf(scope) }, query }), headers: { authorization: `Bearer ${TOKEN}` } });
    if (res.statusCode !== 200) throw new Error(`GET ${refOf(scope)} answered ${res.statusCode}: ${res.body}`);
    return res.json() as { entries: MemoryEntry[]; nextCursor?: string };
  };
  return {
    via: 'HTTP route',
    async start(scope, c) {
      if (c.from === undefined) return undefined;
      // Walk to the middle with the largest pages the route serves.
      let cursor: string | undefined;
      const target = Math.floor(SCOPES[scope].size * c.from);
      for (let seen = 0; seen < target; ) {
        const p = await get(scope, { limit: Math.min(1000, target - seen), cursor });
        seen += p.entries.length;
        cursor = p.nextCursor;
      }
      return cursor;
    },
    page: async (scope, c, start) => (await get(scope, { limit: PAGE, tag: c.tag, cursor: start as string | undefined })).entries,
  };
}

function portReader(store: StoragePort): Reader {
  return {
    via: 'port read',
    async start(scope, c) {
      if (c.from === undefined) return undefined;
      const at = Math.floor(SCOPES[scope].size * c.from) - 1;
      const row = await store.reads.get(`SELECT neg_created, id FROM entries WHERE tenant = ? AND memory_ref = ? ORDER BY neg_created, id LIMIT 1 OFFSET ${at}`, [TENANT, refOf(scope)]);
      return row === undefined ? undefined : { negCreated: Number(row.neg_created), id: String(row.id) };
    },
    page: async (scope, c, start) => (await entryPage(store.reads, { tenant: TENANT, memoryRef: refOf(scope), atMs: Date.now(), limit: PAGE, ...(c.tag !== undefined ? { tag: c.tag } : {}), ...(start !== undefined ? { after: start as EntryPosition } : {}) })).entries,
  };
}

/** The page must be what was asked for: 10 entries, live, carrying the tag when one was asked. */
function check(entries: readonly MemoryEntry[], c: Case, where: string): void {
  const now = Date.now();
  if (entries.length !== PAGE) throw new Error(`${where}: ${entries.length} entries, expected ${PAGE}`);
  if (c.tag !== undefined && !entries.every((e) => e.tags.includes(c.tag!))) throw new Error(`${where}: an entry without the tag ${c.tag}`);
  if (!entries.every((e) => e.expiresAt === undefined || Date.parse(e.expiresAt) > now)) throw new Error(`${where}: an expired entry`);
}

/** Read pages for at least BATCH_MS (and PAGES_MIN pages); the time per page. */
async function batch(reader: Reader, scope: Scope, c: Case, start: string | EntryPosition | undefined): Promise<number> {
  const t0 = performance.now();
  let n = 0;
  while (n < PAGES_MIN || performance.now() - t0 < BATCH_MS) {
    await reader.page(scope, c, start);
    n++;
  }
  return (performance.now() - t0) / n;
}

async function measure(kind: DurableKind) {
  const copy = await storeCopy(kind, recipe);
  const store = await openStore(kind === 'sqlite' ? { kind, dataDir: copy.dataDir! } : { kind, url: copy.url! });
  const { app } = await createHost({ token: TOKEN, storage: store, secretKeys: new SecretKeyRing([{ id: 'bench', key: Buffer.alloc(32, 9) }]), cursorKey: Buffer.alloc(32, 5) });
  try {
    const loadBefore = loadAverage();
    const out = [];
    for (const reader of [httpReader(app), portReader(store)]) {
      for (const c of CASES) {
        const starts = { large: await reader.start(c.large, c), small: await reader.start('small', c) };
        check(await reader.page(c.large, c, starts.large), c, `${kind} ${reader.via} ${c.name}, large`);
        check(await reader.page('small', c, starts.small), c, `${kind} ${reader.via} ${c.name}, small`);
        await batch(reader, c.large, c, starts.large); // warm-up
        await batch(reader, 'small', c, starts.small);
        const rounds: { largeMs: number; smallMs: number; ratio: number }[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          let largeMs: number;
          let smallMs: number;
          if (i % 2 === 0) {
            largeMs = await batch(reader, c.large, c, starts.large);
            smallMs = await batch(reader, 'small', c, starts.small);
          } else {
            smallMs = await batch(reader, 'small', c, starts.small);
            largeMs = await batch(reader, c.large, c, starts.large);
          }
          rounds.push({ largeMs: round(largeMs, 4), smallMs: round(smallMs, 4), ratio: round(smallMs / largeMs, 3) });
        }
        const r = { case: c.name, via: reader.via, ratio: round(median(rounds.map((x) => x.ratio))), largeMs: round(median(rounds.map((x) => x.largeMs)), 4), smallMs: round(median(rounds.map((x) => x.smallMs)), 4), rounds };
        console.log(`${KIND_LABEL[kind]} ${r.via}, ${r.case}: ${r.largeMs} ms vs ${r.smallMs} ms on 1,000 entries → ${r.ratio}×`);
        out.push(r);
      }
    }
    return { kind, loadAverage: { before: loadBefore, after: loadAverage() }, store: copy.manifest, cases: out };
  } finally {
    await app.close(); // closes the store
    await copy.drop();
  }
}

const { results, skipped } = await eachDurableKind(measure);
const summary: BenchRow[] = results.flatMap((r) => r.cases.map((c) => ({
  row: `10-entry page of a 100,000-entry scope, ${c.case} (${KIND_LABEL[r.kind]}, ${c.via})`,
  ratio: c.ratio,
  peer: `the same page of a 1,000-entry scope: ${c.smallMs} ms (${loadNote(r.loadAverage)})`,
  goal: `≥ ${1 / GOAL}× (within ${GOAL}× of the small scope)`,
  figure: `${c.largeMs} ms`,
})));
const path = writeResult('storage-pages', { benchmark: 'storage-pages', node: process.version, summary, method: { rounds: ROUNDS, batchMs: BATCH_MS, pagesMin: PAGES_MIN, page: PAGE, scopes: SCOPES }, skipped, results }, `stores built by bulk inserts (bench/.cache): memoryRefs of 100,000 and 1,000 entries (plain, a rare tag 1 in 10,000, 99% expired); pages of ${PAGE} read by app.inject and by entryPage, ${ROUNDS} interleaved rounds`);
console.log(`→ ${path}`);
