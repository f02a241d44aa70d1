/**
 * InquiryTranscriptStore (P066 Decision 9): the inquiry session's facts — turns, results and operator feedback —
 * append-only, classification first-class, scoped per participant. Inquirium depends on this interface, not on
 * a concrete store. Two implementations: the store (StoreTranscript: a document log filed by participant; a
 * generate's facts commit with the rest of its request) and a local append-only JSONL file (the degenerate
 * baseline store for a node without Memarium). Feedback is appended, never overwritten; excision removes a fact's
 * content (from the store's row, or from the file by rewriting it); retention is decided by the caller's ClassKeyed
 * policy.
 */
import { WopkitError } from '../../shared/errors.ts';
import { assertDto } from '../dto.ts';
import { FramedJsonlLog, type FramedJsonlOptions, type RecoveryReport, type RewriteReport } from './framed-jsonl.ts';
import { classificationAxis, CLASSIFICATIONS, type Classification } from '../lattice.ts';
import { StoreCorruptError, type JsonDoc, type Tx, type Units } from '../../storage/index.ts';


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

const FACT_KINDS: readonly FactKind[] = ['turn', 'result', 'feedback'];
const isFactKind = (v: unknown): v is FactKind => FACT_KINDS.some((k) => k === v);
const isClassification = (v: unknown): v is Classification => CLASSIFICATIONS.some((c) => c === v);
const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a value is a transcript line: a fact (its kind, ids, label and time, and a DTO body object) or an excision
 * record. The structural check both homes decode with (the body's DTO was validated when the fact was made; a
 * replay of a long transcript checks its shape only, which keeps the file's open and the store's queries cheap).
 */
export function isTranscriptLine(v: unknown): v is Line {
  if (!isObject(v) || typeof v.id !== 'string' || typeof v.participant !== 'string') return false;
  if (v.kind === 'excision') return typeof v.at === 'string';
  return isFactKind(v.kind) && typeof v.session === 'string' && typeof v.recordedAt === 'string' && isClassification(v.classification) && isObject(v.body);
}

/** The transcript log's decoder: a stored document back into its line; anything else is refused (StoreCorruptError). */
export function transcriptLineOf(doc: JsonDoc): Line {
  if (isTranscriptLine(doc)) return doc;
  const id = typeof doc.id === 'string' ? ` ${doc.id}` : '';
  throw new StoreCorruptError(StoreTranscript.LOG, `a stored transcript line${id} is not one this runtime wrote`);
}

export interface TranscriptQuery {
  readonly participant: string;
  readonly session?: string;
  readonly kind?: FactKind;
  readonly maxClassification?: Classification;
}

export interface InquiryTranscriptStore {
  /** Append a fact (refused when the participant has one with that id); with `tx`, as part of that request's writes. */
  append(fact: TranscriptFact, tx?: Tx): Promise<void>;
  /** Facts of ONE participant (never another's), in append order, minus excised ones; at most `limit` (default 1000). */
  query(q: TranscriptQuery, limit?: number): Promise<TranscriptFact[]>;
  /**
   * How many live facts of one participant's session are of `kind` (a turn's sequence number is built from it); with
   * `tx`, read through that request's unit.
   */
  countInSession(participant: string, session: string, kind: FactKind, tx?: Tx): Promise<number>;
  /** Remove a participant's fact; returns whether it existed. */
  excise(participant: string, id: string, at: string): Promise<boolean>;
  /** Excise every fact the predicate marks as past retention; returns how many. */
  applyRetention(isExpired: (fact: TranscriptFact) => boolean, at: string): Promise<number>;
}

/** Whether a fact matches a query (the participant is matched by the caller). */
const matches = (f: TranscriptFact, q: TranscriptQuery): boolean =>
  (q.session === undefined || f.session === q.session) &&
  (q.kind === undefined || f.kind === q.kind) &&
  (q.maxClassification === undefined || classificationAxis.atLeastAsRestrictive(q.maxClassification, f.classification));

/** The most facts one query answers (the first ones in append order). */
export const QUERY_LIMIT = 1000;

/** The group a fact is counted in under its participant: its session and kind. */
const groupOf = (session: string, kind: FactKind): string => `${session}\u001f${kind}`;

/**
 * The transcript in the store: one document log, each fact filed under its participant; an excised fact's row
 * keeps only the excision record (the content is gone from the store, not merely hidden).
 */
export class StoreTranscript implements InquiryTranscriptStore {
  static readonly LOG = 'transcript';
  readonly #units: Units;
  readonly #now: () => number;

