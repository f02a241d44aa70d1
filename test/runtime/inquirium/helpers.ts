/** Shared builders for the Inquirium tests (candidates, acceptance blocks, elements, requests). */
import type { ModelAcceptance, ContextElement } from '../../../runtime/inquirium/acceptance.ts';
import type { RuntimeCandidate } from '../../../runtime/inquirium/selection.ts';
import type { RegisteredRuntime } from '../../../runtime/inquirium/generate.ts';
import type { InvokeRequest } from '../../../runtime/inquirium/adapters/types.ts';
import type { Classification } from '../../../runtime/inquirium/lattice.ts';
import { createInquiriumRuntime, type InquiriumRuntimeOptions } from '../../../runtime/inquirium/index.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';

/** An Inquirium runtime on a fresh in-memory store, a manual clock and sequential ids (unless given). */
export async function inquirium(o: Partial<InquiriumRuntimeOptions> = {}) {
  const port = o.port ?? (await openMemoryStore());
  return createInquiriumRuntime({ clock: new ManualClock(), ids: new SequentialIds(), ...o, port });
}

export const PARTICIPANT = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
export const OTHER_PARTICIPANT = 'participant:did:key:z6MkotherParticipantAAAAAAAAAAAAAAAAAAAAAAAAA';
export const CHECKED_AT = '2026-01-01T00:00:00.000Z';

export const acceptance = (tier: Classification, transport: RuntimeCandidate['transport_kind'] = 'http_local', ack?: Classification): ModelAcceptance => ({
  schema: 'inquirium.model-acceptance.v1',
  'model.binding/ref': `model.binding/${transport}-${tier}`,
  accepts_max_tier: tier,
  transport_kind: transport,
  remote_provider: transport === 'http_remote',
  ...(ack ? { operator_acknowledgement: { 'acknowledged/by': PARTICIPANT, 'acknowledged/at': CHECKED_AT, acknowledged_max_tier: ack } } : {}),
});

export const candidate = (ref: string, transport: RuntimeCandidate['transport_kind'], status: 'healthy' | 'degraded' | 'unhealthy' = 'healthy', acc?: ModelAcceptance): RuntimeCandidate => ({
  schema: 'inquirium.runtime-candidate.v1',
  'runtime/ref': `runtime/${ref}`,
  'model.binding/ref': `model.binding/${ref}`,
  transport_kind: transport,
  operations: ['generate'],
  context_window: 8192,
  health: { status, 'checked/at': CHECKED_AT },
  ...(acc ? { acceptance: acc } : {}),
});

export const element = (id: string, classification: unknown, extra: Partial<ContextElement> = {}): ContextElement => ({
  schema: 'inquirium.context-element.v1',
  'element/id': id,
  'source/kind': 'memarium',
  classification,
  ...extra,
});

export const request = (text: string, extra: Record<string, unknown> = {}) => ({
  schema: 'inquirium.generate.request.v1',
  operation: 'generate',
  turns: [{ role: 'user', content: [{ type: 'text', text }] }],
  ...extra,
});

/** A runtime that records every invocation and answers with `answer(request)`. */
export function recordingRuntime(ref: string, transport: RuntimeCandidate['transport_kind'], answer: (r: InvokeRequest) => string = () => 'ok', acc?: ModelAcceptance): RegisteredRuntime & { calls: InvokeRequest[] } {
  const calls: InvokeRequest[] = [];
  return {
    calls,
    candidate: candidate(ref, transport, 'healthy', acc),
    adapter: {
      runtimeRef: `runtime/${ref}`,
      toolSurface: false,
      outboundHosts: () => [],
      invoke: async (r) => {
        calls.push(r);
        return { text: answer(r) };
      },
    },
  };
}
