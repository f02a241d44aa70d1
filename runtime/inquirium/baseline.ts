/**
 * The baseline-assistant profile (P066 Decision 8.5): a capability profile, not a runtime class. A runtime is
 * selectable as baseline only with a FRESH, PASSING conformance report for that candidate in this environment;
 * a stale or missing report makes it unavailable for the baseline (ordinary routing may still use it).
 *
 * `runBaselineConformance` is the suite: it exercises a candidate + adapter against each clause of the profile
 * and writes an `inquirium.baseline-assistant-conformance-report.v1`.
 */
import type { InquiriumConformanceCheck } from '../../generated/ts/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { countTokens } from '../shared/tokenizer.ts';
import { durationMs } from '../shared/duration.ts';
import type { RuntimeAdapter } from './adapters/types.ts';
import { assertDto } from './dto.ts';
import { isLoopbackUrl } from './adapters/openai-compatible.ts';
import { isLocal, selectRuntime, type RuntimeCandidate } from './selection.ts';

export const BASELINE_PROFILE = {
  schema: 'inquirium.baseline-assistant-profile.v1',
  'profile/id': 'baseline-assistant',
  anchor: 'UNIVERSAL-BASIC-COMPUTE',
  requires: { operations: ['generate'], min_context_window: 2048, tool_surface: 'none', transports: ['http_local', 'command_stdio'], max_output_tokens: 1024 },
  guarantees: { no_telemetry_egress: true, no_remote_fallback: true, works_offline: true, no_economic_gating: true },
  'conformance/max-age': 'P7D',
} as const;

export interface EgressObserver {
  /** Non-loopback connections the runtime attempted so far (the host's network monitor, e.g. for an Ollama process). */
  nonLoopbackConnections(): number;
}

const isLoopbackHost = (h: string): boolean => isLoopbackUrl(`http://${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}/`);

/** A candidate that stands in for "somewhere else" in the no-remote-fallback check; it must never be chosen. */
const REMOTE_DECOY: RuntimeCandidate = {
  schema: 'inquirium.runtime-candidate.v1',
  'runtime/ref': 'runtime/conformance-remote-decoy',
  'model.binding/ref': 'model.binding/conformance-remote-decoy',
  transport_kind: 'http_remote',
  operations: ['generate'],
  health: { status: 'healthy', 'checked/at': '1970-01-01T00:00:00.000Z' },
  acceptance: { schema: 'inquirium.model-acceptance.v1', 'model.binding/ref': 'model.binding/conformance-remote-decoy', accepts_max_tier: 'personal', transport_kind: 'http_remote', remote_provider: true, operator_acknowledgement: { 'acknowledged/by': 'participant:did:key:conformance', 'acknowledged/at': '1970-01-01T00:00:00.000Z', acknowledged_max_tier: 'personal' } },
};

export async function runBaselineConformance(
  candidate: RuntimeCandidate,
  adapter: RuntimeAdapter,
  o: { clock: Clock; ids: IdSource; environmentRef: string; egress?: EgressObserver },
): Promise<Record<string, unknown>> {
  const req = BASELINE_PROFILE.requires;
  const checks: InquiriumConformanceCheck[] = [];
  const check = (id: string, clause: string, ok: boolean, detail?: string) => checks.push({ 'check/id': id, clause, result: ok ? 'pass' : 'fail', ...(ok || detail === undefined ? {} : { 'detail/code': detail }) });

  check('local-transport', '/requires/transports', isLocal(candidate), 'transport-not-local');
  check('generate-operation', '/requires/operations', candidate.operations.includes('generate'), 'generate-missing');
  check('context-window', '/requires/min_context_window', (candidate.context_window ?? 0) >= req.min_context_window, 'context-window-too-small');
  check('no-tool-surface', '/requires/tool_surface', adapter.toolSurface === false, 'tool-surface-present');
  // Egress is observed twice: the adapter's own connection log, and the host's network monitor when given.
  const observable = adapter.outboundHosts !== undefined || o.egress !== undefined;
  const before = o.egress?.nonLoopbackConnections() ?? 0;
  let generated = false;
  let bounded = false;
  try {
    const small = await adapter.invoke({ messages: [{ role: 'user', content: 'Say something short about sovereignty and local tools, at length if you can.' }], maxTokens: 8 });
    generated = small.text.length > 0;
    bounded = countTokens(small.text) <= 8 && (small.outputTokens === undefined || small.outputTokens <= 8);
  } catch {
    generated = false;
  }
  check('generates', '/requires/operations', generated, 'generate-failed');
  check('bounded-output', '/requires/max_output_tokens', bounded, 'output-not-bounded');
  // Any non-loopback host the adapter ever contacted counts, not only during the suite.
  const contacted = adapter.outboundHosts?.() ?? [];
  const egressSeen = contacted.some((h) => !isLoopbackHost(h)) || (o.egress?.nonLoopbackConnections() ?? 0) !== before;
  check('no-telemetry-egress', '/guarantees/no_telemetry_egress', observable && !egressSeen, observable ? 'egress-observed' : 'egress-unobservable');
  // No remote fallback: with this candidate down and an acknowledged, all-accepting remote decoy available, the
  // host's local-only selection must answer handler-unavailable — and with it up, choose it, never the decoy.
  const down: RuntimeCandidate = { ...candidate, health: { ...candidate.health, status: 'unhealthy' } };
  const whenDown = selectRuntime([down, REMOTE_DECOY], { locality: 'local_only', operation: 'generate' });
  const whenUp = selectRuntime([REMOTE_DECOY, candidate], { locality: 'local_only', operation: 'generate' });
  check(
    'no-remote-fallback',
    '/guarantees/no_remote_fallback',
    isLocal(candidate) && whenDown.kind === 'handler-unavailable' && whenUp.kind === 'use-runtime' && whenUp.candidate['runtime/ref'] === candidate['runtime/ref'],
    'remote-fallback-possible',
  );

  const now = o.clock.now();
  return { ...assertDto('inquirium.baseline-assistant-conformance-report.v1', {
    schema: 'inquirium.baseline-assistant-conformance-report.v1',
    'report/id': `report:${o.ids.next('report')}`,
    'runtime/ref': candidate['runtime/ref'],
    'model.binding/ref': candidate['model.binding/ref'],
    'profile/id': 'baseline-assistant',
    'environment/ref': o.environmentRef,
    'time/generated-at': toIso(now),
    'time/expires-at': toIso(now + durationMs(BASELINE_PROFILE['conformance/max-age'])!),
    status: 'fresh',
    checks,
    'overall/passed': checks.every((c) => c.result === 'pass'),
  }) };
}

/** A report is usable for the baseline when it is for this runtime and environment, passed, and not expired. */
export function isBaselineEligible(candidate: RuntimeCandidate, report: Record<string, unknown> | undefined, environmentRef: string, nowMs: number): boolean {
  if (report === undefined) return false;
  return (
    report['runtime/ref'] === candidate['runtime/ref'] &&
    report['environment/ref'] === environmentRef &&
    report['overall/passed'] === true &&
    report.status === 'fresh' &&
    typeof report['time/expires-at'] === 'string' &&
    Date.parse(report['time/expires-at']) > nowMs
  );
}

/** The baseline-assistant candidates: local, with a fresh passing report. */
export function baselineCandidates(candidates: readonly RuntimeCandidate[], reports: ReadonlyMap<string, Record<string, unknown>>, environmentRef: string, nowMs: number): RuntimeCandidate[] {
  return candidates.filter((c) => isLocal(c) && isBaselineEligible(c, reports.get(c['runtime/ref']), environmentRef, nowMs));
}
