/**
 * The Inquirium runtime facade the host calls: generate on local runtimes, operator feedback, operator questions,
 * escalation, and the baseline-assistant conformance state. Everything it keeps lives in the store it is given
 * (`port`): operator questions, the transcript and the trace stream (or, for the last two, local JSONL files).
 * Defaults: the deterministic built-in local runtime, DEFAULT_ASSISTANT_CONFIG, node mode commons, no content
 * persistence.
 */
import { randomIds, systemClock, toIso, type Clock, type IdSource } from '../shared/clock.ts';
import { BuiltinLocalRuntime } from './adapters/builtin-local.ts';
import { baselineCandidates, runBaselineConformance, type EgressObserver } from './baseline.ts';
import { DEFAULT_ASSISTANT_CONFIG, type AssistantConfig } from './config.ts';
import { assertDto } from './dto.ts';
import { raise, type FeedItem } from './escalation-policy.ts';
import { GeneratePipeline, type ContentArtifactSink, type Declassifier, type GenerateContext, type RegisteredRuntime } from './generate.ts';
import type { NodeMode } from './lattice.ts';
import { OperatorQuestions, type HostQuestionPolicy, type QuestionLimits } from './operator-questions.ts';
import type { RuntimeCandidate } from './selection.ts';
import { recordFeedback, StoreTranscript, type InquiryTranscriptStore } from './storage/transcript.ts';
import { StoreTraceStream, type StandaloneTraceStream, type TraceStream } from './storage/trace-stream.ts';
import { unitsOf, type StoragePort, type Tx } from '../storage/index.ts';

/**
 * A runtime as a host registers it. In-process registrations may omit the candidate's `schema` discriminator and
 * `health.checked/at`; registration fills them in (checked now) and then validates the whole candidate.
 */
export interface RuntimeRegistration {
  readonly adapter: RegisteredRuntime['adapter'];
  readonly candidate: Omit<RuntimeCandidate, 'schema' | 'health'> & {
    readonly schema?: RuntimeCandidate['schema'];
    readonly health: Omit<RuntimeCandidate['health'], 'checked/at'> & { readonly 'checked/at'?: string };
  };
}

export interface InquiriumRuntimeOptions {
  /** The store everything the runtime keeps lives in (runtime/storage/: openMemoryStore, openSqliteStore, …). */
  readonly port: StoragePort;
  readonly clock?: Clock;
  readonly ids?: IdSource;
  readonly runtimes?: readonly RuntimeRegistration[];
  readonly transcript?: InquiryTranscriptStore;
  readonly traces?: TraceStream;
  readonly questionPolicy?: HostQuestionPolicy;
  /** Per-tenant bounds on operator questions (default DEFAULT_QUESTION_LIMITS). */
  readonly questionLimits?: QuestionLimits;
  readonly environmentRef?: string;
  readonly maxOutputTokens?: number;
  /** A config loaded with loadAssistantConfig (monotonicity already checked). */
  readonly config?: AssistantConfig;
  readonly mode?: NodeMode;
  readonly persist?: { readonly prompt?: boolean; readonly response?: boolean };
  readonly artifacts?: ContentArtifactSink;
  readonly declassifier?: Declassifier;
  readonly egressObserver?: EgressObserver;
}

/** The deterministic built-in local runtime, registered as a `command_stdio` (in-process, no network) candidate. */
export const builtinLocalRuntime = (checkedAtMs = 0): RegisteredRuntime => ({
  adapter: new BuiltinLocalRuntime('runtime/builtin-local'),
  candidate: {
    schema: 'inquirium.runtime-candidate.v1',
    'runtime/ref': 'runtime/builtin-local',
    'model.binding/ref': 'model.binding/builtin-local',
    transport_kind: 'command_stdio',
    provider: 'wopkit-builtin',
    operations: ['generate'],
    context_window: 4096,
    health: { status: 'healthy', 'checked/at': toIso(checkedAtMs) },
  },
});

