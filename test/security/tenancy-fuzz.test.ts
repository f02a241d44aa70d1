/**
 * Cross-tenant fuzz: property tests of the whole class of issue 12 item 1 (CTI-1 breaches) and item 8a (one key is
 * every tenant). fast-check generates writes as one tenant carrying canary strings that name their owner, then
 * reads as another tenant through every library read view and every catalogue route, naming the writer's refs,
 * run ids, entry ids, tags and schedule ids (as they are and in hostile spellings). No canary may ever reach a
 * reader that is not its owner, in a result, a response body or an error. Positive controls count, per view and
 * per route family, the canaries an owner reads back, so the search is not blind.
 *
 * Canary: `CNRY<owner>x<n>` where <owner> is the index of the writing tenant.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { StoreTranscript, type FactKind } from '../../runtime/inquirium/storage/transcript.ts';
import { TenantMemoryAdapter } from '../../runtime/memory/adapter.ts';
import { forkAnchor } from '../../runtime/multi-agent/replay-snapshots.ts';
import type { RunRecord } from '../../runtime/openwop/runs.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost, type HostOptions } from '../../runtime/host/server.ts';
import { ROUTES, targetOf, type CatalogueRoute, type RouteName } from '../../runtime/host/seam-catalogue.ts';
import { ManualClock, SequentialIds, toIso } from '../../runtime/shared/clock.ts';
import { library } from './library.ts';
import { unitsOf } from '../../runtime/storage/index.ts';
import { detachedTx } from '../../runtime/storage/unit-of-work.ts';
import { unitOfWork } from '../../runtime/storage/index.ts';

const CANARY = /CNRY(\d)x(\d+)/g;
/** Owners of the canaries in `text` that are not `reader`'s and not already in `sent` (what the reader itself sent). */
function leaks(text: string, reader: number, sent = ''): string[] {
  return [...text.matchAll(CANARY)].filter((m) => Number(m[1]) !== reader && !sent.includes(m[0])).map((m) => m[0]);
}
/** Canaries in `text` owned by `reader` (positive control). */
const ownSeen = (text: string, reader: number): number => [...text.matchAll(CANARY)].filter((m) => Number(m[1]) === reader).length;

