/**
 * The store's write vocabulary: every mutation the runtime makes is one of these operations, named and given its
 * arguments as plain data, so a request's writes can be carried to wherever its transaction runs (the SQLite writer
 * thread, a PostgreSQL connection, the in-process database of the memory store) and executed there in order, in one
 * transaction. Each operation is written once, over a `SqlSession`, for every back-end.
 */
import type { SqlSession } from '../sql/session.ts';
import { armCommitment, cancelCommitment, cleanPredicate, fireCommitment, releasePredicate, setPredicate } from './commitments.ts';
import { clearRef, deleteEntry, forgetTagged, pruneJournal, purgeExpired, putEntry } from './memory.ts';
import { expectVersion, claimRegistry, dropIdleRegistries, endRegistry, resealSecrets, storeSecrets, useRegistry } from './secrets.ts';
import { appendDoc, addFixture, claim, installArtifact, pruneClaims, pruneDocs, putGate, putProposal, putWorkspaceFile, recordPass, replaceDoc, setMeta } from './records.ts';
import { openQuestion, transitionQuestion } from './questions.ts';
import { appendEvent, createRun, dropEvents, removeRuns, updateRun } from './runs.ts';
import { putSchedule, recordOutcome, removeSchedule, takeSlot } from './schedules.ts';

export const OPS = {
  'memory.put': putEntry,
  'memory.delete': deleteEntry,
  'memory.purgeExpired': purgeExpired,
  'memory.forget': forgetTagged,
  'memory.clearRef': clearRef,
  'journal.prune': pruneJournal,
  'run.create': createRun,
  'run.update': updateRun,
  'run.remove': removeRuns,
  'run.dropEvents': dropEvents,
  'event.append': appendEvent,
  'secrets.expect': expectVersion,
  'secrets.claim': claimRegistry,
  'secrets.use': (s: SqlSession, a: Parameters<typeof useRegistry>[1]) => useRegistry(s, a),
  'secrets.store': storeSecrets,
  'secrets.reseal': resealSecrets,
  'secrets.end': endRegistry,
  'secrets.dropIdle': dropIdleRegistries,
  'commitment.arm': armCommitment,
  'commitment.cancel': cancelCommitment,
  'commitment.fire': fireCommitment,
  'commitment.release': releasePredicate,
  'predicate.set': setPredicate,
  'predicate.clean': cleanPredicate,
  'schedule.put': putSchedule,
  'schedule.remove': removeSchedule,
  'schedule.take': takeSlot,
  'schedule.outcome': recordOutcome,
  'question.open': openQuestion,
  'question.transition': transitionQuestion,
  'proposal.put': putProposal,
  'proposal.gate': putGate,
  'proposal.install': installArtifact,
  'doc.append': appendDoc,
  'doc.replace': replaceDoc,
  'doc.prune': pruneDocs,
  'workspace.put': putWorkspaceFile,
  'consolidation.pass': recordPass,
  'claim.take': claim,
  'claim.prune': pruneClaims,
  'fixture.add': addFixture,
  'meta.set': setMeta,
} as const satisfies Record<string, (s: SqlSession, args: never) => Promise<unknown>>;

export type OpName = keyof typeof OPS;
export type OpArgs<N extends OpName> = Parameters<(typeof OPS)[N]>[1];
export type OpResult<N extends OpName> = Awaited<ReturnType<(typeof OPS)[N]>>;

/** One operation of a request's writes, as data. */
export type WriteOp = { readonly [N in OpName]: { readonly op: N; readonly args: OpArgs<N> } }[OpName];

/** Run one operation on a session. */
export function runOp(s: SqlSession, op: WriteOp): Promise<unknown> {
  const handler = OPS[op.op] as (s: SqlSession, args: unknown) => Promise<unknown>;
  return handler(s, op.args);
}
