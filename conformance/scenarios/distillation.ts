/**
 * Client-requested distillation (RFC 0062 as the agent-memory spec states it) through the distill seam: within the
 * budget, refused atomically when the budget cannot be met, byte-stable, with a retrievable index.
 */
import { createHash } from 'node:crypto';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import type { Scenario } from '../scenario.ts';
import * as gate from './gates.ts';
import { freshScope } from './util.ts';

interface Distilled {
  archiveId: string;
  archiveChecksum?: string;
  event: { outputId: string; distillation?: { tokenBudget: number; tokensUsed: number; indexUpdated?: boolean } };
  indexFile?: { path: string; content: { archives: { archiveId: string }[] } };
}
const sha256 = (s: string): string => `sha256:${createHash('sha256').update(s, 'utf8').digest('hex')}`;
const TICKETS = ['Ticket 1: the customer asked for a refund.', 'Ticket 2: the refund was approved.', 'Ticket 3: follow up by email.'];

export const distillationScenarios: Scenario[] = [
  {
    id: 'memory-distillation-client-requested',
    title: 'A requested distillation stays within its budget, is byte-stable, updates a retrievable index, and an un-meetable budget writes nothing',
    rfc: 'Agent memory spec, scheduled distillation rules 2, 4, 5 (RFC 0062)',
    profile: 'distillation',
    gate: gate.distillation,
    async run(t) {
      t.req('openwop.requirement.proposed.agent-memory.scheduled-distillation');
      const { tenant, memoryRef } = freshScope();
      await t.call(ROUTES.memorySeed, { body: { memoryRef, entries: TICKETS.map((content) => ({ content, tier: 'transactional' })) } });
      const r = await t.call<Distilled>(ROUTES.memoryDistill, { body: { memoryRef, tokenBudget: 2000, indexEmitted: true } });
      const d = r.body.event.distillation;
      t.check(d !== undefined && d.tokensUsed <= d.tokenBudget, `tokensUsed exceeds tokenBudget (${JSON.stringify(d)})`);
      const archive = await t.call<{ content: string }>(ROUTES.memoryEntry, { query: { tenant, memoryRef, id: r.body.event.outputId } });
      t.equal(r.body.archiveChecksum, sha256(archive.body.content ?? ''), 'archiveChecksum is the sha256 of the stored archive');
      t.check(r.body.indexFile?.content.archives.some((a) => a.archiveId === r.body.archiveId) === true, 'the returned MEMORY-INDEX.json does not list the archive');

      // Byte-stable: the same named sources and budget, twice, in a fresh scope.
      const stable = freshScope();
      const body = { memoryRef: stable.memoryRef, tokenBudget: 2000, sources: ['s1', 's2', 's3'] };
      const a = await t.call<Distilled>(ROUTES.memoryDistill, { body });
      const b = await t.call<Distilled>(ROUTES.memoryDistill, { body });
      t.check(typeof a.body.archiveChecksum === 'string', 'no archiveChecksum');
      t.equal(b.body.archiveChecksum, a.body.archiveChecksum, 'checksum of the same sources and budget distilled again');

      // Atomic: a budget that cannot be met leaves the scope exactly as it was.
      const tight = freshScope();
      const seeded = await t.call<{ entries: { id: string }[] }>(ROUTES.memorySeed, { body: { memoryRef: tight.memoryRef, entries: TICKETS.map((content) => ({ content, tier: 'transactional' })) } });
      const refused = await t.call<{ error: string; archiveChecksum?: unknown }>(ROUTES.memoryDistill, { body: { memoryRef: tight.memoryRef, tokenBudget: 1 } }, { refusal: true });
      t.equal([refused.status, refused.body.error], [422, 'token_budget_exceeded'], 'an un-meetable budget');
      t.equal(refused.body.archiveChecksum, undefined, 'a refused run reports an archive');
      const after = await t.call<{ entries: { id: string }[] }>(ROUTES.memoryEntries, { query: { tenant: tight.tenant, memoryRef: tight.memoryRef } });
      t.equal(after.body.entries.map((e) => e.id).sort(), seeded.body.entries.map((e) => e.id).sort(), 'entries after a refused run (no partial archive, sources kept)');
    },
  },
];
