import { describe, expect, it } from 'vitest';
import { HTTP_STATUS, WopkitError } from '../../../runtime/shared/errors.ts';
import { classify, HttpError } from '../../../runtime/host/errors.ts';
import { CompactionError } from '../../../runtime/compaction/compactor.ts';
import { DistillationError, TokenBudgetExceededError } from '../../../runtime/distillation/distiller.ts';
import { ConsolidationError } from '../../../runtime/consolidation/service.ts';
import { CommitmentError } from '../../../runtime/commitments/engine.ts';
import { MemoryWriteError } from '../../../runtime/memory/writer.ts';
import { MemoryAdapterError } from '../../../runtime/memory/adapter.ts';
import { RedactionFailedError } from '../../../runtime/redaction/chokepoint.ts';
import { ForkSeqOutOfRangeError, ReplayMemorySnapshotUnavailableError } from '../../../runtime/multi-agent/replay-snapshots.ts';
import { SubRunScopeError } from '../../../runtime/multi-agent/sub-run-memory.ts';
import { InvalidRunEventError } from '../../../runtime/events/log.ts';
import { DtoValidationError } from '../../../runtime/inquirium/dto.ts';
import { QuestionError } from '../../../runtime/inquirium/operator-questions.ts';
import { validateErrorEnvelope } from '../../../generated/validators/validators.js';

const replayDetails = { fromSeq: 3, sourceRunId: 'run_1', reason: 'retention_expired' as const, oldestAvailableIdx: 5 };
const budgetDetails = { tokenBudget: 3, tokensRequired: 52, memoryRef: 'mem://acme/a' };
const longMessage = 'x'.repeat(600);