export function createInquiriumRuntime(options: InquiriumRuntimeOptions) {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const port = options.port;
  const units = unitsOf(port);
  const runtimes: RegisteredRuntime[] = [];
  const transcript = options.transcript ?? new StoreTranscript(units, () => clock.now());
  const traceStream = options.traces ?? new StoreTraceStream(() => clock.now());
  /** The stream for callers outside any request: each call is its own unit. */
  const traces: StandaloneTraceStream = {
    append: (trace) => units((tx) => traceStream.append(trace, tx)),
    byTrace: (traceRef) => units((tx) => traceStream.byTrace(traceRef, tx)),
    recent: () => units((tx) => traceStream.recent(tx)),
  };
  const environmentRef = options.environmentRef ?? 'environment/local';
  const config = options.config ?? DEFAULT_ASSISTANT_CONFIG;
  let mode: NodeMode = options.mode ?? 'commons';
  const reports = new Map<string, Record<string, unknown>>();
  const pipeline = new GeneratePipeline({
    clock,
    ids,
    runtimes: () => runtimes,
    transcript,
    traces: traceStream,
    maxOutputTokens: options.maxOutputTokens ?? 1024,
    config,
    mode: () => mode,
    ...(options.persist ? { persist: options.persist } : {}),
    ...(options.artifacts ? { artifacts: options.artifacts } : {}),
    ...(options.declassifier ? { declassifier: options.declassifier } : {}),
  });
  const questions = new OperatorQuestions(units, clock, options.questionPolicy ?? { displayCeiling: 'personal' }, options.questionLimits);

  /** Register a runtime; its (completed) candidate must be a valid inquirium.runtime-candidate.v1. */
  const register = (r: RuntimeRegistration): RegisteredRuntime => {
    const candidate = assertDto('inquirium.runtime-candidate.v1', {
      ...r.candidate,
      schema: 'inquirium.runtime-candidate.v1',
      health: { ...r.candidate.health, 'checked/at': r.candidate.health['checked/at'] ?? toIso(clock.now()) },
    });
    const registered: RegisteredRuntime = { adapter: r.adapter, candidate };
    runtimes.push(registered);
    return registered;
  };
  for (const r of options.runtimes ?? [builtinLocalRuntime(clock.now())]) register(r);

  return {
    clock,
    transcript,
    /** The trace stream as a request reads it (in the request's unit). */
    traceStream,
    /** The trace stream for callers outside any request (each call its own unit). */
    traces,
    questions,
    runtimes: runtimes as readonly RegisteredRuntime[],
    reports,
    config,
    register,
    setMode: (m: NodeMode) => {
      mode = m;
    },
    /** Run one turn in the request's unit of work `tx` (its transcript facts and trace commit with the request). */
    generateIn: (tx: Tx, request: unknown, ctx: GenerateContext) => pipeline.generate(tx, request, ctx),
    /** Run one turn on its own, outside any request (a library caller): the turn is its one unit of work. */
    generate: (request: unknown, ctx: GenerateContext) => units((tx) => pipeline.generate(tx, request, ctx)),
    /** Append operator feedback on one result (never overwrites). */
    feedback: (dto: unknown) => recordFeedback(transcript, dto),
    tick: () => questions.tick(),
    /**
     * Decide whether a feed item stays in the feed, becomes a notification, or an operator prompt (mode-keyed); a
     * prompt's question opens in the request's unit `tx`.
     */
    escalate: (tx: Tx, item: FeedItem, proposedQuestion?: unknown) =>
      raise(item, mode, { threshold: config.escalation_threshold, questions, tx, ...(proposedQuestion !== undefined ? { proposedQuestion } : {}) }),
    /** Run the baseline conformance suite on every registered runtime and keep the reports. */
    async certifyBaseline(): Promise<Record<string, unknown>[]> {
      const out: Record<string, unknown>[] = [];
      for (const r of runtimes) {
        const report = await runBaselineConformance(r.candidate, r.adapter, { clock, ids, environmentRef, ...(options.egressObserver ? { egress: options.egressObserver } : {}) });
        reports.set(r.candidate['runtime/ref'], report);
        out.push(report);
      }
      return out;
    },
    /** Runtimes selectable as the baseline assistant right now (local, fresh passing report). */
    baselineRuntimes: () => baselineCandidates(runtimes.map((r) => r.candidate), reports, environmentRef, clock.now()),
  };
}

export type InquiriumRuntime = ReturnType<typeof createInquiriumRuntime>;

export * from './lattice.ts';
export * from './keyed.ts';
export * from './safety-axes.ts';
export * from './config.ts';
export * from './acceptance.ts';
export * from './selection.ts';
export * from './generate.ts';
export * from './baseline.ts';
export * from './operator-questions.ts';
export * from './escalation-policy.ts';
export * from './retention.ts';
export * from './dto.ts';
export * from './adapters/types.ts';
export { BuiltinLocalRuntime } from './adapters/builtin-local.ts';
export { OpenAiCompatibleRuntime, isLoopbackUrl } from './adapters/openai-compatible.ts';
export * from './storage/framed-jsonl.ts';
export * from './storage/transcript.ts';
export * from './storage/trace-stream.ts';
// Solution 045 (issue 38): grants, context assembly, question transitions, crisis candidates, assistant turns, bundles.
export * from './grants.ts';
export { assembleContext, ContextDeniedError, type AssembledContext, type AssemblyDecision, type AssemblyUse, type ContextResolver } from './context-assembly.ts';
export * from './question-transitions.ts';
export * from './crisis-candidates.ts';
export * from './assistant-turns.ts';
export * from './transcript-bundles.ts';
