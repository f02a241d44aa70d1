import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { admitContext, admitTraining, GrantError, Grants, type ContextGrant, type GrantView, type TrainingFeedback } from '../../../runtime/inquirium/grants.ts';
import { assembleContext, ContextDeniedError, type ContextElement, type ContextResolver } from '../../../runtime/inquirium/context-assembly.ts';
import { CLASSIFICATIONS, classificationAxis } from '../../../runtime/inquirium/lattice.ts';
import { ManualClock, toIso } from '../../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { BACKENDS, type TwoHosts } from './two-hosts.ts';
import { unitOfWork, type Tx } from '../../../runtime/storage/index.ts';
import { commitDetached, detachedTx } from '../../../runtime/storage/unit-of-work.ts';

const P = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const OTHER = 'participant:did:key:z6MkOther1111111111111111111111111111111111111';
const HOUR = 3_600_000;
const contextGrant = (over: Partial<ContextGrant> = {}, now = 0): ContextGrant => ({
  schema: 'inquirium.context-grant.issue.request.v1', 'grant/ref': 'grant/ctx/notes', 'participant/ref': P, 'session/ref': 'session:local',
  'source/kind': 'memarium', 'source/ref': 'memarium:notes', 'classification/ceiling': 'community', 'expires/at': toIso(now + HOUR), ...over,
});
const revoke = (ref: string) => ({ schema: 'inquirium.context-grant.revoke.request.v1', 'grant/ref': ref, 'reason/code': 'operator-revoked' });
const commit = (port: StoragePort, f: (tx: Tx) => Promise<unknown>) => unitOfWork(port, f);
const element = (sourceRef: string, grantRef: string, id: string, classification: string): ContextElement => ({
  schema: 'inquirium.context-element.v1', 'element/id': id, 'source/kind': 'memarium', 'source/ref': sourceRef, classification: classification as ContextElement['classification'], content: [{ type: 'text', text: `fact ${id}` }], 'grant/ref': grantRef,
});
/** A gate holding facts per source; it also slips in one element of another source, which admission must catch. */
const gate = (facts: Map<string, ContextElement[]>): ContextResolver => ({
  resolve: async (_source, grant) => [...(facts.get(grant['source/ref']) ?? []), element('memarium:stray', grant['grant/ref'], `stray-${grant['grant/ref']}`, 'public')],
});
const use = (nowMs: number, over: object = {}) => ({ participant: P, session: 'session:local', nowMs, onDenied: 'drop_with_trace' as const, ...over });

