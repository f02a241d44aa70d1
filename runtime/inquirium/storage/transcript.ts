/**
 * InquiryTranscriptStore (P066 Decision 9): the inquiry session's facts — turns, results and operator feedback —
 * append-only, classification first-class, scoped per participant. Inquirium depends on this interface, not on
 * a concrete store. Two implementations: in-memory (host default) and a local append-only JSONL file (the
 * degenerate baseline store for a node without Memarium). Feedback is appended, never overwritten; excision
 * removes a fact and leaves an excision record; retention is decided by the caller's ClassKeyed policy.
 */
import type { InquiriumInquiryFeedback } from '../../../generated/ts/inquirium.inquiry-feedback.v1.ts';
import { WopkitError } from '../../shared/errors.ts';
import { assertDto } from '../dto.ts';
import { FramedJsonlLog } from './framed-jsonl.ts';
import { classificationAxis, type Classification } from '../lattice.ts';

export type FactKind = 'turn' | 'result' | 'feedback';

export interface TranscriptFact {
  readonly kind: FactKind;
  /** turn/id, result/id or feedback/id. */
  readonly id: string;
  readonly participant: string;
  readonly session: string;
  /** Feedback carries no label of its own: it inherits the result's. */
  readonly classification: Classification;
  readonly recordedAt: string;
  /** The DTO (inquirium.inquiry-turn.v1 / -result.v1 / -feedback.v1). */
  readonly body: Readonly<Record<string, unknown>>;
}

interface Excision {
  readonly kind: 'excision';
  readonly id: string;
  readonly participant: string;
  readonly at: string;
}
type Line = TranscriptFact | Excision;

export interface TranscriptQuery {
  readonly participant: string;
  readonly session?: string;
  readonly kind?: FactKind;
  readonly maxClassification?: Classification;
}

export interface InquiryTranscriptStore {
  append(fact: TranscriptFact): void;
  /** Facts of ONE participant (never another's), in append order, minus excised ones. */
  query(q: TranscriptQuery): TranscriptFact[];
  /** Remove a participant's fact; returns whether it existed. */
  excise(participant: string, id: string, at: string): boolean;
  /** Excise every fact the predicate marks as past retention; returns how many. */
  applyRetention(isExpired: (fact: TranscriptFact) => boolean, at: string): number;
}


abstract class LineStore implements InquiryTranscriptStore {
  protected abstract lines(): readonly Line[];
  protected abstract write(line: Line): void;

  #live(): Map<string, TranscriptFact> {
    const live = new Map<string, TranscriptFact>();
    for (const l of this.lines()) {
      const key = `${l.participant}\u0000${l.id}`;
      if (l.kind === 'excision') live.delete(key);
      else if (!live.has(key)) live.set(key, l);
    }
    return live;
  }
  append(fact: TranscriptFact): void {
    if (this.#live().has(`${fact.participant}\u0000${fact.id}`)) throw new RangeError(`fact ${fact.id} already recorded: facts are append-only`);
    this.write(fact);
  }
  query(q: TranscriptQuery): TranscriptFact[] {
    return [...this.#live().values()].filter(
      (f) =>
        f.participant === q.participant &&
        (q.session === undefined || f.session === q.session) &&
        (q.kind === undefined || f.kind === q.kind) &&
        (q.maxClassification === undefined || classificationAxis.atLeastAsRestrictive(q.maxClassification, f.classification)),
    );
  }
  excise(participant: string, id: string, at: string): boolean {
    if (!this.#live().has(`${participant}\u0000${id}`)) return false;
    this.write({ kind: 'excision', id, participant, at });
    return true;
  }
  applyRetention(isExpired: (fact: TranscriptFact) => boolean, at: string): number {
    let n = 0;
    for (const f of this.#live().values()) if (isExpired(f) && this.excise(f.participant, f.id, at)) n++;
    return n;
  }
}

export class InMemoryTranscriptStore extends LineStore {
  readonly #lines: Line[] = [];
  protected lines(): readonly Line[] {
    return this.#lines;
  }
  protected write(line: Line): void {
    this.#lines.push(structuredClone(line));
  }
}

export class JsonlTranscriptStore extends LineStore {
  readonly #log: FramedJsonlLog<Line>;
  constructor(path: string, durable = false) {
    super();
    this.#log = new FramedJsonlLog<Line>(path, durable);
  }
  protected lines(): readonly Line[] {
    return this.#log.all();
  }
  protected write(line: Line): void {
    this.#log.append(line);
  }
  /**
   * Excision removes the content from disk, not only from view: the excision record is appended first (so a crash
   * right after still hides the fact), then the log is rewritten without the fact (atomic temp file + rename).
   */
  override excise(participant: string, id: string, at: string): boolean {
    if (!super.excise(participant, id, at)) return false;
    this.compact();
    return true;
  }
  /** Physically drop excised facts and their excision records (atomic rewrite). */
  compact(): void {
    const excised = new Set(this.#log.all().filter((l): l is Excision => l.kind === 'excision').map((l) => `${l.participant}\u0000${l.id}`));
    this.#log.rewrite((l) => l.kind !== 'excision' && !excised.has(`${l.participant}\u0000${l.id}`));
  }
}

export class FeedbackError extends WopkitError<'result-unknown' | 'superseded-feedback-unknown'> {
  constructor(code: FeedbackError['code'], message: string) {
    super(code, message);
  }
}

/**
 * Record operator feedback on ONE result (P066 8.3): validated as inquirium.inquiry-feedback.v1, the result must be
 * in the same participant's history (feedback-same-participant), and a `supersedes/ref` must name that
 * participant's earlier feedback. Feedback is a new fact every time — an amendment supersedes by reference and
 * never rewrites; the result fact is untouched. It carries the result's label. Nothing else reacts to it
 * (feedback-no-self-update).
 */
export function recordFeedback(store: InquiryTranscriptStore, feedback: unknown): TranscriptFact {
  const f = assertDto<InquiriumInquiryFeedback>('inquirium.inquiry-feedback.v1', feedback);
  const participant = f['participant/ref'];
  const result = store.query({ participant, kind: 'result' }).find((r) => r.id === f['result/ref']);
  if (result === undefined) throw new FeedbackError('result-unknown', 'feedback must target a result in the same participant\'s history');
  const supersedes = f['supersedes/ref'];
  if (supersedes !== undefined && !store.query({ participant, kind: 'feedback' }).some((x) => x.id === supersedes)) {
    throw new FeedbackError('superseded-feedback-unknown', 'supersedes/ref must name earlier feedback of the same participant');
  }
  const fact: TranscriptFact = { kind: 'feedback', id: f['feedback/id'], participant, session: f['session/ref'], classification: result.classification, recordedAt: f['recorded/at'], body: f as unknown as Record<string, unknown> };
  store.append(fact);
  return fact;
}
