/**
 * The generate pipeline (P066 Decisions 2, 3, 5, 6, 8, 9, 10): takes an `inquirium.generate.request.v1`, applies
 * policy, decides every context element across narrowing layers, selects a runtime through the single filter seam,
 * invokes it and returns an `inquirium.generate.response.v1` whose epistemic block is never authoritative, plus a
 * trace ref. Every call — denial or not — appends exactly one trace record (shape, decisions, effects; no prompt or
 * response content) and, for a completed turn, the turn and result facts to the participant's transcript (the
 * result points forward to the trace; the trace never points at a transcript record).
 *
 * Order of work:
 *   1. validate the request; Phase 1 defaults fill the policy (local_only, strict_local, assistant-session-only,
 *      fail_closed, preserve);
 *   2. resolve the keyed settings for this turn (verification rigor by node mode; egress and trace level by the
 *      most sensitive label in play) — each resolution is a trace decision;
 *   3. scope: under assistant-session-only any context is a policy denial, never a silent read;
 *   4. model-independent layers (earlier layers the host passes in, then operator grants) narrow every element;
 *   5. selection through `selectRuntime` with locality, resolved egress, and the labels that cannot be dropped;
 *      an empty list is handler-unavailable;
 *   6. Inquirium's acceptance layer against the selected model; any `fail` ⇒ context-denied;
 *   7. invoke with bounded output (the pipeline also cuts an over-long answer to max_tokens).
 */
import type { InquiriumGeneratePolicy } from '../../generated/ts/inquirium.generate.request.v1.ts';
import type { InquiriumGenerateResponse } from '../../generated/ts/inquirium.generate.response.v1.ts';
import type { InquiriumAssistantTurnTrace, InquiriumTraceDecision, InquiriumTraceEffect } from '../../generated/ts/inquirium.assistant-turn-trace.v1.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { countTokens } from '../shared/tokenizer.ts';
import { admits, applyLayers, grantLayer, inquiriumLayer, type AcceptanceLayer, type ContextElement, type ElementOutcome } from './acceptance.ts';
import type { ChatMessage, RuntimeAdapter } from './adapters/types.ts';
import { RuntimeInvokeError } from './adapters/types.ts';
import { DEFAULT_ASSISTANT_CONFIG, type AssistantConfig } from './config.ts';
import { assertDto, checkDto } from './dto.ts';
import { resolveClassKeyed, resolveModeKeyed, type Resolution } from './keyed.ts';
import { classificationAxis, normaliseClassification, type Classification, type NodeMode } from './lattice.ts';
import { egressAxis, rigorAxis, traceLevelAxis } from './safety-axes.ts';
import { isLocal, selectRuntime, type RuntimeCandidate } from './selection.ts';
import type { InquiryTranscriptStore } from './storage/transcript.ts';
import type { Tx } from '../storage/index.ts';
import type { TraceStream } from './storage/trace-stream.ts';

export type GenerateOutcome = InquiriumGenerateResponse['outcome'];
export type GenerateResponse = InquiriumGenerateResponse;

export interface GenerateContext {
  /** participant:did:key:… — the accountable identity the turn belongs to. */
  readonly participant: string;
  readonly session: string;
  /** Label of the operator's own turn text (default personal: unknown ⇒ most restrictive). */
  readonly turnClassification?: Classification;
  /** Context elements resolved by host gates for this turn (granted-context scope only). */
  readonly elements?: readonly ContextElement[];
  /** Decisions of earlier layers (context assembly, middleware, supervisor); Inquirium can only narrow them. */
  readonly priorLayers?: readonly AcceptanceLayer[];
  /** A valid caller-chosen turn id to keep (assistant turns, Solution 045); absent: the pipeline assigns one. */
  readonly turnId?: string;
  /** Cap on the completed output in UTF-8 bytes, applied before the transcript is written (assistant turns). */
  readonly maxOutputBytes?: number;
}

export interface RegisteredRuntime {
  readonly candidate: RuntimeCandidate;
  readonly adapter: RuntimeAdapter;
}

/** Where content goes when an explicit policy allows persisting it: a classified artifact, referenced by descriptor. */
export interface ContentArtifactSink {
  put(artifact: { readonly kind: 'prompt' | 'response'; readonly classification: Classification; readonly participant: string; readonly text: string }): string;
}