  constructor(units: Units, now: () => number) {
    this.#units = units;
    this.#now = now;
  }

  async append(fact: TranscriptFact, tx?: Tx): Promise<void> {
    if (tx !== undefined) {
      // Looked up by index; a race the look missed is refused at commit as a stale read (readAbsent), so the request's
      // unit of work runs it again and the look then finds the fact.
      if ((await tx.read.docByItem({ log: StoreTranscript.LOG, key: fact.participant, item: fact.id })) !== undefined) throw new RangeError(`fact ${fact.id} already recorded: facts are append-only`);
      tx.add('doc.append', { log: StoreTranscript.LOG, key: fact.participant, item: fact.id, grp: groupOf(fact.session, fact.kind), readAbsent: true, atMs: this.#now(), doc: structuredClone(fact) });
      return;
    }
    await this.#units((own) => this.append(fact, own));
  }

  async query(q: TranscriptQuery, limit = QUERY_LIMIT): Promise<TranscriptFact[]> {
    const out: TranscriptFact[] = [];
    for (let from = 0; out.length < limit; ) {
      const page = await this.#units((tx) => tx.read.docsPage({ log: StoreTranscript.LOG, key: q.participant, fromPos: from, limit: QUERY_LIMIT }));
      for (const { doc } of page) {
        const line = transcriptLineOf(doc);
        if (line.kind !== 'excision' && matches(line, q) && out.length < limit) out.push(line);
      }
      if (page.length < QUERY_LIMIT) break;
      from = page[page.length - 1]!.pos + 1;
    }
    return out;
  }

  async countInSession(participant: string, session: string, kind: FactKind, tx?: Tx): Promise<number> {
    const count = (t: Tx) => t.read.docCount({ log: StoreTranscript.LOG, key: participant, grp: groupOf(session, kind) });
    return tx !== undefined ? count(tx) : this.#units(count);
  }

  async excise(participant: string, id: string, at: string): Promise<boolean> {
    return this.#units(async (tx) => {
      const hit = await tx.read.docByItem({ log: StoreTranscript.LOG, key: participant, item: id });
      const found = hit === undefined || transcriptLineOf(hit.doc).kind === 'excision' ? undefined : hit;
      if (found === undefined) return false;
      tx.add('doc.replace', { log: StoreTranscript.LOG, pos: found.pos, doc: { kind: 'excision', id, participant, at } });
      return true;
    });
  }

  async applyRetention(isExpired: (fact: TranscriptFact) => boolean, at: string): Promise<number> {
    let n = 0;
    for (let from = 0; ; ) {
      const page = await this.#units((tx) => tx.read.docsPage({ log: StoreTranscript.LOG, fromPos: from, limit: 1000 }));
      if (page.length === 0) return n;
      n += await this.#units((tx) => {
      let excised = 0;
      for (const { pos, doc } of page) {
        const line = transcriptLineOf(doc);
        if (line.kind === 'excision' || !isExpired(line)) continue;
        tx.add('doc.replace', { log: StoreTranscript.LOG, pos, doc: { kind: 'excision', id: line.id, participant: line.participant, at } });
        excised++;
      }
      return excised;
      });
      from = page[page.length - 1]!.pos + 1;
    }
  }
}

/**
 * The live facts, indexed per participant as lines arrive, so an append or a query does not depend on the length
 * of the history (no replay of the lines per call; a query touches one participant's facts).
 */
abstract class LineStore {
  readonly #live = new Map<string, Map<string, TranscriptFact>>();
  /** Ids of excised facts, per participant: an id stays taken after its fact is excised (as in the store). */
  readonly #retired = new Map<string, Set<string>>();
  /** Record a line; returns the stored copy (which the index keeps). */
  protected abstract persist(line: Line): Line;
  /** Runs once after one or more excisions were recorded (the JSONL store compacts here). */
  protected settle(): void {}

