/**
 * The two RFC 0096 SECURITY invariants as properties over random operation sequences:
 * - proposal-inert-until-applied: at every step the installed-artefact registry (what runs and the agent inventory
 *   resolve from) holds exactly the artefacts of the applied proposals — nothing of a draft, revised, rejected or
 *   archived one, whatever was asked, denied, superseded or refused on the way;
 * - proposal-no-resynthesis: what apply installs is the artefact last persisted on the proposal, byte for byte.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { agentInventory, BUILT_IN_AGENTS } from '../../../runtime/openwop/agent-inventory.ts';
import { DEFAULT_ACTIVATION_SCOPE } from '../../../runtime/proposals/service.ts';
import { actor, request, setup, TENANT, type Env } from './setup.ts';

const jsonish = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const agentId = fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}$/);
const pack = fc.record({
  extra: fc.dictionary(fc.string({ maxLength: 8 }), jsonish, { maxKeys: 3 }),
  name: fc.string({ minLength: 1, maxLength: 30 }),
  agents: fc.array(fc.record({ id: agentId, memoryShape: fc.record({ longTerm: fc.boolean() }, { requiredKeys: [] }) }), { minLength: 1, maxLength: 2 }),
}).map(({ extra, name, agents }) => ({ ...extra, name, agents }));

type Op =
  | { op: 'synthesize'; artifact: Record<string, unknown> }
  | { op: 'revise'; i: number; artifact: Record<string, unknown> }
  | { op: 'reject' | 'archive' | 'apply' | 'applyWithoutScope'; i: number }
  | { op: 'decide'; i: number; decision: 'granted' | 'denied' | 'overridden' };
const ops: fc.Arbitrary<Op[]> = fc.array(fc.oneof(
  pack.map((artifact): Op => ({ op: 'synthesize', artifact })),
  fc.record({ i: fc.nat(5), artifact: pack }).map(({ i, artifact }): Op => ({ op: 'revise', i, artifact })),
  fc.record({ i: fc.nat(5), op: fc.constantFrom('reject', 'archive', 'apply', 'applyWithoutScope') as fc.Arbitrary<'reject' | 'archive' | 'apply' | 'applyWithoutScope'> }),
  fc.record({ i: fc.nat(5), decision: fc.constantFrom('granted', 'denied', 'overridden') as fc.Arbitrary<'granted' | 'denied' | 'overridden'> }).map((r): Op => ({ op: 'decide', ...r })),
), { maxLength: 25 });

async function play(mode: 'approval-gate' | 'direct-rbac', sequence: readonly Op[], onStep: (s: Env, ids: readonly string[], gates: readonly string[]) => Promise<void>) {
  const s = await setup({ mode });
  try {
    const ids: string[] = [];
    const gates: string[] = [];
    const scoped = actor(TENANT, [DEFAULT_ACTIVATION_SCOPE]);
    for (const o of sequence) {
      try {
        if (o.op === 'synthesize') ids.push((await s.service.synthesize(request({ artifact: o.artifact }))).proposal.id);
        else if (ids.length === 0) continue;
        else if (o.op === 'revise') await s.service.revise(actor(), ids[o.i % ids.length]!, { artifact: o.artifact });
        else if (o.op === 'reject') await s.service.reject(actor(), ids[o.i % ids.length]!);
        else if (o.op === 'archive') await s.service.archive(actor(), ids[o.i % ids.length]!);
        else if (o.op === 'apply') { const g = (await s.service.apply(scoped, ids[o.i % ids.length]!)).gate; if (g) gates.push(g.approvalId); }
        else if (o.op === 'applyWithoutScope') await s.service.apply(actor(), ids[o.i % ids.length]!);
        else if (o.op === 'decide' && gates.length > 0) await s.service.decide(gates[o.i % gates.length]!, o.decision, { decidedBy: 'approver', reason: 'audited' });
      } catch (e) {
        // Refusals (illegal transitions, missing scope, stale gates) are part of the sequence; anything else is a bug.
        expect([403, 404, 409]).toContain((e as { status?: number }).status);
      }
      await onStep(s, ids, gates);
    }
  } finally {
    await s.close();
  }
}

describe('proposal-inert-until-applied', () => {
  for (const mode of ['approval-gate', 'direct-rbac'] as const) {
    it(`${mode}: after every step, the installed artefacts are exactly those of applied proposals, and the inventory lists nothing else`, async () => {
      await fc.assert(fc.asyncProperty(ops, async (sequence) => {
        await play(mode, sequence, async ({ service, installed }) => {
          const all = await service.list(TENANT);
          const applied = all.filter((p) => p.state === 'applied').map((p) => p.id).sort();
          const inRegistry = (await installed.list(TENANT)).map((a) => a.proposalId).sort();
          expect(inRegistry).toEqual(applied);
          const packs = await installed.list(TENANT, 'agent-pack');
          const listed = agentInventory(packs, {}).agents.map((a) => a.agentId);
          const expected = [...BUILT_IN_AGENTS.map((a) => a.agentId), ...all.filter((p) => p.state === 'applied').flatMap((p) => (p.artifact.agents as { id: string }[]).map((a) => a.id))];
          expect(listed.sort()).toEqual(expected.sort());
        });
      }), { numRuns: 60 });
    });
  }
});

describe('proposal-no-resynthesis', () => {
  it('the installed artefact is the JSON text last persisted on the proposal, byte for byte, and equals the last revision sent', async () => {
    await fc.assert(fc.asyncProperty(pack, fc.array(pack, { maxLength: 4 }), fc.constantFrom('approval-gate', 'direct-rbac'), async (first, revisions, mode) => {
      const s = await setup({ mode });
      const { proposal } = await s.service.synthesize(request({ artifact: first }));
      for (const r of revisions) await s.service.revise(actor(), proposal.id, { artifact: r });
      const persisted = await s.service.get(actor(), proposal.id);
      const out = await s.service.apply(actor(TENANT, [DEFAULT_ACTIVATION_SCOPE]), proposal.id);
      if (out.gate) await s.service.decide(out.gate.approvalId, 'granted', { decidedBy: 'approver' });
      const [installed] = await s.installed.list(TENANT);
      expect(installed!.artifactJson).toBe(JSON.stringify(persisted.artifact));
      expect(JSON.parse(installed!.artifactJson)).toEqual(JSON.parse(JSON.stringify(revisions.at(-1) ?? first)));
      expect((await s.service.installed(actor(), proposal.id)).artifact).toEqual(persisted.artifact);
    }), { numRuns: 80 });
  });
});
