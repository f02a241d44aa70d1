/**
 * Issue 24, item 6: one rule for operator keys (auth-binding.ts tenantActedAs). An operator key that names no
 * tenant acts as tenant `default` on every route — the same as naming `?tenant=default` — instead of acting as
 * nobody on the list routes while it starts runs as `default`. Checked on every row that reads a `tenant` query
 * parameter, against data planted for `default` (so an empty answer on both sides cannot pass).
 */
import { describe, expect, it } from 'vitest';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { OPERATOR_DEFAULT_TENANT, tenantActedAs } from '../../runtime/host/auth-binding.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES, targetOf, type CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';

const OPERATOR = 'default-tenant-operator-0123456789';
const TENANT = 'default-tenant-tenant-key-0123456789';
const H = { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' };
const REF = `mem://${OPERATOR_DEFAULT_TENANT}/operator-default`;

describe('an operator key without ?tenant= acts as tenant default', () => {
  it('the rule: tenant keys act as their own tenant, operators as the named one or default', () => {
    expect(tenantActedAs({ role: 'tenant', tenant: 'acme', keyId: 'k' }, 'other')).toBe('acme');
    expect(tenantActedAs({ role: 'operator', keyId: 'o' }, 'acme')).toBe('acme');
    expect(tenantActedAs({ role: 'operator', keyId: 'o' }, undefined)).toBe(OPERATOR_DEFAULT_TENANT);
  });

  it('every row with a tenant parameter answers the same without it as with tenant=default, and not as another tenant', async () => {
    const { app } = await createHost({ credentials: new Credentials(parseApiKeysEnv(`${OPERATOR}=*:operator,${TENANT}=acme:tenant`)) });
    try {
      const post = async (route: CatalogueRoute, body: unknown) => {
        const r = await app.inject({ method: route.method, url: route.path, headers: H, payload: JSON.stringify(body) });
        expect(r.statusCode, `${route.path}: ${r.body}`).toBeLessThan(300);
        return r.json() as Record<string, unknown>;
      };
      // Data of tenant default: a proposal, memory entries, a distillation schedule.
      await post(ROUTES.proposalSynthesize, { tenant: OPERATOR_DEFAULT_TENANT, kind: 'prompt-template', artifact: { name: 'n', version: '1.0.0', template: 't', variables: [] }, sourceRunIds: ['r1'] });
      const seeded = await post(ROUTES.memorySeed, { memoryRef: REF, entries: [{ content: 'planted for default' }] });
      const entryId = (seeded.entries as { id: string }[])[0]!.id;
      const schedule = await post(ROUTES.distillSchedule, { memoryRef: REF, every: 'P1D' });
      const others: Record<string, Record<string, string>> = {
        memoryEntries: { memoryRef: REF },
        memoryEntry: { memoryRef: REF, id: entryId },
        distillScheduleRead: { id: String(schedule.scheduleId) },
      };
      const rows = (Object.entries(ROUTES) as [string, CatalogueRoute][]).filter(([, r]) => (r.query ?? []).includes('tenant'));
      expect(rows.map(([n]) => n).sort()).toEqual(['agents', 'distillScheduleRead', 'memoryEntries', 'memoryEntry', 'proposals']);
      for (const [name, route] of rows) {
        const get = async (tenant?: string) => {
          const r = await app.inject({ method: 'GET', url: targetOf(route, { query: { ...others[name], ...(tenant !== undefined ? { tenant } : {}) } }), headers: H });
          return { status: r.statusCode, body: r.json() as unknown };
        };
        const unnamed = await get();
        const named = await get(OPERATOR_DEFAULT_TENANT);
        expect(named.status, name).toBe(200);
        expect(unnamed, name).toEqual(named);
        if (name !== 'agents') expect(await get('someone-else'), name).not.toEqual(named); // the planted data is default's only
      }
      // The list that was empty before this rule: the operator sees default's proposal without naming the tenant.
      const list = await app.inject({ method: 'GET', url: ROUTES.proposals.path, headers: H });
      expect((list.json() as { proposals: unknown[] }).proposals).toHaveLength(1);
      // A tenant key still acts as its own tenant only.
      const mine = await app.inject({ method: 'GET', url: ROUTES.proposals.path, headers: { authorization: `Bearer ${TENANT}` } });
      expect((mine.json() as { proposals: unknown[] }).proposals).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