describe('context and training grants', () => {
  it('two issues of one ref racing (each read it absent): one is issued, the other re-runs from its reads and is refused grant-exists', async () => {
    const port = await openMemoryStore();
    const grants = new Grants(new ManualClock(1_000));
    const first = detachedTx(port);
    await grants.planIssue(first, 'context', contextGrant({}, 1_000));
    // The second reads the ref absent too, and commits first; the first then re-runs and meets the issued grant.
    let runs = 0;
    const raced = unitOfWork(port, async (tx) => {
      runs++;
      const g = await grants.planIssue(tx, 'context', contextGrant({}, 1_000));
      if (runs === 1) await commitDetached(first, port);
      return g;
    });
    await expect(raced).rejects.toMatchObject({ code: 'grant-exists', status: 409 });
    expect(runs).toBe(2);
    expect(await grants.get(detachedTx(port), 'context', 'grant/ctx/notes')).toBeDefined();
  });

  it('issues and revokes through a plan; an existing ref, an unknown ref and an already-expired grant are refused', async () => {
    const port = await openMemoryStore();
    const clock = new ManualClock(1_000);
    const grants = new Grants(clock);
    await commit(port, (p) => grants.planIssue(p, 'context', contextGrant({}, 1_000)));
    await expect(grants.planIssue(detachedTx(port), 'context', contextGrant({}, 1_000))).rejects.toMatchObject({ code: 'grant-exists', status: 409 });
    await expect(grants.planIssue(detachedTx(port), 'context', contextGrant({ 'grant/ref': 'grant/b', 'expires/at': toIso(1_000) }))).rejects.toMatchObject({ code: 'grant-already-expired', status: 400 });
    await expect(grants.planRevoke(detachedTx(port), 'context', revoke('grant/none'))).rejects.toBeInstanceOf(GrantError);
    expect(await commit(port, (p) => grants.planRevoke(p, 'context', revoke('grant/ctx/notes')))).toBe(true);
    const again = detachedTx(port);
    expect(await grants.planRevoke(again, 'context', revoke('grant/ctx/notes'))).toBe(false);
    expect(again.size).toBe(0);
    expect((await grants.get(detachedTx(port), 'context', 'grant/ctx/notes'))?.revoked?.reason).toBe('operator-revoked');
    // Another tenant does not see this tenant's grant.
    expect(await grants.forTenant('other').get(detachedTx(port), 'context', 'grant/ctx/notes')).toBeUndefined();
  });

  it('a grant admits only its participant, session and source, up to its ceiling, and protected egress only with an acknowledgement', () => {
    const view: GrantView<'context'> = { kind: 'context', grant: contextGrant(), issuedMs: 0 };
    const el = element('memarium:notes', 'grant/ctx/notes', 'e1', 'community');
    expect(admitContext(view, el, use(0))).toEqual({ admit: true });
    expect(admitContext(view, el, use(0, { participant: OTHER }))).toEqual({ admit: false, reason: 'grant-participant-mismatch' });
    expect(admitContext(view, el, use(0, { session: 'session:other' }))).toEqual({ admit: false, reason: 'grant-session-mismatch' });
    expect(admitContext(view, { ...el, 'source/ref': 'memarium:diary' }, use(0))).toEqual({ admit: false, reason: 'grant-source-mismatch' });
    expect(admitContext(view, { ...el, 'source/kind': 'messaging' }, use(0))).toEqual({ admit: false, reason: 'grant-source-mismatch' });
    expect(admitContext(view, { ...el, classification: 'personal' }, use(0))).toEqual({ admit: false, reason: 'above-grant-ceiling' });
    expect(admitContext(view, el, use(0, { remote: true }))).toEqual({ admit: false, reason: 'egress-not-acknowledged' });
    expect(admitContext({ ...view, grant: contextGrant({ 'egress/ack/ref': 'ack/1' }) }, el, use(0, { remote: true }))).toEqual({ admit: true });
    expect(admitContext(view, { ...el, classification: 'public' }, use(0, { remote: true }))).toEqual({ admit: true });
    expect(admitContext(view, el, use(HOUR))).toEqual({ admit: false, reason: 'grant-expired' });
    expect(admitContext({ ...view, revoked: { atMs: 1 } }, el, use(0))).toEqual({ admit: false, reason: 'grant-revoked' });
    const { 'grant/ref': _g, ...ungranted } = el;
    expect(admitContext(view, ungranted, use(0))).toEqual({ admit: false, reason: 'grant-missing' });
    expect(admitContext(undefined, el, use(0))).toEqual({ admit: false, reason: 'grant-unknown' });
  });

  /** A feedback fact as a training admission reads it (flagged unless `flag` says otherwise). */
  const fb = (participant: string, id: string, flag: boolean | 'absent' = true): TrainingFeedback =>
    ({ 'feedback/id': id, 'participant/ref': participant, ...(flag === 'absent' ? {} : { 'training/candidate': flag }) });

  it('a training grant is separate: live, bound to its participant and its one feedback fact, and used only for feedback flagged as a candidate', async () => {
    const port = await openMemoryStore();
    const clock = new ManualClock(0);
    const grants = new Grants(clock);
    const t = { schema: 'inquirium.training-grant.issue.request.v1', 'grant/ref': 'grant/train/1', 'participant/ref': P, 'feedback/ref': 'feedback:1', 'expires/at': toIso(HOUR) };
    await commit(port, (p) => grants.planIssue(p, 'training', t));
    // A context grant of the same ref is another grant: the kinds do not share records.
    expect(await grants.get(detachedTx(port), 'context', 'grant/train/1')).toBeUndefined();
    const view = await grants.get(detachedTx(port), 'training', 'grant/train/1');
    expect(admitTraining(view, { feedback: fb(P, 'feedback:1'), nowMs: 0 })).toEqual({ admit: true });
    // P066 8.3: the grant alone admits nothing; the feedback itself must carry the operator's flag.
    for (const flag of [false, 'absent'] as const) expect(admitTraining(view, { feedback: fb(P, 'feedback:1', flag), nowMs: 0 })).toEqual({ admit: false, reason: 'feedback-not-flagged' });
    expect(admitTraining(view, { feedback: fb(P, 'feedback:2'), nowMs: 0 })).toEqual({ admit: false, reason: 'grant-feedback-mismatch' });
    expect(admitTraining(view, { feedback: fb(OTHER, 'feedback:1'), nowMs: 0 })).toEqual({ admit: false, reason: 'grant-participant-mismatch' });
    expect(admitTraining(view, { feedback: fb(P, 'feedback:1'), nowMs: HOUR })).toEqual({ admit: false, reason: 'grant-expired' });
    await commit(port, (p) => grants.planRevoke(p, 'training', { schema: 'inquirium.training-grant.revoke.request.v1', 'grant/ref': 'grant/train/1' }));
    expect(admitTraining(await grants.get(detachedTx(port), 'training', 'grant/train/1'), { feedback: fb(P, 'feedback:1'), nowMs: 0 })).toEqual({ admit: false, reason: 'grant-revoked' });
  });

  it('a grant past its expiry or above its classification ceiling is never used (property)', async () => {
    const label = fc.oneof(fc.constantFrom(...CLASSIFICATIONS), fc.constantFrom('secret', ''));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CLASSIFICATIONS), fc.integer({ min: 1, max: 10 * HOUR }), fc.array(fc.record({ cls: label, at: fc.integer({ min: 0, max: 12 * HOUR }) }), { minLength: 1, maxLength: 8 }), fc.boolean(), async (ceiling, ttl, uses, failClosed) => {
        const port = await openMemoryStore();
        const clock = new ManualClock(0);
        const grants = new Grants(clock);
        await commit(port, (p) => grants.planIssue(p, 'context', contextGrant({ 'classification/ceiling': ceiling, 'expires/at': toIso(ttl) })));
        for (const [i, u] of uses.entries()) {
          const el = element('memarium:notes', 'grant/ctx/notes', `e${i}`, u.cls);
          const usable = u.at < ttl && classificationAxis.rank(u.cls) <= classificationAxis.rank(ceiling);
          const view = await grants.get(detachedTx(port), 'context', 'grant/ctx/notes');
          expect(admitContext(view, el, use(u.at)).admit).toBe(usable);
          const run = () => assembleContext(detachedTx(port), grants, { schema: 'inquirium.context-assembly.request.v1', sources: [{ 'source/kind': 'memarium', 'grant/ref': 'grant/ctx/notes' }] }, use(u.at, failClosed ? { onDenied: 'fail_closed' } : {}), { resolve: async () => (CLASSIFICATIONS as readonly string[]).includes(u.cls) ? [el] : [{ ...el, classification: 'personal' }] });
          const effective = (CLASSIFICATIONS as readonly string[]).includes(u.cls) ? u.cls : 'personal';
          const fits = u.at < ttl && classificationAxis.rank(effective) <= classificationAxis.rank(ceiling);
          if (failClosed && !fits) await expect(run()).rejects.toBeInstanceOf(ContextDeniedError);
          else expect((await run()).elements.map((e) => e['element/id'])).toEqual(fits ? [`e${i}`] : []);
        }
        await port.close();
      }),
      { numRuns: 60 },
    );
  });
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`grants across hosts (${backend.name})`, () => {
    let hosts: TwoHosts;
    let run = 0;
    beforeAll(async () => { hosts = await backend.open('grants'); });
    afterAll(() => hosts?.done());

    it('after a context-grant revoke commits on one host, no context assembled on another holds a fact from that source (property)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.record({ revoked: fc.boolean(), cls: fc.array(fc.constantFrom(...CLASSIFICATIONS), { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 5 }), async (sources) => {
          const tenant = `t${++run}`;
          const clock = new ManualClock(0);
          const [a, b] = [new Grants(clock, tenant), new Grants(clock, tenant)];
          const facts = new Map<string, ContextElement[]>();
          for (const [i, s] of sources.entries()) {
            const ref = `grant/ctx/${i}`;
            facts.set(`memarium:s${i}`, s.cls.map((c, j) => element(`memarium:s${i}`, ref, `s${i}e${j}`, c)));
            await commit(hosts.a, (p) => a.planIssue(p, 'context', contextGrant({ 'grant/ref': ref, 'source/ref': `memarium:s${i}`, 'classification/ceiling': 'personal' })));
          }
          const request = { schema: 'inquirium.context-assembly.request.v1', sources: sources.map((_, i) => ({ 'source/kind': 'memarium', 'grant/ref': `grant/ctx/${i}` })) };
          // Before: host B sees every granted source.
          expect((await assembleContext(detachedTx(hosts.b), b, request, use(0), gate(facts))).elements).toHaveLength(sources.reduce((n, s) => n + s.cls.length, 0));
          for (const [i, s] of sources.entries()) if (s.revoked) await commit(hosts.a, (p) => a.planRevoke(p, 'context', revoke(`grant/ctx/${i}`)));
          const after = await assembleContext(detachedTx(hosts.b), b, request, use(0), gate(facts));
          const revokedSources = new Set(sources.flatMap((s, i) => (s.revoked ? [`memarium:s${i}`] : [])));
          expect(after.elements.filter((e) => revokedSources.has(e['source/ref']!))).toEqual([]);
          expect(after.elements.some((e) => e['source/ref'] === 'memarium:stray')).toBe(false);
          expect(after.elements).toHaveLength(sources.reduce((n, s) => n + (s.revoked ? 0 : s.cls.length), 0));
          expect(after.decisions.filter((d) => d.reason === 'grant-revoked')).toHaveLength(revokedSources.size);
        }),
        { numRuns: backend.name === 'in-memory' ? 40 : 15 },
      );
    });
  });
}
