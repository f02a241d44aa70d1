/**
 * RFC 0068: the consolidation and commitment advertisements (claims-check), consolidation idempotence, commitment
 * fired once. Whether the corpus's payload schemas accept and refuse the right documents is a corpus fact, checked
 * by the schema examples (schemas/openwop/v1/examples/run-event-payloads--*), not on a host.
 */
import { validateCommitmentsCapability, validateMemoryConsolidationCapability } from '../../generated/validators/validators.js';
import { get, type Scenario } from '../scenario.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import * as gate from './gates.ts';
import { freshScope, unique } from './util.ts';

export const rfc0068Scenarios: Scenario[] = [
  {
    id: 'memory-consolidation-shape',
    title: 'The advertised consolidation and commitment blocks match their closed schemas',
    rfc: 'RFC 0068 §A',
    profile: 'schema',
    gate: (d) => (get(d, 'agents.memoryConsolidation') === undefined && get(d, 'agents.commitments') === undefined ? 'neither agents.memoryConsolidation nor agents.commitments is advertised' : undefined),
    async run(t) {
      for (const [id, path, v] of [
        ['openwop.requirement.proposed.0068.a1-consolidation-capability', 'agents.memoryConsolidation', validateMemoryConsolidationCapability],
        ['openwop.requirement.proposed.0068.a2-commitments-capability', 'agents.commitments', validateCommitmentsCapability],
      ] as const) {
        const block = get(t.discovery, path);
        if (block !== undefined) t.req(id).check(v(block), `${path} in the discovery document does not match its schema`);
      }
    },
  },
  {
    id: 'memory-consolidation-idempotent',
    title: 'A pass reduces or keeps the count, a second pass is a no-op, a planted secret stays redacted',
    rfc: 'RFC 0068 §D',
    profile: 'memory-consolidation',
    gate: gate.both(gate.consolidation, gate.longTerm),
    async run(t) {
      t.req('openwop.requirement.proposed.0068.b1-consolidated-event');
      const memoryRef = `mem://conformance/consolidation-${unique()}`;
      const first = await t.call<{ event: { memoryRef: string; inputCount: number; outputCount: number }; secretLeaked: boolean; eventId?: string; runId?: string }>(ROUTES.consolidate, { body: { memoryRef, includeSecretCanary: true } });
      t.equal(first.status, 200, 'first pass status');
      const e1 = first.body.event;
      t.req('openwop.requirement.proposed.0068.d1-one-memory-ref-per-pass').equal(e1.memoryRef, memoryRef, 'the event names the memoryRef of the pass');
      t.req('openwop.requirement.proposed.0068.b1-consolidated-event').check(e1.outputCount <= e1.inputCount, `outputCount ${e1.outputCount} must not exceed inputCount ${e1.inputCount}`);
      t.req('openwop.requirement.proposed.0068.d3-sr1-carry-forward').equal(first.body.secretLeaked, false, 'secretLeaked (SR-1 carry-forward)');
      t.req('openwop.requirement.proposed.0068.d4-emit-after-pass');
      // The seam's event is the durable one: read it back from the run's event log (strict mode requires the pointer).
      const { eventId, runId } = first.body;
      if (typeof eventId === 'string' && typeof runId === 'string') {
        const log = await t.call<{ events: { eventId: string; type: string; payload: unknown }[] }>(ROUTES.runEvents, { params: { runId } });
        const durable = log.body.events?.find((e) => e.eventId === eventId);
        t.equal(durable?.type, 'agent.memory.consolidated', 'type of the durable event the seam points at');
        t.equal(durable?.payload, e1, 'the durable agent.memory.consolidated payload equals the seam response event');
      } else if (t.config.strict) {
        t.check(false, 'strict mode: the consolidate seam did not return eventId and runId of the durable event');
      }
      t.req('openwop.requirement.proposed.0068.d2-idempotent-pass');
      const second = await t.call<{ event: { inputCount: number; outputCount: number } }>(ROUTES.consolidate, { body: { memoryRef } });
      t.equal(second.body.event.inputCount, second.body.event.outputCount, 'second pass over an unchanged corpus is a no-op (inputCount == outputCount)');
      t.equal(second.body.event.inputCount, e1.outputCount, 'the second pass sees what the first left');
      t.req('openwop.requirement.proposed.0068.b1-consolidated-event').check(!/refund|shipping|sk-canary/i.test(JSON.stringify([first.body.event, second.body.event])), 'agent.memory.consolidated carries content');
      // Independent of the seam's own report: a corpus the suite plants (duplicates + a BYOK secret it knows), when the
      // host also serves the seed and read seams. After a pass, no entry of the ref may carry the plaintext.
      t.req('openwop.requirement.proposed.0068.d3-sr1-carry-forward');
      const own = freshScope();
      const secret = `sk-suite-canary-${unique()}`;
      const seeded = await t.call<{ entries: unknown[] }>(ROUTES.memorySeed, { body: {
        memoryRef: own.memoryRef, secrets: [{ secretId: 'byok-suite-canary', value: secret }],
        entries: [{ content: 'Refund window is 30 days.' }, { content: 'Refund window is 30 days.' }, { content: `Nightly deploy key ${secret} rotates weekly.` }],
      } }, { seam: false });
      if (seeded.status === 404) return;
      const pass = await t.call<{ event: { inputCount: number; outputCount: number } }>(ROUTES.consolidate, { body: { memoryRef: own.memoryRef } });
      t.req('openwop.requirement.proposed.0068.b1-consolidated-event').check(pass.body.event.outputCount < pass.body.event.inputCount, `a corpus with an exact duplicate did not shrink (${pass.body.event.inputCount} → ${pass.body.event.outputCount})`);
      t.req('openwop.requirement.proposed.0068.d3-sr1-carry-forward');
      const after = await t.call<{ entries: { content: string }[] }>(ROUTES.memoryEntries, { query: { tenant: own.tenant, memoryRef: own.memoryRef } });
      t.check(after.body.entries.length > 0, 'the consolidated ref reads back empty');
      t.check(!after.body.entries.some((e) => e.content.includes(secret)), 'the suite-planted secret is in plaintext after consolidation');
      t.check(after.body.entries.some((e) => e.content.includes('[REDACTED:byok-suite-canary]')), 'the redaction marker of the suite-planted secret was lost by consolidation');
    },
  },
  {
    id: 'commitment-fired',
    title: 'A fired commitment is reported once, content-free, with its memory provenance',
    rfc: 'RFC 0068 §C, §D',
    profile: 'commitments',
    gate: gate.commitments,
    async run(t) {
      t.req('openwop.requirement.proposed.0068.c1-commitment-fired-event');
      const conditions = (get(t.discovery, 'agents.commitments.fireConditions') as string[] | undefined) ?? ['time'];
      for (const condition of conditions) {
        const memoryRef = `mem://conformance/commitment-${unique()}`;
        const r = await t.call<{ event: Record<string, unknown>; fireCount: number; intentionCanary?: string }>(ROUTES.commitmentFire, { body: { memoryRef, condition, includeIntentionCanary: true } });
        t.req('openwop.requirement.proposed.0068.c1-commitment-fired-event').equal(r.status, 200, `${condition}: status`);
        t.req('openwop.requirement.proposed.0068.d6-fire-at-most-once').equal(r.body.fireCount, 1, `${condition}: fireCount (fire once per satisfied condition)`);
        t.req('openwop.requirement.proposed.0068.d5-commitment-bound-to-memory').equal(r.body.event.memoryRef, memoryRef, `${condition}: event.memoryRef (provenance)`);
        t.req('openwop.requirement.proposed.0068.c1-commitment-fired-event').equal(r.body.event.condition, condition, `${condition}: event.condition`);
        t.check(typeof r.body.intentionCanary === 'string' && r.body.intentionCanary.length > 0, `${condition}: the seam did not return its intention canary`);
        if (r.body.intentionCanary) t.check(!JSON.stringify(r.body.event).includes(r.body.intentionCanary), `${condition}: the intention text appears on the commitment.fired event`);
      }
    },
  },
];
