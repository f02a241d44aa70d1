/**
 * The generate pipeline (P066 Decisions 2, 3, 5, 8, 9, 10): takes an `inquirium.generate.request.v1`, applies
 * policy, decides every context element, selects a runtime through the single filter seam, invokes it, and returns
 * an `inquirium.generate.response.v1` whose epistemic block is never authoritative, plus a trace ref. It appends
 * one trace record (shape, decisions, effects — no prompt or response content) and, for a completed turn, the
 * turn and result facts to the participant's transcript (the result points forward to the trace; the trace never
 * points at the transcript).
 *
 * Phase 1 defaults: locality local_only, trust_mode strict_local, scope assistant-session-only (no context at
 * all), on_context_denied fail_closed, plurality preserve. Any context in a Phase 1 scope is a policy denial,
 * never a silent read.
 */
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { countTokens } from '../distillation/tokenizer.ts';
import { decideElement, type ContextElement, type ElementDecision, type ModelAcceptance } from './acceptance.ts';
import type { RuntimeAdapter } from './adapters/types.ts';
import { RuntimeInvokeError } from './adapters/types.ts';
import { assertDto, checkDto } from './dto.ts';
import { joinClassification, type Classification } from './lattice.ts';
import { selectRuntime, type RuntimeCandidate } from './selection.ts';
import type { InquiryTranscriptStore } from './storage/transcript.ts';
import type { TraceStream } from './storage/trace-stream.ts';

export type GenerateOutcome = 'completed' | 'handler-unavailable' | 'context-denied' | 'policy-denied' | 'failed';

export interface GenerateContext {
  /** participant:did:key:… — the accountable identity the turn belongs to. */
  readonly participant: string;
  readonly session: string;
  /** Context elements resolved by host gates for this turn (Phase 2 only). */
  readonly elements?: readonly ContextElement[];
}

export interface RegisteredRuntime {
  readonly candidate: RuntimeCandidate;
  readonly adapter: RuntimeAdapter;
}

export interface GeneratePipelineOptions {
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly runtimes: () => readonly RegisteredRuntime[];
  readonly transcript: InquiryTranscriptStore;
  readonly traces: TraceStream;
  /** Largest max_tokens honoured (bounded output). */
  readonly maxOutputTokens?: number;
}

type Json = Record<string, unknown>;
interface TraceDecision { kind: string; outcome: string; 'reason/code': string; 'decided/by'?: string; 'element/ref'?: string; 'source/kind'?: string; classification?: Classification }

const DEFAULT_POLICY = { locality: 'local_only', trust_mode: 'strict_local', scope: 'assistant-session-only', on_context_denied: 'fail_closed', plurality: 'preserve' } as const;

export class GeneratePipeline {
  constructor(private readonly o: GeneratePipelineOptions) {}

