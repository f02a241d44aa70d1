/**
 * Every query of the store in one table, and the same queries bound to a store's read session: what a unit of work
 * exposes as `tx.read`. A query is written once, over a `SqlSession`, in its file beside this one; the session itself
 * stays inside `runtime/storage/` (callers get only the bound functions, never SQL).
 */
import type { StoragePort } from '../port.ts';
import type { SqlSession } from '../sql/session.ts';
import { entriesOldestFirst, entryGet, entryPage, journalPrunedThrough, snapshotGet, snapshotPage } from './memory.ts';
import { claimTaken, docByItem, docCount, docsPage, gateGet, gatesOf, installedFor, installedOf, lastPass, metaValue, proposalGet, proposalsOf, quotaCount, workspaceFile } from './records.ts';
import { eventAnchor, eventPage, hasEvents, liveRunsCreatedBefore, oldestEventAfter, runGet, runsEndedBefore } from './runs.ts';
import { liveRegistries, registriesSealedWithOther, registryRow, secretVersion } from './secrets.ts';
import { agenda, armedOnPredicate, commitmentGet, dirtyPredicates, dueCommitments, dueSchedules, firesOf, hasFired, nextCommitmentDue, nextQuestionDeadline, nextScheduleDue, overdueQuestions, pendingQuestionsOf, predicateValue, questionGet, questionHistory, scheduleGet } from './work.ts';

export const READS = {
  entryPage, entryGet, entriesOldestFirst, journalPrunedThrough, snapshotPage, snapshotGet,
  workspaceFile, lastPass, proposalGet, proposalsOf, gateGet, gatesOf, installedFor, installedOf, docsPage, docByItem, docCount, claimTaken, quotaCount, metaValue,
  runGet, runsEndedBefore, liveRunsCreatedBefore, eventPage, hasEvents, eventAnchor, oldestEventAfter,
  secretVersion, liveRegistries, registryRow, registriesSealedWithOther,
  dueCommitments, nextCommitmentDue, armedOnPredicate, commitmentGet, predicateValue, dirtyPredicates, hasFired, scheduleGet, dueSchedules, nextScheduleDue,
  questionGet, questionHistory, overdueQuestions, nextQuestionDeadline, pendingQuestionsOf, agenda, firesOf,
} as const satisfies Record<string, (s: SqlSession, ...args: never[]) => Promise<unknown>>;

/** One query with its session bound: the same arguments after the session, the same answer. */
type Bound<F> = F extends (s: SqlSession, ...args: infer A) => infer R ? (...args: A) => R : never;

/** The store's queries as a unit of work offers them (`tx.read`). */
export type Reads = { readonly [K in keyof typeof READS]: Bound<(typeof READS)[K]> };

/** `s`'s queries (every query of the table, its session bound). */
export function bindReads(s: SqlSession): Reads {
  const out: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(READS)) out[name] = (...args: never[]) => (query as (s: SqlSession, ...a: never[]) => Promise<unknown>)(s, ...args);
  return Object.freeze(out) as Reads;
}

/** The bound queries of each open port (a table of functions per port, not a copy of any data). */
const bound = new WeakMap<StoragePort, Reads>();

/** `port`'s queries, bound to its read session. */
export function readsOf(port: StoragePort): Reads {
  let r = bound.get(port);
  if (r === undefined) bound.set(port, (r = bindReads(port.reads)));
  return r;
}