/** Hostile spellings of a ref: a reader names another tenant's ref as it is, or bent around the grammar. */
const TRANSFORMS: Readonly<Record<string, (ref: string, reader: string) => string>> = {
  same: (r) => r,
  upper: (r) => r.replace(/^mem:\/\/([^/]+)/, (_, t: string) => `mem://${t.toUpperCase()}`),
  trailingSlash: (r) => `${r}/`,
  doubleSlash: (r) => r.replace(/^(mem:\/\/[^/]+)\//, '$1//'),
  dotDot: (r, reader) => r.replace(/^mem:\/\//, `mem://${reader}/../`),
  dot: (r) => r.replace(/^(mem:\/\/[^/]+)\//, '$1/./'),
  nul: (r) => `${r}\u0000`,
  percent: (r) => r.replace(/\//g, '%2F'),
  space: (r) => ` ${r}`,
  ownTenant: (r, reader) => r.replace(/^mem:\/\/[^/]+/, `mem://${reader}`),
};
/** A ref spelling: as it is half the time (the plain breach), else one of the hostile ones. */
const transformArb = fc.oneof({ weight: 1, arbitrary: fc.constant('same') }, { weight: 1, arbitrary: fc.constantFrom(...Object.keys(TRANSFORMS)) });

// ── Library read views ─────────────────────────────────────────────────────────────────────────────────────────

const LIB_TENANTS = ['acme', 'globex', 'victimx'] as const;
/** Runs of the library property (each on its own fresh store). */
const LIBRARY_RUNS = 1500;
const VIEWS = ['adapter.list', 'adapter.get', 'fork', 'replay-snapshot', 'sub-run.parent-read', 'sub-run.child-write', 'consolidation', 'compaction', 'distillation'] as const;
type View = (typeof VIEWS)[number];
/** Views whose results carry entry content (so an owner reading them back shows its canaries). */
const CONTENT_VIEWS: readonly View[] = ['adapter.list', 'adapter.get', 'fork', 'replay-snapshot', 'sub-run.parent-read', 'sub-run.child-write', 'compaction', 'distillation'];

const libWrite = fc.record({
  owner: fc.nat(LIB_TENANTS.length - 1),
  scope: fc.constantFrom('s1', 's2', 'deep/x'),
  transactional: fc.boolean(),
  ttlSeconds: fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
  viaRun: fc.boolean(),
  child: fc.boolean(),
  twice: fc.boolean(),
});
const libProbe = fc.record({
  reader: fc.nat(LIB_TENANTS.length - 1),
  victim: fc.nat(LIB_TENANTS.length - 1),
  view: fc.constantFrom(...VIEWS),
  pick: fc.nat(),
  transform: transformArb,
  tagged: fc.boolean(),
  seq: fc.nat(),
  advanceMs: fc.constantFrom(0, 0, 1_000, 90_000),
});

describe('cross-tenant fuzz: library read views', () => {
  it('no canary of one tenant ever reaches another through the adapter, forks, replay snapshots, sub-run scopes, consolidation, compaction or distillation', async () => {
    const seenOwn = new Map<View, number>(VIEWS.map((v) => [v, 0]));
    let probes = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(libWrite, { minLength: 1, maxLength: 5 }), fc.array(libProbe, { minLength: 1, maxLength: 5 }), async (writes, reads) => {
        const clock = new ManualClock();
        const { rt, port, request } = await library({ clock, ids: new SequentialIds() });
        try {
          const runs: RunRecord[] = [];
          for (const t of LIB_TENANTS) runs.push(await request((plan) => rt.startRun(plan, { workflowId: 'fuzz', memoryRef: `mem://${t}/s1` })));
          /** A child run of `parent` (children write attributed to their own run, which must exist). */
          const childOf = (parent: RunRecord, childRunId: string) => request((plan) => rt.startRun(plan, { runId: childRunId, workflowId: 'fuzz-child', memoryRef: parent.memoryRef, parentRunId: parent.runId }));
          const written: { owner: number; ref: string; id: string; tag: string }[] = [];
          let n = 0;
          for (const w of writes) {
            const tenant = LIB_TENANTS[w.owner]!;
            const ref = `mem://${tenant}/${w.scope}`;
            const token = `CNRY${w.owner}x${n++}`;
            const tag = `${token}t`;
            const content = `note of ${tenant}: ${token}`;
            const run = runs[w.owner]!;
            const child = `${run.runId}-child-${n}`;
            if (w.child) await childOf(run, child);
            for (let k = 0; k < (w.twice ? 2 : 1); k++) {
              const entry = w.child
                ? (await rt.childWrite({ runId: run.runId, memoryRef: ref }, child, { content, tags: [tag, ...(w.transactional ? ['tier:transactional'] : [])], ...(w.ttlSeconds !== undefined ? { ttlSeconds: w.ttlSeconds } : {}) })).entry
                : (await request((plan) => rt.writer.put(plan, ref, { content, tags: [tag], ...(w.transactional ? { tier: 'transactional' as const } : {}), ...(w.ttlSeconds !== undefined ? { ttlSeconds: w.ttlSeconds } : {}) }, { tenant, ...(w.viaRun ? { runId: run.runId } : {}) }))).entry;
              written.push({ owner: w.owner, ref, id: entry.id, tag });
            }
            // Positive control: the owner reads what it wrote.
            expect(JSON.stringify(await unitOfWork(rt.port, (tx) => rt.adapterFor(tx, tenant).list(ref)))).toContain(token);
          }
          let k = 0;
          for (const p of reads) {
            clock.advance(p.advanceMs);
            const reader = LIB_TENANTS[p.reader]!;
            const victims = written.filter((w) => w.owner === p.victim);
            const target = (victims.length > 0 ? victims : written)[p.pick % (victims.length > 0 ? victims.length : written.length)]!;
            const ref = TRANSFORMS[p.transform]!(target.ref, reader);
            const options = p.tagged ? { tag: target.tag } : {};
            const seqOf = async (runId: string) => p.seq % (await unitOfWork(rt.port, (tx) => rt.runs.row(tx, runId)))!.nextSeq;
            const both = async (view: TenantMemoryAdapter) => [await view.list(ref, options), await view.get(ref, target.id)];
            const probe: Record<View, () => Promise<unknown>> = {
              'adapter.list': () => unitOfWork(rt.port, (tx) => rt.adapterFor(tx, reader).list(ref, options)),
              'adapter.get': () => unitOfWork(rt.port, (tx) => rt.adapterFor(tx, reader).get(ref, target.id)),
              fork: async () => {
                const src = runs[p.reader]!;
                const seq = await seqOf(src.runId);
                const fork = await request((plan) => rt.fork(plan, src.runId, seq));
                return both((await rt.memoryOfRun(detachedTx(port), fork.runId))!);
              },
              'replay-snapshot': async () => {
                // A snapshot read by the reader at a point of ANY run's history, the victim's included.
                const src = runs[p.victim]!;
                const tx = detachedTx(port);
                const anchor = await forkAnchor(tx, (await rt.runs.row(tx, src.runId))!, await seqOf(src.runId));
                return both(new TenantMemoryAdapter(rt.readerFor(tx, reader).at(anchor), clock));
              },
              'sub-run.parent-read': () => unitOfWork(rt.port, (tx) => rt.subRuns.readForParent(tx, runs[p.reader]!.runId, ref)),
              'sub-run.child-write': async () => {
                const parent = runs[p.reader]!;
                const childRunId = `${parent.runId}-probe-${k++}`;
                await childOf(parent, childRunId);
                const child = await rt.childWrite({ runId: parent.runId, memoryRef: ref }, childRunId, { content: `child of ${reader}: CNRY${p.reader}x${n++}` }, p.tagged ? 'isolated' : 'inherit');
                return [child.entry, await unitOfWork(rt.port, (tx) => rt.subRuns.readForParent(tx, parent.runId, child.scope.memoryRef))];
              },
              consolidation: () => request((plan) => rt.consolidation.consolidate(plan, ref, { trigger: 'on-demand', tenantId: reader })),
              compaction: () => request((plan) => rt.compactor.compact(plan, ref, { trigger: 'client-requested', context: { tenant: reader }, ...options })),
              distillation: () => request((plan) => rt.distiller.distill(plan, ref, { context: { tenant: reader } })),
            };
            let seen: string;
            try {
              seen = JSON.stringify(await probe[p.view]()) ?? '';
            } catch (e) {
              const wire = (e as { toWire?: () => unknown }).toWire?.();
              seen = `${(e as Error).message} ${JSON.stringify(wire ?? null)} ${JSON.stringify((e as { details?: unknown }).details ?? null)}`;
            }
            probes++;
            expect(leaks(seen, p.reader), `${p.view} as ${reader} of ${ref}`).toEqual([]);
            seenOwn.set(p.view, seenOwn.get(p.view)! + ownSeen(seen, p.reader));
          }
        } finally {
          await port.close();
        }
      }),
      { numRuns: LIBRARY_RUNS },
    );
    expect(probes).toBeGreaterThan(LIBRARY_RUNS * 1.5);
    for (const v of CONTENT_VIEWS) expect(seenOwn.get(v), `positive control: ${v} never showed an owner its own canary`).toBeGreaterThan(0);
  }, 300_000);

  it('transcript facts of one participant never surface in another participant\'s query', async () => {
    const participants = LIB_TENANTS.map((t) => `participant:did:key:z6Mk${t}`);
    const fact = fc.record({ owner: fc.nat(2), session: fc.constantFrom('session:a', 'session:b'), kind: fc.constantFrom<FactKind>('turn', 'result', 'feedback'), classification: fc.constantFrom('public', 'community', 'personal' as const) });
    const query = fc.record({ reader: fc.nat(2), session: fc.option(fc.constantFrom('session:a', 'session:b'), { nil: undefined }), kind: fc.option(fc.constantFrom<FactKind>('turn', 'result', 'feedback'), { nil: undefined }), max: fc.option(fc.constantFrom('public', 'community', 'personal' as const), { nil: undefined }) });
    let own = 0;
    // One store for the whole search: each run writes facts under fresh ids, and a reader's query must never see
    // another participant's fact, from this run or any earlier one.
    const port = await openMemoryStore();
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fact, { minLength: 1, maxLength: 8 }), fc.array(query, { minLength: 1, maxLength: 4 }), async (facts, queries) => {
          const store = new StoreTranscript(unitsOf(port), () => Date.now());
          const r = run++;
          for (const [i, f] of facts.entries()) {
            await store.append({ kind: f.kind, id: `fact-${r}-${i}`, participant: participants[f.owner]!, session: `${f.session}-${r}`, classification: f.classification, recordedAt: toIso(i), body: { text: `CNRY${f.owner}x${i}` } });
          }
          for (const q of queries) {
            const seen = JSON.stringify(await store.query({ participant: participants[q.reader]!, ...(q.session !== undefined ? { session: `${q.session}-${r}` } : {}), ...(q.kind !== undefined ? { kind: q.kind } : {}), ...(q.max !== undefined ? { maxClassification: q.max } : {}) }));
            expect(leaks(seen, q.reader)).toEqual([]);
            own += ownSeen(seen, q.reader);
          }
        }),
        { numRuns: 300 },
      );
    } finally {
      await port.close();
    }
    expect(own).toBeGreaterThan(0);
  });
});