  async generate(request: unknown, ctx: GenerateContext): Promise<Json> {
    const req = assertDto<Json & { turns: { role: 'user' | 'assistant'; content: { type: string; text?: string }[] }[]; parameters?: { max_tokens?: number; temperature?: number; stop?: string[] }; policy?: Partial<typeof DEFAULT_POLICY> & Record<string, string>; context_assembly?: { sources?: unknown[] } }>(
      'inquirium.generate.request.v1',
      request,
    );
    const policy: Record<keyof typeof DEFAULT_POLICY, string> = { ...DEFAULT_POLICY, ...(req.policy ?? {}) };
    const started = this.o.clock.now();
    const traceRef = `tr:${this.o.ids.next('trace')}`;
    const turnId = `turn:${this.o.ids.next('turn')}`;
    const operationId = `op:${this.o.ids.next('op')}`;
    const decisions: TraceDecision[] = [];
    const messages = req.turns.map((t) => ({ role: t.role, content: t.content.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('\n') }));
    const inputTokens = messages.reduce((n, m) => n + countTokens(m.content), 0);
    const hasFile = req.turns.some((t) => t.content.some((p) => p.type !== 'text'));

    const finish = (outcome: GenerateOutcome, extra: { reason?: string; selected?: RegisteredRuntime; text?: string; outputTokens?: number; retry?: number; label?: Classification }): Json => {
      const finished = this.o.clock.now();
      const diagnostics = { 'error/code': outcome === 'completed' ? null : extra.reason ?? null, 'retry/count': extra.retry ?? 0 };
      const effects: Json[] = [];
      let response: Json = { schema: 'inquirium.generate.response.v1', operation: 'generate', outcome, 'trace/ref': traceRef, diagnostics };
      if (outcome === 'completed' && extra.selected !== undefined) {
        response = {
          ...response,
          output: [{ type: 'text', text: extra.text ?? '' }],
          epistemic: { stance: 'advisory', confidence: 'unstated', grounded_in: [], caveats: ['Model output is evidence to weigh, not a decision.'] },
          'runtime/ref': extra.selected.candidate['runtime/ref'],
          'model.binding/ref': extra.selected.candidate['model.binding/ref'],
          locality: extra.selected.candidate.transport_kind === 'http_remote' ? 'remote' : 'local_only',
          usage: { input_tokens: inputTokens, output_tokens: extra.outputTokens ?? countTokens(extra.text ?? '') },
        };
        const resultId = `result:${this.o.ids.next('result')}`;
        const label = extra.label ?? 'personal';
        const at = toIso(finished);
        this.o.transcript.append({ kind: 'turn', id: turnId, participant: ctx.participant, session: ctx.session, classification: label, recordedAt: at,
          body: assertDto('inquirium.inquiry-turn.v1', { schema: 'inquirium.inquiry-turn.v1', 'turn/id': turnId, 'session/ref': ctx.session, 'participant/ref': ctx.participant, sequence: this.o.transcript.query({ participant: ctx.participant, session: ctx.session, kind: 'turn' }).length, content: req.turns[req.turns.length - 1]!.content, classification: label, 'recorded/at': at }) });
        this.o.transcript.append({ kind: 'result', id: resultId, participant: ctx.participant, session: ctx.session, classification: label, recordedAt: at,
          body: assertDto('inquirium.inquiry-result.v1', { schema: 'inquirium.inquiry-result.v1', 'result/id': resultId, 'turn/id': turnId, 'session/ref': ctx.session, 'participant/ref': ctx.participant, 'trace/ref': traceRef, provenance: { 'runtime/ref': response['runtime/ref'], 'model.binding/ref': response['model.binding/ref'], 'operation/id': operationId }, classification: label, output: response.output, epistemic: response.epistemic, 'recorded/at': at }) });
        effects.push({ kind: 'transcript.append', status: 'ok', target: `transcript:${ctx.participant}:inquirium.inquiry-result.v1` });
      } else {
        response = { ...response, 'reason/code': extra.reason ?? 'unspecified' };
      }
      this.o.traces.append({
        'trace/schema': 'inquirium.assistant-turn-trace.v1',
        'trace/id': traceRef,
        'turn/id': turnId,
        'participant/ref': ctx.participant,
        'operation/id': operationId,
        'time/started-at': toIso(started),
        'time/finished-at': toIso(finished),
        status: outcome,
        ...(extra.selected ? { 'runtime/ref': extra.selected.candidate['runtime/ref'], 'model.binding/ref': extra.selected.candidate['model.binding/ref'] } : {}),
        'input/shape': { 'message/count': messages.length, 'token/approx-input': inputTokens, 'file/has-any': hasFile, 'tool/has-any': false },
        ...(outcome === 'completed' ? { 'output/shape': { 'token/approx-output': extra.outputTokens ?? 0, 'artifact/refs': [] } } : {}),
        policy: { locality: policy.locality, 'trust/mode': policy.trust_mode, 'trace/level': 'metadata_only', 'persist/prompt': false, 'persist/response': false, 'egress/allowed': policy.locality !== 'local_only' },
        decisions,
        effects,
        diagnostics,
      });
      return assertDto('inquirium.generate.response.v1', response);
    };

    // 1. Context: none in Phase 1 scope; per-element decisions otherwise.
    const elements = ctx.elements ?? [];
    const sources = req.context_assembly?.sources ?? [];
    if (policy.scope === 'assistant-session-only' && (elements.length > 0 || sources.length > 0)) {
      decisions.push({ kind: 'egress', outcome: 'deny', 'reason/code': 'context-outside-session-scope', 'decided/by': 'host-policy' });
      return finish('policy-denied', { reason: 'context-outside-session-scope' });
    }
    // 2. Selection through the one filter seam (local-only is enforced there).
    const registered = this.o.runtimes();
    const labels = elements.map((e) => (typeof e.classification === 'string' ? e.classification : 'personal') as Classification);
    const selection = selectRuntime(registered.map((r) => r.candidate), { locality: policy.locality as 'local_only' | 'remote_allowed', operation: 'generate', contextLabels: labels });
    for (const d of selection.decisions) if (!d.kept) decisions.push({ kind: 'runtime-selection', outcome: 'reject-candidate', 'reason/code': d.reason, 'decided/by': 'host-policy' });
    if (selection.kind === 'handler-unavailable') {
      decisions.push({ kind: 'runtime-selection', outcome: 'no-candidate', 'reason/code': selection.reason, 'decided/by': 'host-policy' });
      return finish('handler-unavailable', { reason: selection.reason });
    }
    const selected = registered.find((r) => r.candidate === selection.candidate)!;
    decisions.push({ kind: 'runtime-selection', outcome: 'use-runtime', 'reason/code': selected.candidate.transport_kind === 'http_remote' ? 'remote-candidate-selected' : 'local-candidate-selected', 'decided/by': 'host-policy' });
    // 3. Per-element acceptance against the selected model.
    const acceptance: ModelAcceptance = selected.candidate.acceptance ?? { 'model.binding/ref': selected.candidate['model.binding/ref'], accepts_max_tier: 'personal', transport_kind: selected.candidate.transport_kind, remote_provider: false };
    const elementDecisions: ElementDecision[] = elements.map((e) => decideElement(e, acceptance, { onContextDenied: policy.on_context_denied as 'fail_closed' | 'drop_with_trace', allowDeclassification: policy.trust_mode === 'classification_gated' }));
    for (const d of elementDecisions) decisions.push({ kind: 'context-element', outcome: d.outcome, 'reason/code': d.reason, 'decided/by': 'host-policy', 'element/ref': d.elementId, 'source/kind': d.sourceKind, classification: d.classification });
    if (elementDecisions.some((d) => d.outcome === 'fail')) return finish('context-denied', { reason: 'element-above-acceptance' });
    const label = elementDecisions.reduce<Classification>((acc, d) => (d.passedAs ? joinClassification(acc, d.passedAs) : acc), 'personal');
    // 4. Invoke (bounded output).
    const maxTokens = Math.min(req.parameters?.max_tokens ?? this.o.maxOutputTokens ?? 1024, this.o.maxOutputTokens ?? 1024);
    try {
      const result = await selected.adapter.invoke({ messages, maxTokens, ...(req.parameters?.temperature !== undefined ? { temperature: req.parameters.temperature } : {}), ...(req.parameters?.stop ? { stop: req.parameters.stop } : {}) });
      return finish('completed', { selected, text: result.text, outputTokens: result.outputTokens ?? countTokens(result.text), label });
    } catch (e) {
      const code = e instanceof RuntimeInvokeError ? e.code : 'adapter-failed';
      return finish('failed', { reason: code, selected });
    }
  }
}

/** Whether a value is a valid generate request (for hosts that want to answer 400 before running anything). */
export const isGenerateRequest = (v: unknown): boolean => checkDto('inquirium.generate.request.v1', v).length === 0;
