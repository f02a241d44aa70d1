/**
 * RFC 0096 state survives a restart on SQLite (issue 13): proposals (with their revision and state), approval gates
 * (a pending one can still be decided after the restart) and the installed-artefact registry (the agent inventory
 * still resolves an applied agent pack) live in the store and read back after the restart byte-identical.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HostRuntime } from '../../runtime/host/host-runtime.ts';
import { createHost } from '../../runtime/host/server.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import { unitsOf, type StoragePort } from '../../runtime/storage/index.ts';
import { actor, request } from '../runtime/proposals/setup.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-proposals-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const clock = { now: () => Date.parse('2026-06-01T00:00:00.000Z') };
const startHost = async () => createHost({ token: 'proposals-restart-token-0123456789', clock, storage: await openStore({ kind: 'sqlite', dataDir }), logger: false });
const ACME = actor('acme');

const view = async (rt: HostRuntime, store: StoragePort, ids: readonly string[]) => JSON.stringify({
  proposals: await Promise.all(ids.map((id) => unitsOf(store)((tx) => rt.proposal(tx, ACME, id)))),
  listed: await unitsOf(store)((tx) => rt.listProposals(tx, 'acme', {})),
  installed: await unitsOf(store)((tx) => rt.installedArtifact(tx, ACME, ids[0]!)),
  agents: await unitsOf(store)((tx) => rt.agentInventory(tx, 'acme')),
});

describe('proposals across a restart on SQLite', () => {
  it('keeps proposals, gates and installed artefacts; a gate left pending is decided after the restart', async () => {
    let { app, runtime, store } = await startHost();
    const applied = (await unitsOf(store)((tx) => runtime.synthesizeProposal(tx, request({ tenant: 'acme' })))).proposal;
    const granted = await unitsOf(store)((tx) => runtime.applyProposal(tx, ACME, applied.id));
    await unitsOf(store)((tx) => runtime.decideProposalGate(tx, { approvalId: granted.gate!.approvalId, decision: 'granted' }, 'operator'));
    const pending = (await unitsOf(store)((tx) => runtime.synthesizeProposal(tx, request({ tenant: 'acme', title: 'Second pack', artifact: { name: 'second-pack', version: '1.0.0', agents: [{ id: 'acme.second', persona: 'Second', memoryShape: { longTerm: true } }] } })))).proposal;
    const gate = (await unitsOf(store)((tx) => runtime.applyProposal(tx, ACME, pending.id))).gate!;
    expect(gate.state).toBe('pending');
    const ids = [applied.id, pending.id];
    const before = await view(runtime, store, ids);
    expect(JSON.parse(before).installed).toMatchObject({ proposalId: applied.id });
    await app.close();

    ({ app, runtime, store } = await startHost());
    expect(await view(runtime, store, ids)).toBe(before);
    const decided = await unitsOf(store)((tx) => runtime.decideProposalGate(tx, { approvalId: gate.approvalId, decision: 'granted' }, 'operator'));
    expect(decided.proposal.state).toBe('applied');
    await app.close();

    ({ app, runtime, store } = await startHost());
    expect((await unitsOf(store)((tx) => runtime.proposal(tx, ACME, pending.id))).state).toBe('applied');
    expect((await unitsOf(store)((tx) => runtime.agentInventory(tx, 'acme'))).agents.map((a) => a.agentId)).toEqual(expect.arrayContaining(['acme.triage', 'acme.second']));
    await app.close();
  });
});
