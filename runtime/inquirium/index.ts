/**
 * The Inquirium runtime facade the host calls: generate on local runtimes, operator questions, and the
 * baseline-assistant conformance state. Defaults: in-memory transcript and trace, the deterministic built-in local
 * runtime.
 */
import { randomIds, systemClock, type Clock, type IdSource } from '../shared/clock.ts';
import { BuiltinLocalRuntime } from './adapters/builtin-local.ts';
import { baselineCandidates, runBaselineConformance } from './baseline.ts';
import { GeneratePipeline, type GenerateContext, type RegisteredRuntime } from './generate.ts';
import { OperatorQuestions, type HostQuestionPolicy } from './operator-questions.ts';
import { InMemoryTranscriptStore, type InquiryTranscriptStore } from './storage/transcript.ts';
import { InMemoryTraceStream, type TraceStream } from './storage/trace-stream.ts';

export interface InquiriumRuntimeOptions {
  readonly clock?: Clock;
  readonly ids?: IdSource;
  readonly runtimes?: readonly RegisteredRuntime[];
  readonly transcript?: InquiryTranscriptStore;
  readonly traces?: TraceStream;
  readonly questionPolicy?: HostQuestionPolicy;
  readonly environmentRef?: string;
  readonly maxOutputTokens?: number;
}

export const builtinLocalRuntime = (): RegisteredRuntime => ({
  adapter: new BuiltinLocalRuntime('runtime/builtin-local'),
  candidate: {
    'runtime/ref': 'runtime/builtin-local',
    'model.binding/ref': 'model.binding/builtin-local',
    transport_kind: 'command_stdio',
    operations: ['generate'],
    context_window: 4096,
    health: { status: 'healthy' },
  },
});

export function createInquiriumRuntime(options: InquiriumRuntimeOptions = {}) {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const runtimes: RegisteredRuntime[] = [...(options.runtimes ?? [builtinLocalRuntime()])];
  const transcript = options.transcript ?? new InMemoryTranscriptStore();
  const traces = options.traces ?? new InMemoryTraceStream();
  const environmentRef = options.environmentRef ?? 'environment/local';
  const reports = new Map<string, Record<string, unknown>>();
  const pipeline = new GeneratePipeline({ clock, ids, runtimes: () => runtimes, transcript, traces, maxOutputTokens: options.maxOutputTokens ?? 1024 });
  const questions = new OperatorQuestions(clock, options.questionPolicy ?? { displayCeiling: 'personal' });

  return {
    clock,
    transcript,
    traces,
    questions,
    runtimes,
    reports,
    generate: (request: unknown, ctx: GenerateContext) => pipeline.generate(request, ctx),
    proposeQuestion: (request: unknown) => questions.propose(request),
    answerQuestion: (answer: unknown) => questions.answer(answer),
    questionState: (ref: string) => questions.state(ref),
    tick: () => questions.tick(),
    /** Run the baseline conformance suite on every registered local runtime and keep the reports. */
    async certifyBaseline(): Promise<Record<string, unknown>[]> {
      const out: Record<string, unknown>[] = [];
      for (const r of runtimes) {
        const report = await runBaselineConformance(r.candidate, r.adapter, { clock, ids, environmentRef });
        reports.set(r.candidate['runtime/ref'], report);
        out.push(report);
      }
      return out;
    },
    /** Runtimes selectable as the baseline assistant right now. */
    baselineRuntimes: () => baselineCandidates(runtimes.map((r) => r.candidate), reports, environmentRef, clock.now()),
  };
}

export type InquiriumRuntime = ReturnType<typeof createInquiriumRuntime>;