// ── HTTP: every catalogue route ────────────────────────────────────────────────────────────────────────────────

/** Tenants with keys. Only "conformance" has runs (the fixture seams start runs there). */
const HTTP_TENANTS = ['conformance', 'tenant-b', 'victimx'] as const;
const KEYS = HTTP_TENANTS.map((t) => `key-of-${t}-0123456789abcdef`);
const OPERATOR = 'fuzz-operator-key-0123456789abcdef';
const credentials = () => new Credentials(parseApiKeysEnv([...HTTP_TENANTS.map((t, i) => `${KEYS[i]}=${t}:tenant`), `${OPERATOR}=*:operator`].join(',')));
const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];
/** Routes where an operator key acts AS a named tenant (the `tenant` input, or the run it reads). */
const OPERATOR_AS_READER: ReadonlySet<RouteName> = new Set(['memoryEntries', 'memoryEntry', 'runMemory', 'runEvents', 'distillScheduleRead', 'distillScheduleTick', 'proposals', 'agents']);

/** What the victims hold so far, per tenant index: refs, entry ids, tags, runs (and forks), schedule ids. */
interface World {
  readonly refs: string[][];
  /** Entries written, with the ref they were written under. */
  readonly entries: { readonly ref: string; readonly id: string }[][];
  readonly tags: string[][];
  readonly runs: string[][];
  readonly schedules: string[][];
  readonly proposals: string[][];
  n: number;
}