export class InMemoryArtifactSink implements ContentArtifactSink {
  readonly items = new Map<string, { kind: string; classification: Classification; participant: string; text: string }>();
  #n = 0;
  put(a: { kind: 'prompt' | 'response'; classification: Classification; participant: string; text: string }): string {
    const ref = `artifact:inquirium:${a.kind}:${++this.#n}`;
    this.items.set(ref, { ...a });
    return ref;
  }
}

/** Produces the declassified projection of an element at a lower label (host-owned; Inquirium never invents one). */
export type Declassifier = (element: ContextElement, to: Classification) => string | undefined;

export interface GeneratePipelineOptions {
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly runtimes: () => readonly RegisteredRuntime[];
  readonly transcript: InquiryTranscriptStore;
  readonly traces: TraceStream;
  /** Largest max_tokens honoured (bounded output). */
  readonly maxOutputTokens?: number;
  /** Loaded assistant config (see config.ts); defaults to DEFAULT_ASSISTANT_CONFIG. */
  readonly config?: AssistantConfig;
  /** The node's current mode (commons by default). */
  readonly mode?: () => NodeMode;
  /** Explicit content-persistence policy; both default to false. Content then goes to `artifacts`, never into the trace. */
  readonly persist?: { readonly prompt?: boolean; readonly response?: boolean };
  readonly artifacts?: ContentArtifactSink;
  readonly declassifier?: Declassifier;
}

type Decision = InquiriumTraceDecision;
const POLICY_DEFAULTS: Required<InquiriumGeneratePolicy> = { locality: 'local_only', trust_mode: 'strict_local', scope: 'assistant-session-only', on_context_denied: 'fail_closed', plurality: 'preserve' };
export const PLURALITY_INSTRUCTION = 'Where more than one answer is reasonable, present the alternatives side by side instead of choosing one.';
const CAVEATS = {
  base: 'Model output is evidence to weigh, not a decision.',
  elevated: 'The node runs with elevated verification rigor: check this against another source before relying on it.',
  strict: 'The node runs with strict verification rigor: treat this as unverified until you have checked it yourself.',
} as const;

/** The caveat a completed answer carries when the host cut it at its output cap (truncation is made explicit). */
export const OUTPUT_TRUNCATED_CAVEAT = 'The answer was cut at the host output limit; it is incomplete.';

/** Cut text to at most `max` UTF-8 bytes without splitting a character. */
export function capUtf8(text: string, max: number): { text: string; cut: boolean } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return { text, cut: false };
  let end = max;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), cut: true };
}

/** Cut text to at most `max` tokens (whole words; tokens never span whitespace, so per-word counts add up). */
export function truncateToTokens(text: string, max: number): { text: string; cut: boolean } {
  let used = 0;
  const parts = text.split(/(\s+)/);
  let out = '';
  for (const p of parts) {
    const n = countTokens(p);
    if (used + n > max) return { text: out.trimEnd(), cut: true };
    used += n;
    out += p;
  }
  return { text, cut: false };
}

const resolutionDecision = (kind: 'class-keyed-resolution' | 'mode-keyed-resolution', setting: string, r: Resolution<unknown>): Decision => ({
  kind,
  outcome: `${setting.replace(/_/g, '-')}-from-${r.chosenKey}`,
  'reason/code': r.reason,
  'decided/by': 'host-policy',
  ...(kind === 'class-keyed-resolution' ? { classification: classificationAxis.normalise(r.normalised) } : {}),
});

export class GeneratePipeline {
  readonly #config: AssistantConfig;
  constructor(private readonly o: GeneratePipelineOptions) {
    this.#config = o.config ?? DEFAULT_ASSISTANT_CONFIG;
  }

