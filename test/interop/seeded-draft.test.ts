/**
 * OPENWOP_CONFORMANCE_SEED also seeds one draft proposal for tenant `default` (the tenant an operator key acts as), so
 * upstream's proposal scenario finds a draft to apply on a fresh host. Seeding is idempotent across hosts: however
 * many hosts seed at once and however often, exactly one seeded draft is left in state draft.
 */
import { describe, expect, it } from 'vitest';
import type { Proposal } from '../../generated/ts/index.ts';
import { createInquiriumRuntime } from '../../runtime/inquirium/index.ts';
import { createHost } from '../../runtime/host/server.ts';
import { createHostRuntime } from '../../runtime/host/reference-runtime.ts';
import { SEEDED_DRAFT, withWorkflowRuns } from '../../runtime/host/workflow-runs.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { openRuntime } from '../runtime/support.ts';
import { unitOfWork } from '../../runtime/storage/index.ts';

const TOKEN = 'seeded-draft-token-0123456789';

describe('the seeded draft proposal', () => {
  it('an operator key lists it as a draft of tenant default; applying it opens the approval gate and leaves it a draft', async () => {
    const { app } = await createHost({ token: TOKEN, seedConformanceFixtures: true });
    try {
      const auth = { authorization: `Bearer ${TOKEN}` };
      const list = await app.inject({ method: 'GET', url: `${ROUTES.proposals.path}?state=draft`, headers: auth });
      const drafts = list.json<{ proposals: Proposal[] }>().proposals;
      expect(drafts).toEqual([expect.objectContaining({ kind: 'workflow-chain-pack', state: 'draft', title: SEEDED_DRAFT.request.title, owner: { tenant: 'default' }, artifact: SEEDED_DRAFT.request.artifact })]);
      const applied = await app.inject({ method: 'POST', url: ROUTES.proposalApply.path.replace('{proposalId}', drafts[0]!.id), headers: { ...auth, 'content-type': 'application/json' }, payload: '{}' });
      expect(applied.statusCode).toBe(200);
      expect(applied.json()).toMatchObject({ proposal: { state: 'draft' }, gate: { state: 'pending' } });
    } finally {
      await app.close();
    }
  });

  it('hosts seeding one store at once, and again, leave exactly one seeded draft', async () => {
    const { rt, port, clock } = await openRuntime();
    const hosts = await Promise.all([0, 1, 2].map(async (i) => {
      const { rt: r } = i === 0 ? { rt } : await openRuntime({ port, clock });
      return withWorkflowRuns(createHostRuntime(r, createInquiriumRuntime({ port, clock })), r);
    }));
    await Promise.all(hosts.map((h) => h.seedFixtures()));
    await Promise.all(hosts.map((h) => h.seedFixtures()));
    const drafts = await unitOfWork(port, (tx) => hosts[0]!.listProposals(tx, 'default', { state: 'draft' }));
    expect(drafts.filter((p) => p.title === SEEDED_DRAFT.request.title)).toHaveLength(1);
    // a seeded draft that left the draft state (here: rejected) is replaced at the next seeding, once
    await unitOfWork(port, (tx) => hosts[1]!.rejectProposal(tx, { tenant: 'default', scopes: 'all' }, drafts[0]!.id));
    await Promise.all(hosts.map((h) => h.seedFixtures()));
    expect((await unitOfWork(port, (tx) => hosts[2]!.listProposals(tx, 'default', { state: 'draft' }))).filter((p) => p.title === SEEDED_DRAFT.request.title)).toHaveLength(1);
  });
});