const httpWrite = fc.record({
  kind: fc.constantFrom('seed', 'seed', 'seed-run', 'consolidate', 'compact', 'distill', 'schedule', 'replay', 'fork'),
  owner: fc.nat(HTTP_TENANTS.length - 1),
  scope: fc.constantFrom('notes', 'private', 'deep/a'),
  transactional: fc.boolean(),
  pick: fc.nat(),
});
/** Any route; the tenant-role routes (the ones that answer a tenant key with data) four times as often. */
const routeArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ROUTE_NAMES.filter((r) => ROUTES[r].role === 'tenant')) },
  { weight: 1, arbitrary: fc.constantFrom(...ROUTE_NAMES) },
);
const httpProbe = fc.record({
  route: routeArb,
  reader: fc.nat(HTTP_TENANTS.length - 1),
  victim: fc.nat(HTTP_TENANTS.length - 1),
  asOperator: fc.boolean(),
  tenantParam: fc.constantFrom('reader', 'victim', 'absent'),
  transform: transformArb,
  picks: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
  /** Name an entry the victim wrote (its ref, its id, sometimes its tag) rather than any ref of the victim. */
  tagged: fc.boolean(),
  withId: fc.boolean(),
});
type HttpWrite = typeof httpWrite extends fc.Arbitrary<infer T> ? T : never;
type HttpProbe = typeof httpProbe extends fc.Arbitrary<infer T> ? T : never;

