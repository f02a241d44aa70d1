/** RFC 0012: compaction event emitted (output readable), SR-1 carry-forward, provenance tag. */
import { validateMemoryCompactedPayload, validateMemoryEntry } from '../../generated/validators/validators.js';
import type { Scenario } from '../scenario.ts';
import { CompactResponse, EntriesResponse, RunEventsResponse, SeedResponse } from '../seam-schemas.ts';
import * as gate from './gates.ts';
import { unique, enc, freshScope } from './util.ts';


interface Compacted { compactionRunId: string; event: { memoryRef: string; outputId: string; sourceIds?: string[]; sourceCount: number; byteSize: number; trigger: string }; output: { content: string; tags: string[] } }

export const compactionScenarios: Scenario[] = [
  {
    id: 'memory-compaction-event-emitted',
    title: 'A compaction emits memory.compacted with the documented fields and its output is readable',
    rfc: 'RFC 0012 §B',
    profile: 'compaction',
    gate: gate.compaction,
    async run(t) {
      const { tenant, memoryRef } = freshScope();
      const seeded = await t.call<{ entries: { id: string }[] }>('POST', '/v1/host/sample/memory/seed', { memoryRef, entries: [1, 2, 3].map((i) => ({ content: `Note ${i}: the customer prefers email.` })) }, SeedResponse);
      const ids = seeded.body.entries.map((e) => e.id);
      const r = await t.call<Compacted>('POST', '/v1/host/sample/memory/compact', { memoryRef, sourceIds: ids }, CompactResponse);
      t.check(validateMemoryCompactedPayload(r.body.event), 'the memory.compacted payload does not match its schema');
      t.equal(r.body.event.sourceCount, 3, 'sourceCount');
      t.equal([...(r.body.event.sourceIds ?? [])].sort(), [...ids].sort(), 'sourceIds (exhaustive)');
      const events = await t.call<{ events: { type: string; payload: Record<string, unknown> }[] }>('GET', `/v1/runs/${enc(r.body.compactionRunId)}/events`, undefined, RunEventsResponse);
      t.check(events.body.events.some((e) => e.type === 'memory.compacted' && e.payload.outputId === r.body.event.outputId), 'no memory.compacted event in the log');
      const out = await t.call<{ content: string }>('GET', `/v1/host/sample/memory/entry?tenant=${tenant}&memoryRef=${enc(memoryRef)}&id=${enc(r.body.event.outputId)}`, undefined, validateMemoryEntry);
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
      const { tenant, memoryRef } = freshScope();
      const secret = `sk-carry-${unique()}-secret`;
      const seeded = await t.call<{ entries: { id: string; content: string }[] }>('POST', '/v1/host/sample/memory/seed', {
        memoryRef,
        secrets: [{ secretId: 'byok-carry', value: secret }],
        entries: [{ content: 'Earlier note [REDACTED:byok-old] stays redacted.' }, { content: `The key ${secret} was rotated.` }, { content: 'Template says use [BYOK:openai-key] here.' }],
      }, SeedResponse);
      t.check(!seeded.body.entries.some((e) => e.content.includes(secret)), 'the seed write itself persisted the plaintext');
      const r = await t.call<Compacted>('POST', '/v1/host/sample/memory/compact', { memoryRef, sourceIds: seeded.body.entries.map((e) => e.id) }, CompactResponse);
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
      const { tenant, memoryRef } = freshScope();
      await t.call('POST', '/v1/host/sample/memory/seed', { memoryRef, entries: [{ content: 'A.' }, { content: 'B.' }] }, SeedResponse);
      const r = await t.call<Compacted>('POST', '/v1/host/sample/memory/compact', { memoryRef }, CompactResponse);
      const tags = r.body.output.tags.filter((x) => x.startsWith('compacted-from:'));
      t.equal(tags.length, 1, 'exactly one compacted-from tag');
      t.check(/^compacted-from:\S+$/.test(tags[0] ?? ''), `malformed provenance tag ${JSON.stringify(tags[0])}`);
      const listed = await t.call<{ entries: { id: string }[] }>('GET', `/v1/host/sample/memory/entries?tenant=${tenant}&memoryRef=${enc(memoryRef)}&tag=${enc(tags[0] ?? '')}`, undefined, EntriesResponse);
      t.equal(listed.body.entries.map((e) => e.id), [r.body.event.outputId], 'list by the provenance tag finds the compacted entry');
    },
  },
];
