/** RFC 0012: compaction event emitted (output readable), SR-1 carry-forward, provenance tag; RFC 0062 scheduled distillation. */
import { validateCompactionCapability, validateMemoryCompactedPayload } from '../../generated/validators/validators.js';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { get, type Scenario } from '../scenario.ts';
import * as gate from './gates.ts';
import { unique, freshScope } from './util.ts';

interface Compacted { compactionRunId: string; event: { memoryRef: string; outputId: string; sourceIds?: string[]; sourceCount: number; byteSize: number; trigger: string }; output: { content: string; tags: string[] } }

export const compactionScenarios: Scenario[] = [
  {
    id: 'memory-compaction-event-emitted',
    title: 'A compaction emits memory.compacted with the documented fields and its output is readable',
    rfc: 'RFC 0012 §B',
    profile: 'compaction',
    gate: gate.compaction,
    async run(t) {
      t.req('openwop.requirement.proposed.0012.a1-advertisement');
      const advert = get(t.discovery, 'memory.compaction');
      t.check(validateCompactionCapability(advert), 'the memory.compaction advertisement does not match CompactionCapability (supported true needs a trigger)');
      t.req('openwop.requirement.proposed.0012.b1-compacted-event');
      const { tenant, memoryRef } = freshScope();
      const seeded = await t.call<{ entries: { id: string }[] }>(ROUTES.memorySeed, { body: { memoryRef, entries: [1, 2, 3].map((i) => ({ content: `Note ${i}: the customer prefers email.` })) } });
      const ids = seeded.body.entries.map((e) => e.id);
      const r = await t.call<Compacted>(ROUTES.memoryCompact, { body: { memoryRef, sourceIds: ids } });
      t.check(validateMemoryCompactedPayload(r.body.event), 'the memory.compacted payload does not match its schema');
      t.equal(r.body.event.sourceCount, 3, 'sourceCount');
      t.req('openwop.requirement.proposed.0012.b2-source-ids-exhaustive');
      t.equal([...(r.body.event.sourceIds ?? [])].sort(), [...ids].sort(), 'sourceIds (exhaustive)');
      t.req('openwop.requirement.proposed.0012.b1-compacted-event');
      const events = await t.call<{ events: { type: string; payload: Record<string, unknown> }[] }>(ROUTES.runEvents, { params: { runId: r.body.compactionRunId } });
      t.check(events.body.events.some((e) => e.type === 'memory.compacted' && e.payload.outputId === r.body.event.outputId), 'no memory.compacted event in the log');
      const out = await t.call<{ content: string }>(ROUTES.memoryEntry, { query: { tenant, memoryRef, id: r.body.event.outputId } });
      t.equal(out.status, 200, 'outputId readable through get');
      t.equal(Buffer.byteLength(out.body.content, 'utf8'), r.body.event.byteSize, 'byteSize is the UTF-8 size of the output content');
    },
  },
  {
    id: 'memory-compaction-sr1-carry-forward',
    title: 'Compacted content passes the redaction harness: no plaintext secret, no [BYOK:…] form',
    rfc: 'RFC 0012 §D',
    profile: 'compaction',
    gate: gate.compaction,
    async run(t) {
      t.req('openwop.requirement.proposed.0012.d1-sr1-carry-forward');
      const { memoryRef } = freshScope();
      const secret = `sk-carry-${unique()}-secret`;
      const seeded = await t.call<{ entries: { id: string; content: string }[] }>(ROUTES.memorySeed, { body: {
        memoryRef,
        secrets: [{ secretId: 'byok-carry', value: secret }],
        entries: [{ content: 'Earlier note [REDACTED:byok-old] stays redacted.' }, { content: `The key ${secret} was rotated.` }, { content: 'Template says use [BYOK:openai-key] here.' }],
      } });
      t.check(!seeded.body.entries.some((e) => e.content.includes(secret)), 'the seed write itself persisted the plaintext');
      const r = await t.call<Compacted>(ROUTES.memoryCompact, { body: { memoryRef, sourceIds: seeded.body.entries.map((e) => e.id) } });
      t.check(!r.body.output.content.includes(secret), 'plaintext secret in compacted content');
      t.check(!/\[BYOK:/.test(r.body.output.content), 'a [BYOK:…] form leaked into compacted content');
      t.check(r.body.output.content.includes('[REDACTED:byok-old]'), 'an existing redaction marker was lost');
    },
  },
  {
    id: 'memory-compaction-provenance-tag',
    title: 'The compacted entry carries a well-formed compacted-from:<id> tag',
    rfc: 'RFC 0012 §C',
    profile: 'compaction',
    gate: gate.compaction,
    async run(t) {
      t.req('openwop.requirement.proposed.0012.c1-provenance-tag');
      const { tenant, memoryRef } = freshScope();
      await t.call(ROUTES.memorySeed, { body: { memoryRef, entries: [{ content: 'A.' }, { content: 'B.' }] } });
      const r = await t.call<Compacted>(ROUTES.memoryCompact, { body: { memoryRef } });
      const tags = r.body.output.tags.filter((x) => x.startsWith('compacted-from:'));
      t.equal(tags.length, 1, 'exactly one compacted-from tag');
      t.check(/^compacted-from:\S+$/.test(tags[0] ?? ''), `malformed provenance tag ${JSON.stringify(tags[0])}`);
      const listed = await t.call<{ entries: { id: string }[] }>(ROUTES.memoryEntries, { query: { tenant, memoryRef, tag: tags[0] ?? '' } });
      t.equal(listed.body.entries.map((e) => e.id), [r.body.event.outputId], 'list by the provenance tag finds the compacted entry');
    },
  },
  {
    id: 'compaction-markers-canonical',
    title: 'Compaction through the upstream-path seams rewrites non-canonical <REDACTED:…> markers to [REDACTED:<id>]',
    rfc: 'RFC 0012 §D',
    profile: 'compaction',
    gate: gate.compaction,
    async run(t) {
      t.req('openwop.requirement.proposed.0012.d1-sr1-carry-forward');
      // An upstream-style opaque ref: the host keeps it inside the caller's tenant.
      const memoryRef = `mem_tenant:default_agent:conformance-markers-${unique()}_longTerm`;
      const stamp = unique();
      const seeded = await t.call(ROUTES.testMemorySeed, { body: { memoryRef, entries: [
        { id: `m-${stamp}-1`, content: 'Resolved <REDACTED:db-prod-creds> outage.' },
        { id: `m-${stamp}-2`, content: 'Rotated {redacted:ops-token} tonight.' },
        { id: `m-${stamp}-3`, content: 'Customer asked about pricing tiers.' },
      ] } });
      t.equal(seeded.status, 201, 'seed status');
      const r = await t.call<{ payload: { outputId: string }; outputContent: string }>(ROUTES.testMemoryCompact, { body: { memoryRef } });
      t.check(!/<\s*redacted|\{\s*redacted/i.test(r.body.outputContent), `a non-canonical marker survived: ${r.body.outputContent.slice(0, 200)}`);
      t.check(r.body.outputContent.includes('[REDACTED:db-prod-creds]') && r.body.outputContent.includes('[REDACTED:ops-token]'), 'the canonical markers (with their ids) are missing');
      const listed = await t.call<{ entries: { id: string; content: string; tags: string[] }[] }>(ROUTES.memoryList, { params: { memoryRef }, query: { limit: 50 } });
      const out = listed.body.entries.find((e) => e.id === r.body.payload.outputId);
      t.equal(out?.content, r.body.outputContent, 'the persisted output read through GET /v1/memory/{ref}');
    },
  },
  {
    id: 'memory-distillation-scheduled',
    title: 'A scheduled distillation runs once per instant as a host-managed run with a clamped budget and a readable archive',
    rfc: 'Agent memory spec, scheduled distillation (RFC 0062)',
    profile: 'distillation',
    gate: gate.scheduledDistillation,
    async run(t) {
      t.req('openwop.requirement.proposed.agent-memory.scheduled-distillation');
      const { tenant, memoryRef } = freshScope();
      await t.call(ROUTES.memorySeed, { body: { memoryRef, entries: [{ content: 'Ticket 1 resolved: password reset.', tier: 'transactional' }, { content: 'Ticket 2 resolved: refund issued.', tier: 'transactional' }] } });
      // A minute in the past: the first instant is due whatever small clock skew the host has.
      const firstAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
      const created = await t.call<{ scheduleId: string }>(ROUTES.distillSchedule, { body: { memoryRef, every: 'PT1H', tokenBudget: 1_000_000_000, firstAt } });
      if (created.status >= 300) return;
      const schedule = { query: { id: created.body.scheduleId, tenant } };
      // A background ticker may have run it already; either way the schedule reports its latest run.
      await t.call(ROUTES.distillScheduleTick, { body: { tenant } });
      type Outcome = { kind: string; instant: string; missed: number; archiveId?: string; event?: { memoryRef: string; outputId: string; trigger: string; sourceCount: number; byteSize: number; distillation?: { tokenBudget: number; tokensUsed: number } } };
      const first = await t.call<{ lastOutcome?: Outcome }>(ROUTES.distillScheduleRead, schedule);
      const o = first.body.lastOutcome;
      if (!t.check(o?.kind === 'distilled', `the due instant did not distil (lastOutcome ${JSON.stringify(o)?.slice(0, 200)})`) || o?.event === undefined) return;
      t.equal(o.instant, firstAt, 'the run covers the first instant');
      t.req('openwop.requirement.proposed.0012.b4-distillation-reuses-event');
      t.equal(o.event.trigger, 'host-managed', 'a scheduled distillation is host-managed');
      t.equal(o.event.memoryRef, memoryRef, 'the run distils its own scope');
      t.equal(o.event.sourceCount, 2, 'both transactional entries are sources');
      t.req('openwop.requirement.proposed.agent-memory.scheduled-distillation');
      const advertised = Number(get(t.discovery, 'memory.distillation.maxTokenBudget'));
      t.equal(o.event.distillation?.tokenBudget, advertised, 'the requested budget is clamped to the advertised maxTokenBudget');
      t.check((o.event.distillation?.tokensUsed ?? Infinity) <= (o.event.distillation?.tokenBudget ?? 0), 'tokensUsed exceeds the budget');
      const archive = await t.call<{ content: string }>(ROUTES.memoryEntry, { query: { tenant, memoryRef, id: o.event.outputId } });
      t.equal(Buffer.byteLength(archive.body.content ?? '', 'utf8'), o.event.byteSize, 'byteSize is the UTF-8 size of the archive');
      // Once per instant: another tick at the same time runs nothing new.
      const again = await t.call<{ outcomes: unknown[] }>(ROUTES.distillScheduleTick, { body: { tenant } });
      t.equal(again.body.outcomes, [], 'a second tick within the same period ran the schedule again');
      const after = await t.call<{ lastOutcome?: Outcome }>(ROUTES.distillScheduleRead, schedule);
      t.equal(after.body.lastOutcome?.instant, o.instant, 'the latest instant moved without a new period');
      const listed = await t.call<{ entries: { id: string }[] }>(ROUTES.memoryEntries, { query: { tenant, memoryRef } });
      t.equal(listed.body.entries.filter((e) => e.id === o.event!.outputId).length, 1, 'the archive is listed once in its scope');
    },
  },
];