const pick = <T>(pool: readonly T[], i: number, fallback: T): T => (pool.length === 0 ? fallback : pool[i % pool.length]!);

async function call(app: FastifyInstance, key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
  return { status: res.statusCode, text: res.body, json: (): Record<string, unknown> => JSON.parse(res.body) as Record<string, unknown> };
}

/** One generated write, as the owner (through the operator key: tenant keys cannot use the fixture seams). */
async function write(app: FastifyInstance, world: World, w: HttpWrite): Promise<void> {
  const tenant = HTTP_TENANTS[w.owner]!;
  const runRef = w.owner === 0 ? pick(world.refs[0]!.filter((r) => r.includes('/replay-')), w.pick, undefined) : undefined;
  const ref = w.kind === 'seed-run' && runRef !== undefined ? runRef : `mem://${tenant}/${w.scope}`;
  const post = (name: RouteName, body: unknown) => call(app, OPERATOR, 'POST', targetOf(ROUTES[name]), body);
  switch (w.kind) {
    case 'seed':
    case 'seed-run': {
      const token = `CNRY${w.owner}x${world.n++}`;
      const runId = w.kind === 'seed-run' && w.owner === 0 ? pick(world.runs[0]!, w.pick, undefined) : undefined;
      const r = await post('memorySeed', { memoryRef: ref, entries: [{ content: `note of ${tenant}: ${token}`, tags: [`${token}t`], ...(w.transactional ? { tier: 'transactional' } : {}) }], ...(runId !== undefined ? { runId } : {}) });
      expect(r.status, r.text).toBe(200);
      if (!world.refs[w.owner]!.includes(ref)) world.refs[w.owner]!.push(ref);
      world.entries[w.owner]!.push(...(r.json().entries as { id: string }[]).map((e) => ({ ref, id: e.id })));
      world.tags[w.owner]!.push(`${token}t`);
      return;
    }
    case 'consolidate':
      return void (await post('consolidate', { memoryRef: pick(world.refs[w.owner]!, w.pick, ref) }));
    case 'compact':
      return void (await post('memoryCompact', { memoryRef: pick(world.refs[w.owner]!, w.pick, ref) }));
    case 'distill':
      return void (await post('memoryDistill', { memoryRef: pick(world.refs[w.owner]!, w.pick, ref) }));
    case 'schedule': {
      const r = await post('distillSchedule', { memoryRef: pick(world.refs[w.owner]!, w.pick, ref), every: 'PT1H', firstAt: toIso(Date.now() - 1000) });
      if (r.status === 201) world.schedules[w.owner]!.push(r.json().scheduleId as string);
      return;
    }
    case 'replay': {
      const r = await post('replayFixture', {});
      world.runs[0]!.push(r.json().runId as string);
      world.refs[0]!.push(r.json().memoryRef as string);
      return;
    }
    default: {
      const source = pick(world.runs[0]!, w.pick, 'run_none');
      const r = await call(app, OPERATOR, 'POST', targetOf(ROUTES.runFork, { params: { runId: source } }), { fromSeq: 0 });
      if (r.status === 201) world.runs[0]!.push(r.json().runId as string);
    }
  }
}

