/** Agent memory invariants: CTI-1 cross-tenant probe (with a positive control), SR-1 read-back, TTL expiry. */
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import type { Scenario } from '../scenario.ts';
import * as gate from './gates.ts';
import { unique, sleep, freshScope } from './util.ts';


export const memoryScenarios: Scenario[] = [
  {
    id: 'agent-memory-cross-tenant-isolation',
    title: "A tenant's adapter never returns another tenant's entries, and malformed refs return nothing",
    rfc: 'agent-memory spec §CTI-1',
    profile: 'agent-memory',
    gate: gate.longTerm,
    async run(t) {
      t.req('openwop.requirement.proposed.agent-memory.cti1-cross-tenant-isolation');
      const tb = `tenant-b-${unique()}`;
      const refB = `mem://${tb}/agent-1`;
      const seeded = await t.call<{ entries: { id: string }[] }>(ROUTES.memorySeed, { body: { memoryRef: refB, entries: [{ content: 'tenant B private plan' }] } });
      t.equal(seeded.status, 200, 'seed status');
      const id = seeded.body.entries[0]!.id;
      const control = await t.call<{ entries: { id: string }[] }>(ROUTES.memoryEntries, { query: { tenant: tb, memoryRef: refB } });
      t.check(control.body.entries.some((e) => e.id === id), 'positive control: tenant B does not see its own entry');
      const probe = await t.call<{ entries: unknown[] }>(ROUTES.memoryEntries, { query: { tenant: 'tenant-a-probe', memoryRef: refB } });
      t.equal(probe.body.entries, [], 'tenant A list of a tenant-B ref');
      t.req('openwop.requirement.proposed.agent-memory.cti1-gate-per-adapter');
      const probeGet = await t.call(ROUTES.memoryEntry, { query: { tenant: 'tenant-a-probe', memoryRef: refB, id } }, { seam: false, refusal: true });
      t.equal(probeGet.status, 404, 'tenant A get of a tenant-B entry');
      t.req('openwop.requirement.proposed.agent-memory.cti1-validate-ref-shape');
      for (const hostile of [`mem://${tb}/../${tb}/agent-1`, `mem://${tb}/agent-1\u0000`, `mem://${tb}//agent-1`, `${refB}?x=1`, 'x'.repeat(2000)]) {
        const r = await t.call<{ entries: unknown[] }>(ROUTES.memoryEntries, { query: { tenant: tb, memoryRef: hostile } });
        t.check(r.status < 500 && Array.isArray(r.body.entries) && r.body.entries.length === 0, `hostile ref ${JSON.stringify(hostile.slice(0, 40))} returned entries or failed`);
      }
    },
  },
  {
    id: 'agent-memory-redaction',
    title: 'A BYOK-resolved secret written to memory reads back as [REDACTED:<secretId>]',
    rfc: 'agent-memory spec §SR-1',
    profile: 'agent-memory',
    gate: gate.longTerm,
    async run(t) {
      t.req('openwop.requirement.proposed.agent-memory.sr1-secret-redaction');
      const { tenant, memoryRef } = freshScope();
      const fx = await t.call<{ memoryId: string; secretId: string; secretValue: string }>(ROUTES.memoryRedaction, { body: { memoryRef } });
      const entry = await t.call<{ content: string }>(ROUTES.memoryEntry, { query: { tenant, memoryRef, id: fx.body.memoryId } });
      t.check(entry.body.content.includes(`[REDACTED:${fx.body.secretId}]`), 'the entry does not carry the redaction marker');
      t.check(!entry.body.content.includes(fx.body.secretValue), 'the plaintext secret was persisted');
    },
  },
  {
    id: 'agent-memory-ttl-expiry',
    title: 'An entry past expiresAt never surfaces from list or get',
    rfc: 'agent-memory spec §TTL semantics',
    profile: 'agent-memory',
    gate: gate.ttl,
    async run(t) {
      t.req('openwop.requirement.proposed.agent-memory.ttl-expired-never-surfaces');
      const { tenant, memoryRef } = freshScope();
      const seeded = await t.call<{ entries: { id: string; expiresAt?: string }[] }>(ROUTES.memorySeed, { body: { memoryRef, entries: [{ content: 'short-lived', ttlSeconds: 1 }, { content: 'long-lived' }] } });
      const short = seeded.body.entries[0]!;
      t.check(typeof short.expiresAt === 'string', 'the TTL entry has no expiresAt');
      const before = await t.call<{ entries: { id: string }[] }>(ROUTES.memoryEntries, { query: { tenant, memoryRef } });
      t.check(before.body.entries.some((e) => e.id === short.id), 'the TTL entry should surface before expiry');
      await sleep(Math.max(0, Date.parse(short.expiresAt ?? '') - Date.now()) + 50);
      const after = await t.call<{ entries: { id: string }[] }>(ROUTES.memoryEntries, { query: { tenant, memoryRef } });
      t.check(!after.body.entries.some((e) => e.id === short.id), 'an expired entry surfaced from list');
      t.equal(after.body.entries.length, 1, 'the unexpired entry still surfaces');
      const got = await t.call(ROUTES.memoryEntry, { query: { tenant, memoryRef, id: short.id } }, { seam: false, refusal: true });
      t.equal(got.status, 404, 'an expired entry surfaced from get');
    },
  },
];
