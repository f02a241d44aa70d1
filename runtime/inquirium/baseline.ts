/**
 * The baseline-assistant profile (P066 Decision 8.5): a capability profile, not a runtime class. A runtime is
 * selectable as baseline only with a FRESH, PASSING conformance report for that candidate in this environment;
 * a stale or missing report makes it unavailable for the baseline (ordinary routing may still use it).
 *
 * `runBaselineConformance` is the suite: it exercises a candidate + adapter against each clause of the profile
 * and writes an `inquirium.baseline-assistant-conformance-report.v1`.
 */
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { countTokens } from '../distillation/tokenizer.ts';
import { durationMs } from '../distillation/duration.ts';
import type { RuntimeAdapter } from './adapters/types.ts';
import { assertDto } from './dto.ts';
import { isLocal, type RuntimeCandidate } from './selection.ts';

export const BASELINE_PROFILE = {
  schema: 'inquirium.baseline-assistant-profile.v1',
  'profile/id': 'baseline-assistant',
  anchor: 'UNIVERSAL-BASIC-COMPUTE',
  requires: { operations: ['generate'], min_context_window: 2048, tool_surface: 'none', transports: ['http_local', 'command_stdio'], max_output_tokens: 1024 },
  guarantees: { no_telemetry_egress: true, no_remote_fallback: true, works_offline: true, no_economic_gating: true },
  'conformance/max-age': 'P7D',
} as const;

export interface ConformanceCheck {
  'check/id': string;
  clause: string;
  result: 'pass' | 'fail';
  'detail/code'?: string;
}

export interface EgressObserver {
  /** Non-loopback connections the runtime attempted while the suite ran (the host's network monitor). */
  nonLoopbackConnections(): number;
}

export async function runBaselineConformance(
  candidate: RuntimeCandidate,
  adapter: RuntimeAdapter,
  o: { clock: Clock; ids: IdSource; environmentRef: string; egress?: EgressObserver },
): Promise<Record<string, unknown>> {
  const req = BASELINE_PROFILE.requires;
  const checks: ConformanceCheck[] = [];
  const check = (id: string, clause: string, ok: boolean, detail?: string) => checks.push({ 'check/id': id, clause, result: ok ? 'pass' : 'fail', ...(ok || detail === undefined ? {} : { 'detail/code': detail }) });

  check('local-transport', '/requires/transports', isLocal(candidate), 'transport-not-local');
  check('generate-operation', '/requires/operations', candidate.operations.includes('generate'), 'generate-missing');
  check('context-window', '/requires/min_context_window', (candidate.context_window ?? 0) >= req.min_context_window, 'context-window-too-small');
  check('no-tool-surface', '/requires/tool_surface', adapter.toolSurface === false, 'tool-surface-present');
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
  check('no-telemetry-egress', '/guarantees/no_telemetry_egress', (o.egress?.nonLoopbackConnections() ?? 0) === before, 'egress-observed');
  check('no-remote-fallback', '/guarantees/no_remote_fallback', isLocal(candidate), 'remote-candidate');

  const now = o.clock.now();
  return assertDto('inquirium.baseline-assistant-conformance-report.v1', {
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
  });
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