/** One generated read of `route` as `reader`, naming the victim's resources; returns what was sent and answered. */
async function probe(app: FastifyInstance, world: World, p: HttpProbe) {
  const route: CatalogueRoute = ROUTES[p.route];
  const reader = HTTP_TENANTS[p.reader]!;
  const victim = HTTP_TENANTS[p.victim]!;
  const asOperator = p.asOperator && OPERATOR_AS_READER.has(p.route);
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = p.picks;
  const target = pick(world.entries[p.victim]!, a, { ref: `mem://${victim}/notes`, id: 'k' });
  const victimRef = TRANSFORMS[p.transform]!(p.tagged ? target.ref : pick(world.refs[p.victim]!, a, target.ref), reader);
  // An operator acting as the reader reads runs of the reader only; a tenant key names anyone's runs.
  const runId = asOperator ? pick(world.runs[p.reader]!, b, 'run_none') : pick([...world.runs[p.victim]!, 'host-background'], b, 'run_none');
  const tenant = asOperator || p.tenantParam === 'reader' ? reader : p.tenantParam === 'victim' ? victim : undefined;
  const values: Record<string, string | number | undefined> = {
    tenant,
    memoryRef: victimRef,
    id: p.route.startsWith('distillSchedule') ? pick(world.schedules[p.victim]!, c, 'dsch_none') : p.route === 'memoryEntry' || p.withId ? target.id : undefined,
    tag: p.tagged && c % 2 === 0 ? pick(world.tags[p.victim]!, d, undefined) : undefined,
    limit: p.tagged ? undefined : 10,
    fromSeq: e % 4,
    ref: `question:${f}`,
    traceRef: `trace:${f}`,
  };
  const query = Object.fromEntries((route.query ?? []).map((q) => [q, values[q]]));
  const url = targetOf(route, { params: { runId, memoryRef: victimRef, proposalId: pick(world.proposals[p.victim]!, c, 'prop_none'), nodeId: `int_${f}` }, query });
  const bodies: Partial<Record<RouteName, unknown>> = {
    runFork: { fromSeq: e % 4 },
    runInterruptResolve: { resumeValue: { action: f % 2 === 0 ? 'approve' : 'reject' } },
    memorySeed: { memoryRef: victimRef, entries: [{ content: `write by ${reader}` }] },
    testMemorySeed: { memoryRef: victimRef, entries: [{ id: 'k', content: `write by ${reader}` }] },
    testMemoryCompact: { memoryRef: victimRef },
    runStart: { workflowId: 'conformance-agent-memory-roundtrip' },
    consolidate: { memoryRef: victimRef },
    commitmentFire: { memoryRef: victimRef, condition: 'time' },
    memoryRedaction: { memoryRef: victimRef },
    memoryCompact: { memoryRef: victimRef, ...(p.withId ? { sourceIds: [target.id] } : {}) },
    memoryDistill: { memoryRef: victimRef },
    distillSchedule: { memoryRef: victimRef, every: 'PT1H' },
    distillScheduleTick: { tenant: tenant ?? reader },
    questionCancel: { 'question/ref': values.ref },
    proposalRevise: { rationale: `revise by ${reader}` },
  };
  const body = route.method === 'POST' || route.method === 'PATCH' ? (bodies[p.route] ?? {}) : undefined;
  const key = asOperator ? OPERATOR : KEYS[p.reader]!;
  const res = await call(app, key, route.method, url, body);
  return { sent: url + JSON.stringify(body ?? null), res, reader: p.reader, label: `${asOperator ? 'operator as ' : ''}${reader}: ${route.method} ${url} ${JSON.stringify(body ?? '')}` };
}