  /** Apply a line to the index: the first fact of a key is live until an excision of that key. */
  protected index(line: Line): void {
    const facts = this.#live.get(line.participant);
    if (line.kind === 'excision') {
      facts?.delete(line.id);
      if (facts?.size === 0) this.#live.delete(line.participant);
      const retired = this.#retired.get(line.participant) ?? new Set<string>();
      this.#retired.set(line.participant, retired.add(line.id));
    } else if (facts === undefined) this.#live.set(line.participant, new Map([[line.id, line]]));
    else if (!facts.has(line.id)) facts.set(line.id, line);
  }
  /** Whether a stored line is a live fact (the very object the index holds). */
  protected isLive(line: Line): boolean {
    return line.kind !== 'excision' && this.#live.get(line.participant)?.get(line.id) === line;
  }
  #has(participant: string, id: string): boolean {
    return this.#live.get(participant)?.has(id) ?? false;
  }
  async append(fact: TranscriptFact): Promise<void> {
    if (this.#has(fact.participant, fact.id) || this.#retired.get(fact.participant)?.has(fact.id) === true) throw new RangeError(`fact ${fact.id} already recorded: facts are append-only`);
    this.index(this.persist(fact));
  }
  async query(q: TranscriptQuery, limit = QUERY_LIMIT): Promise<TranscriptFact[]> {
    const facts = this.#live.get(q.participant);
    if (facts === undefined) return [];
    return [...facts.values()].filter((f) => matches(f, q)).slice(0, limit);
  }
  async countInSession(participant: string, session: string, kind: FactKind): Promise<number> {
    let n = 0;
    for (const f of this.#live.get(participant)?.values() ?? []) if (f.session === session && f.kind === kind) n++;
    return n;
  }
  #recordExcision(participant: string, id: string, at: string): boolean {
    if (!this.#has(participant, id)) return false;
    this.index(this.persist({ kind: 'excision', id, participant, at }));
    return true;
  }
  async excise(participant: string, id: string, at: string): Promise<boolean> {
    if (!this.#recordExcision(participant, id, at)) return false;
    this.settle();
    return true;
  }
  async applyRetention(isExpired: (fact: TranscriptFact) => boolean, at: string): Promise<number> {
    const expired = [...this.#live.values()].flatMap((facts) => [...facts.values()].filter(isExpired));
    let n = 0;
    for (const f of expired) if (this.#recordExcision(f.participant, f.id, at)) n++;
    if (n > 0) this.settle();
    return n;
  }
}

/**
 * The transcript in a local framed JSONL file (one writer: a second open of the same file is refused until this one
 * is closed). Appends are durable when they return unless `durable: false` (tests and benchmarks only).
 */
export class JsonlTranscriptStore extends LineStore implements InquiryTranscriptStore {
  readonly #log: FramedJsonlLog<Line>;
  constructor(path: string, options: FramedJsonlOptions = {}) {
    super();
    this.#log = new FramedJsonlLog(path, isTranscriptLine, options);
    try {
      for (const l of this.#log.all()) this.index(l);
      // an excision record on disk means a crash came between the excision and its compaction: finish it now
      if (this.#log.all().some((l) => l.kind === 'excision')) this.compact();
    } catch (e) {
      this.#log.close();
      throw e;
    }
  }
  /** What recovery found when the file was opened. */
  get recovery(): RecoveryReport {
    return this.#log.recovery;
  }
  protected persist(line: Line): Line {
    return this.#log.append(line);
  }
  /**
   * Excision removes the content from disk, not only from view: the excision records are appended first (so a
   * crash right after still hides the facts), then the log is rewritten without them (atomic temp file + rename).
   */
  protected override settle(): void {
    this.compact();
  }
  /** Physically drop excised facts and their excision records (atomic rewrite; damaged lines go to quarantine). */
  compact(): RewriteReport {
    return this.#log.rewrite((l) => this.isLive(l));
  }
  /** Close the file and release its writer lock. */
  close(): void {
    this.#log.close();
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
export async function recordFeedback(store: InquiryTranscriptStore, feedback: unknown): Promise<TranscriptFact> {
  const f = assertDto('inquirium.inquiry-feedback.v1', feedback);
  const participant = f['participant/ref'];
  const result = (await store.query({ participant, kind: 'result' })).find((r) => r.id === f['result/ref']);
  if (result === undefined) throw new FeedbackError('result-unknown', 'feedback must target a result in the same participant\'s history');
  const supersedes = f['supersedes/ref'];
  if (supersedes !== undefined && !(await store.query({ participant, kind: 'feedback' })).some((x) => x.id === supersedes)) {
    throw new FeedbackError('superseded-feedback-unknown', 'supersedes/ref must name earlier feedback of the same participant');
  }
  const fact: TranscriptFact = { kind: 'feedback', id: f['feedback/id'], participant, session: f['session/ref'], classification: result.classification, recordedAt: f['recorded/at'], body: { ...f } };
  await store.append(fact);
  return fact;
}