  /**
   * Run one turn in the caller's unit of work `tx` (the request's): the turn's transcript facts and its trace are
   * planned into it and commit with the rest of the request, or not at all.
   */
  async generate(tx: Tx, request: unknown, ctx: GenerateContext): Promise<GenerateResponse> {
    const req = assertDto('inquirium.generate.request.v1', request);
    const policy: Required<InquiriumGeneratePolicy> = { ...POLICY_DEFAULTS, ...(req.policy ?? {}) };
    const started = this.o.clock.now();
    const traceRef = `tr:${this.o.ids.next('trace')}`;
    const turnId = ctx.turnId ?? `turn:${this.o.ids.next('turn')}`;
    const operationId = `op:${this.o.ids.next('op')}`;
    const decisions: Decision[] = [];
    const effects: InquiriumTraceEffect[] = [];
    const turnLabel = normaliseClassification(ctx.turnClassification ?? 'personal');
    const elements = ctx.elements ?? [];
    const sources = req.context_assembly?.sources ?? [];
    const turnMessages: ChatMessage[] = req.turns.map((t) => ({ role: t.role, content: t.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n') }));
    const inputTokens = turnMessages.reduce((n, m) => n + countTokens(m.content), 0);
    const hasFile = req.turns.some((t) => t.content.some((p) => p.type !== 'text'));

    // 2. Keyed settings for this turn.
    const mode = this.o.mode?.() ?? 'commons';
    const rigor = resolveModeKeyed(this.#config.verification_rigor, mode, rigorAxis);
    decisions.push(resolutionDecision('mode-keyed-resolution', 'verification_rigor', rigor));
    const sensitive = elements.reduce<Classification>((acc, e) => classificationAxis.join(acc, e.classification), turnLabel);
    const traceLevel = resolveClassKeyed(this.#config.trace_level, sensitive, traceLevelAxis);
    decisions.push(resolutionDecision('class-keyed-resolution', 'trace_level', traceLevel));
    const detail = traceLevel.value === 'decision_detail';

    let selected: RegisteredRuntime | undefined;
    let egressAllowed = false;
    const finish = async (outcome: GenerateOutcome, extra: { reason?: string; text?: string; outputTokens?: number; label?: Classification; grounded?: string[]; prompt?: readonly ChatMessage[] } = {}): Promise<GenerateResponse> => {
      const finished = this.o.clock.now();
      const diagnostics = { 'error/code': outcome === 'completed' ? null : (extra.reason ?? null), 'retry/count': 0 };
      const artifactRefs: string[] = [];
      let response: GenerateResponse = { schema: 'inquirium.generate.response.v1', operation: 'generate', outcome, 'trace/ref': traceRef, diagnostics };
      if (outcome === 'completed' && selected !== undefined) {
        const label = extra.label ?? turnLabel;
        const capped = ctx.maxOutputBytes === undefined ? { text: extra.text ?? '', cut: false } : capUtf8(extra.text ?? '', ctx.maxOutputBytes);
        extra = { ...extra, text: capped.text };
        const caveats: string[] = [CAVEATS.base, ...(rigor.value === 'standard' ? [] : [CAVEATS[rigor.value]]), ...(capped.cut ? [OUTPUT_TRUNCATED_CAVEAT] : [])];
        response = {
          ...response,
          output: [{ type: 'text', text: extra.text ?? '' }],
          epistemic: { stance: 'advisory', confidence: 'unstated', grounded_in: extra.grounded ?? [], caveats },
          'runtime/ref': selected.candidate['runtime/ref'],
          'model.binding/ref': selected.candidate['model.binding/ref'],
          locality: isLocal(selected.candidate) ? 'local_only' : 'remote',
          usage: { input_tokens: inputTokens, output_tokens: extra.outputTokens ?? countTokens(extra.text ?? '') },
        };
        // Content persistence only under explicit policy, and only as classified artifacts referenced by descriptor.
        if (this.o.persist?.prompt === true && this.o.artifacts !== undefined && extra.prompt !== undefined) {
          artifactRefs.push(this.o.artifacts.put({ kind: 'prompt', classification: label, participant: ctx.participant, text: extra.prompt.map((m) => `${m.role}: ${m.content}`).join('\n') }));
          effects.push({ kind: 'object-store.put', status: 'ok', target: `artifact:inquirium:prompt:${label}` });
        }
        if (this.o.persist?.response === true && this.o.artifacts !== undefined) {
          artifactRefs.push(this.o.artifacts.put({ kind: 'response', classification: label, participant: ctx.participant, text: extra.text ?? '' }));
          effects.push({ kind: 'object-store.put', status: 'ok', target: `artifact:inquirium:response:${label}` });
        }
        const resultId = `result:${this.o.ids.next('result')}`;
        const at = toIso(finished);
        const sequence = await this.o.transcript.countInSession(ctx.participant, ctx.session, 'turn', tx);
        await this.o.transcript.append({
          kind: 'turn', id: turnId, participant: ctx.participant, session: ctx.session, classification: turnLabel, recordedAt: at,
          body: { ...assertDto('inquirium.inquiry-turn.v1', { schema: 'inquirium.inquiry-turn.v1', 'turn/id': turnId, 'session/ref': ctx.session, 'participant/ref': ctx.participant, sequence, content: req.turns[req.turns.length - 1]!.content, classification: turnLabel, 'recorded/at': at }) },
        }, tx);
        await this.o.transcript.append({
          kind: 'result', id: resultId, participant: ctx.participant, session: ctx.session, classification: label, recordedAt: at,
          body: { ...assertDto('inquirium.inquiry-result.v1', { schema: 'inquirium.inquiry-result.v1', 'result/id': resultId, 'turn/id': turnId, 'session/ref': ctx.session, 'participant/ref': ctx.participant, 'trace/ref': traceRef, provenance: { 'runtime/ref': response['runtime/ref'], 'model.binding/ref': response['model.binding/ref'], 'operation/id': operationId }, classification: label, output: response.output, epistemic: response.epistemic, 'recorded/at': at }) },
        }, tx);
        effects.push({ kind: 'transcript.append', status: 'ok', target: `transcript:participant-space:kind:inquirium.inquiry-result.v1` });
      } else {
        response = { ...response, 'reason/code': extra.reason ?? 'unspecified' };
      }
      const trace: InquiriumAssistantTurnTrace = {
        'trace/schema': 'inquirium.assistant-turn-trace.v1',
        'trace/id': traceRef,
        'turn/id': turnId,
        'participant/ref': ctx.participant,
        'operation/id': operationId,
        'time/started-at': toIso(started),
        'time/finished-at': toIso(finished),
        status: outcome,
        ...(selected ? { 'runtime/ref': selected.candidate['runtime/ref'], 'model.binding/ref': selected.candidate['model.binding/ref'] } : {}),
        'input/shape': { 'message/count': turnMessages.length, 'token/approx-input': inputTokens, 'file/has-any': hasFile, 'tool/has-any': false },
        ...(outcome === 'completed' ? { 'output/shape': { 'token/approx-output': extra.outputTokens ?? 0, 'artifact/refs': artifactRefs } } : {}),
        policy: {
          locality: policy.locality,
          'trust/mode': policy.trust_mode,
          'trace/level': traceLevel.value,
          'persist/prompt': artifactRefs.some((r) => r.includes(':prompt:')),
          'persist/response': artifactRefs.some((r) => r.includes(':response:')),
          'egress/allowed': egressAllowed,
        },
        decisions,
        effects,
        diagnostics,
      };
      await this.o.traces.append(trace, tx);
      return assertDto('inquirium.generate.response.v1', response);
    };

    // 3. Scope.
    if (policy.scope === 'assistant-session-only' && (elements.length > 0 || sources.length > 0)) {
      decisions.push({ kind: 'egress', outcome: 'deny', 'reason/code': 'context-outside-session-scope', 'decided/by': 'host-policy' });
      return finish('policy-denied', { reason: 'context-outside-session-scope' });
    }

    // 4. Model-independent layers: earlier layers first, then operator grants.
    const allowDeclassification = policy.trust_mode === 'classification_gated' && this.o.declassifier !== undefined;
    const acceptancePolicy = { onContextDenied: policy.on_context_denied, allowDeclassification };
    const early: AcceptanceLayer[] = [...(ctx.priorLayers ?? []), grantLayer(policy.on_context_denied)];
    const afterEarly = applyLayers(elements, early);
    const earlyOutcome = new Map<string, ElementOutcome>(afterEarly.map((d) => [d.elementId, d.effective]));

    // 5. Selection: the labels that will reach the model and cannot be dropped or declassified away.
    const blocking = elements.filter((e) => admits(earlyOutcome.get(e['element/id']) ?? 'include') && policy.on_context_denied === 'fail_closed' && !(allowDeclassification && e.declassifiable === true));
    const labels: Classification[] = [turnLabel, ...blocking.map((e) => normaliseClassification(e.classification))];
    const egressLabel = labels.reduce<Classification>((a, b) => classificationAxis.join(a, b), 'public');
    const egress = resolveClassKeyed(this.#config.egress, egressLabel, egressAxis);
    decisions.push(resolutionDecision('class-keyed-resolution', 'egress', egress));
    const registered = this.o.runtimes();
    const selection = selectRuntime(registered.map((r) => r.candidate), { locality: policy.locality, operation: 'generate', contextLabels: labels, egress: egress.value });
    if (detail) for (const d of selection.decisions) if (!d.kept) decisions.push({ kind: 'runtime-selection', outcome: 'reject-candidate', 'reason/code': d.reason, 'decided/by': 'host-policy' });
    if (selection.kind === 'handler-unavailable') {
      decisions.push({ kind: 'runtime-selection', outcome: 'no-candidate', 'reason/code': selection.reason, 'decided/by': 'host-policy' });
      for (const e of elements) decisions.push({ kind: 'context-element', outcome: 'drop', 'reason/code': 'no-runtime-selected', 'decided/by': 'host-policy', 'element/ref': e['element/id'], 'source/kind': e['source/kind'], classification: normaliseClassification(e.classification) });
      return finish('handler-unavailable', { reason: selection.reason });
    }
    selected = registered.find((r) => r.candidate === selection.candidate)!;
    egressAllowed = !isLocal(selected.candidate);
    decisions.push({ kind: 'runtime-selection', outcome: 'use-runtime', 'reason/code': isLocal(selected.candidate) ? 'local-candidate-selected' : 'remote-candidate-selected', 'decided/by': 'host-policy' });

    // 6. Inquirium's acceptance layer against the selected model (a local model without an acceptance block takes personal).
    const acceptance = selected.candidate.acceptance ?? { accepts_max_tier: isLocal(selected.candidate) ? 'personal' : 'public' };
    const layered = applyLayers(elements, [...early, inquiriumLayer(acceptance, acceptancePolicy)]);
    const passed: { element: ContextElement; label: Classification; text: string }[] = [];
    let denied = false;
    for (let i = 0; i < elements.length; i++) {
      const e = elements[i]!;
      const d = layered[i]!;
      let outcome = d.effective;
      let reason = d.reason;
      let label = normaliseClassification(e.classification);
      let text = (e.content ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      if (outcome === 'declassify') {
        const projection = this.o.declassifier?.(e, acceptance.accepts_max_tier);
        if (projection === undefined) {
          outcome = policy.on_context_denied === 'drop_with_trace' ? 'drop' : 'fail';
          reason = 'no-declassified-projection';
        } else {
          label = normaliseClassification(acceptance.accepts_max_tier);
          text = projection;
        }
      }
      decisions.push({ kind: 'context-element', outcome, 'reason/code': reason, 'decided/by': 'host-policy', 'element/ref': e['element/id'], 'source/kind': e['source/kind'], classification: normaliseClassification(e.classification) });
      if (admits(outcome)) passed.push({ element: e, label, text });
      else if (outcome === 'fail') denied = true;
    }
    if (denied) return finish('context-denied', { reason: 'element-above-acceptance' });

    // 7. Invoke with bounded output.
    const cap = this.o.maxOutputTokens ?? 1024;
    const maxTokens = Math.min(req.parameters?.max_tokens ?? cap, cap);
    const system: ChatMessage[] = [
      ...(policy.plurality === 'preserve' ? [{ role: 'system' as const, content: PLURALITY_INSTRUCTION }] : []),
      ...passed.filter((p) => p.text.length > 0).map((p) => ({ role: 'system' as const, content: `Context (${p.label}, ${p.element['source/kind']}): ${p.text}` })),
    ];
    const messages = [...system, ...turnMessages];
    const resultLabel = passed.reduce<Classification>((acc, p) => classificationAxis.join(acc, p.label), turnLabel);
    try {
      const result = await selected.adapter.invoke({ messages, maxTokens, ...(req.parameters?.temperature !== undefined ? { temperature: req.parameters.temperature } : {}), ...(req.parameters?.stop ? { stop: req.parameters.stop } : {}) });
      const bounded = truncateToTokens(result.text, maxTokens);
      if (bounded.cut) decisions.push({ kind: 'redaction', outcome: 'truncate-output', 'reason/code': 'output-above-max-tokens', 'decided/by': 'host-policy' });
      return finish('completed', { text: bounded.text, outputTokens: countTokens(bounded.text), label: resultLabel, grounded: passed.map((p) => p.element['element/id']), prompt: messages });
    } catch (e) {
      const code = e instanceof RuntimeInvokeError ? e.code : 'adapter-failed';
      return finish('failed', { reason: code });
    }
  }
}

/** Whether a value is a valid generate request (for hosts that want to answer 400 before running anything). */
export const isGenerateRequest = (v: unknown): boolean => checkDto('inquirium.generate.request.v1', v).length === 0;