async function newWorld(o: Partial<HostOptions> = {}): Promise<{ app: FastifyInstance; world: World }> {
  const { app } = await createHost({ credentials: credentials(), ...o });
  const world: World = { refs: HTTP_TENANTS.map(() => []), entries: HTTP_TENANTS.map(() => []), tags: HTTP_TENANTS.map(() => []), runs: HTTP_TENANTS.map(() => []), schedules: HTTP_TENANTS.map(() => []), proposals: HTTP_TENANTS.map(() => []), n: 0 };
  // Every tenant starts with a canary; "conformance" with runs and a fork (what item 1 forked).
  for (let t = 0; t < HTTP_TENANTS.length; t++) await write(app, world, { kind: 'seed', owner: t, scope: 'private', transactional: false, pick: 0 });
  // Every tenant has a proposal whose title, rationale and artefact carry its canary; the first tenant's is applied,
  // so its agent inventory and installed artefact carry one too.
  for (let t = 0; t < HTTP_TENANTS.length; t++) {
    const token = `CNRY${t}x${world.n++}`;
    const r = await call(app, OPERATOR, 'POST', targetOf(ROUTES.proposalSynthesize), { tenant: HTTP_TENANTS[t], kind: 'agent-pack', title: token, rationale: token, artifact: { name: `pack-${token}`, agents: [{ id: `agent-${token}` }] }, sourceRunIds: ['run_none'] });
    expect(r.status, r.text).toBe(201);
    world.proposals[t]!.push((r.json().proposal as { id: string }).id);
  }
  const gate = await call(app, OPERATOR, 'POST', targetOf(ROUTES.proposalApply, { params: { proposalId: world.proposals[0]![0]! } }));
  expect((await call(app, OPERATOR, 'POST', targetOf(ROUTES.proposalGateDecide), { approvalId: (gate.json().gate as { approvalId: string }).approvalId, decision: 'granted' })).status).toBe(200);
  await write(app, world, { kind: 'replay', owner: 0, scope: 'notes', transactional: false, pick: 0 });
  await write(app, world, { kind: 'seed-run', owner: 0, scope: 'notes', transactional: false, pick: 0 });
  await write(app, world, { kind: 'fork', owner: 0, scope: 'notes', transactional: false, pick: 0 });
  return { app, world };
}

/** The HTTP property: writes then reads; a leak is any canary not owned by the reader (and not sent by it). */
const httpProperty = (app: FastifyInstance, world: World, tally: { probes: number; own: Map<string, number>; fiveHundreds: string[] }) =>
  fc.asyncProperty(fc.array(httpWrite, { maxLength: 1 }), fc.array(httpProbe, { minLength: 1, maxLength: 3 }), async (writes, probes) => {
    for (const w of writes) await write(app, world, w);
    for (const p of probes) {
      const { sent, res, reader, label } = await probe(app, world, p);
      tally.probes++;
      if (res.status >= 500) tally.fiveHundreds.push(`${label} → ${res.status}`);
      expect(leaks(res.text, reader, sent), label).toEqual([]);
      tally.own.set(p.route, (tally.own.get(p.route) ?? 0) + ownSeen(res.text, reader));
    }
  });

describe('cross-tenant fuzz: every catalogue route over HTTP', () => {
  it('no canary of one tenant ever reaches another tenant\'s key, nor an operator key acting as another tenant', async () => {
    const { app, world } = await newWorld();
    const tally = { probes: 0, own: new Map<string, number>(), fiveHundreds: [] as string[] };
    try {
      await fc.assert(httpProperty(app, world, tally), { numRuns: 3000 });
    } finally {
      await app.close();
    }
    expect(tally.probes).toBeGreaterThan(3000);
    expect(tally.fiveHundreds).toEqual([]);
    // Positive controls: owners do read their canaries back through the read interface and through their runs.
    for (const r of ['memoryEntries', 'memoryEntry', 'runMemory'] as const) expect(tally.own.get(r) ?? 0, `positive control: ${r}`).toBeGreaterThan(0);
  });

  it('is not blind: with the crossTenantRead mutation (read seams serve the ref\'s tenant) it finds a leak', async () => {
    const { app, world } = await newWorld({ mutations: { crossTenantRead: true } });
    const tally = { probes: 0, own: new Map<string, number>(), fiveHundreds: [] as string[] };
    try {
      const out = await fc.check(httpProperty(app, world, tally), { numRuns: 2000 });
      expect(out.failed).toBe(true);
    } finally {
      await app.close();
    }
  });
});