/** Each runtime error and the envelope (and status) the host answers it with. */
const CASES: [string, () => unknown, { status: number; body: Record<string, unknown> }][] = [
  ['replay snapshot unavailable', () => new ReplayMemorySnapshotUnavailableError(replayDetails), { status: 422, body: { error: 'replay_memory_snapshot_unavailable', message: 'no memory snapshot can be served for that fork point', details: replayDetails } }],
  ['token budget exceeded', () => new TokenBudgetExceededError(budgetDetails), { status: 422, body: { error: 'token_budget_exceeded', message: 'the sources cannot be distilled within the token budget', details: budgetDetails } }],
  ['redaction failed', () => new RedactionFailedError(), { status: 422, body: { error: 'compaction_redaction_failed', message: 'derived content could not be certified clean; nothing was written' } }],
  ['memory write refused', () => new MemoryWriteError('entry_too_large', 'entry is 70000 bytes'), { status: 400, body: { error: 'bad_request', message: 'MemoryWriteError: entry_too_large' } }],
  ['compaction refused', () => new CompactionError('no_sources', 'nothing to compact'), { status: 400, body: { error: 'bad_request', message: 'CompactionError: no_sources' } }],
  ['compaction not advertised', () => new CompactionError('not_advertised', 'x'), { status: 501, body: { error: 'capability_not_provided', message: 'this host does not provide memory.compaction', details: { capability: 'memory.compaction' } } }],
  ['distillation refused', () => new DistillationError('invalid_budget', 'x'), { status: 400, body: { error: 'bad_request', message: 'DistillationError: invalid_budget' } }],
  ['distillation not advertised', () => new DistillationError('not_advertised', 'x'), { status: 501, body: { error: 'capability_not_provided', message: 'this host does not provide memory.distillation', details: { capability: 'memory.distillation' } } }],
  ['consolidation refused', () => new ConsolidationError('consolidation_cross_tenant', 'x'), { status: 400, body: { error: 'bad_request', message: 'ConsolidationError: consolidation_cross_tenant' } }],
  ['sub-run scope refused', () => new SubRunScopeError('x'), { status: 400, body: { error: 'bad_request', message: 'SubRunScopeError: sub_run_scope_cross_tenant' } }],
  ['commitment refused', () => new CommitmentError('commitment_replay_mode', 'x'), { status: 400, body: { error: 'bad_request', message: 'CommitmentError: commitment_replay_mode' } }],
  ['DTO invalid', () => new DtoValidationError('inquirium.generate.request.v1', [{ instancePath: '/a', keyword: 'type', message: longMessage }]), { status: 400, body: { error: 'validation_failed', message: 'body does not match its schema', details: { failures: [{ instancePath: '/a', message: 'x'.repeat(500) }] } } }],
  ['question invalid', () => new QuestionError('question-invalid', 'x', [{ code: 'schema-required', message: 'missing' }]), { status: 400, body: { error: 'validation_failed', message: 'the proposed question was rejected by host validation', details: { failures: [{ instancePath: '', message: 'schema-required: missing' }] } } }],
  ['question unknown', () => new QuestionError('question-unknown', 'x'), { status: 404, body: { error: 'not_found', message: 'question refused: question-unknown' } }],
  ['question terminal', () => new QuestionError('question-terminal', 'x'), { status: 409, body: { error: 'conflict', message: 'question refused: question-terminal' } }],
  ['route refusal', () => new HttpError('not_found', 'no such run'), { status: 404, body: { error: 'not_found', message: 'no such run' } }],
  ['a runtime bug', () => new InvalidRunEventError('memory.written', [{ instancePath: '/payload', message: 'secret-ish' }]), { status: 500, body: { error: 'internal_error', message: 'internal error' } }],
  ['a store failure', () => new MemoryAdapterError('list'), { status: 500, body: { error: 'internal_error', message: 'internal error' } }],
  ['a fork point past the source log', () => new ForkSeqOutOfRangeError(9, 2, 'run_1'), { status: 422, body: { error: 'fork_point_invalid', message: "fromSeq is past the end of the source run's event log", details: { fromSeq: 9, lastSeq: 2, sourceRunId: 'run_1' } } }],
  ['a Fastify body error', () => Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }), { status: 413, body: { error: 'payload_too_large', message: 'request body exceeds the limit' } }],
  ['a Fastify media-type error', () => Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }), { status: 415, body: { error: 'unsupported_media_type', message: 'request bodies must be application/json' } }],
  ['a JSON syntax error', () => new SyntaxError('Unexpected token'), { status: 400, body: { error: 'invalid_json', message: 'request body is not valid JSON' } }],
  ['another 4xx', () => Object.assign(new Error('x'), { statusCode: 404 }), { status: 400, body: { error: 'bad_request', message: 'bad request' } }],
  ['anything else', () => new RangeError('unknown source run'), { status: 500, body: { error: 'internal_error', message: 'internal error' } }],
  ['an error whose code names an Object.prototype member', () => Object.assign(new Error('x'), { code: 'constructor' }), { status: 500, body: { error: 'internal_error', message: 'internal error' } }],
];

describe('runtime errors on the wire', () => {
  it.each(CASES)('%s', (_name, make, expected) => {
    const err = make();
    const { code, ...rest } = classify(err);
    const body = { error: code, ...rest };
    expect(body).toEqual(expected.body);
    expect(validateErrorEnvelope(body)).toBe(true);
    expect(HTTP_STATUS[code]).toBe(expected.status);
    if (err instanceof WopkitError) expect(err.status).toBe(expected.status);
  });

  it('keeps the module code for callers and the class name, apart from the wire code', () => {
    const e = new CompactionError('no_sources', 'nothing to compact');
    expect(e).toBeInstanceOf(WopkitError);
    expect(e).toBeInstanceOf(Error);
    expect([e.code, e.name, e.message, e.status]).toEqual(['no_sources', 'CompactionError', 'nothing to compact', 400]);
    expect(new TokenBudgetExceededError(budgetDetails).details.tokensRequired).toBe(52);
  });

  it('never puts the internal message on the wire', () => {
    const e = new MemoryWriteError('invalid_entry', 'CANARY-CONTENT in the message');
    expect(JSON.stringify(classify(e))).not.toContain('CANARY');
  });
});
