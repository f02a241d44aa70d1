/**
 * The error envelope (schemas/openwop/v1/error.schema.json) on every error the host returns, and the one table
 * mapping failures to status codes. Nothing here ever echoes request content or memory entries.
 */
import type { FastifyReply } from 'fastify';
import type { ErrorCode } from '../../generated/ts/index.ts';

export const STATUS: Record<ErrorCode, number> = {
  invalid_json: 400, bad_request: 400, validation_failed: 400, unauthorized: 401, forbidden: 403, not_found: 404,
  method_not_allowed: 405, payload_too_large: 413, unsupported_media_type: 415, conflict: 409,
  replay_memory_snapshot_unavailable: 422, token_budget_exceeded: 422, compaction_redaction_failed: 422,
  capability_not_provided: 501, internal_error: 500,
};

export class HttpError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly details?: Record<string, unknown>) {
    super(message);
    this.name = 'HttpError';
  }
}

export function sendError(reply: FastifyReply, code: ErrorCode, message: string, details?: Record<string, unknown>): FastifyReply {
  return reply.code(STATUS[code]).type('application/json').send({ error: code, message, ...(details !== undefined ? { details } : {}) });
}

/** Fastify's own error codes → ours. */
const FASTIFY: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_EMPTY_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
};

/** Runtime error classes (by name) → envelope code; `withDetails` passes the error's own content-free details. */
const RUNTIME_ERRORS: Record<string, { code: ErrorCode; message?: string; withDetails?: boolean }> = {
  ReplayMemorySnapshotUnavailableError: { code: 'replay_memory_snapshot_unavailable', message: 'no memory snapshot can be served for that fork point', withDetails: true },
  TokenBudgetExceededError: { code: 'token_budget_exceeded', message: 'the sources cannot be distilled within the token budget', withDetails: true },
  RedactionFailedError: { code: 'compaction_redaction_failed', message: 'derived content could not be certified clean; nothing was written' },
  MemoryWriteError: { code: 'bad_request' },
  CompactionError: { code: 'bad_request' },
  DistillationError: { code: 'bad_request' },
  ConsolidationError: { code: 'bad_request' },
  SubRunScopeError: { code: 'bad_request' },
  CommitmentError: { code: 'bad_request' },
};

/** Map any thrown error to (code, message, details) without leaking its internals. */
export function classify(err: unknown): { code: ErrorCode; message: string; details?: Record<string, unknown> } {
  if (err instanceof HttpError) return { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) };
  const e = err as { code?: string; statusCode?: number; name?: string; message?: string; details?: Record<string, unknown> };
  if (e?.code !== undefined && FASTIFY[e.code] !== undefined) return { code: FASTIFY[e.code]!, message: fastifyMessage(FASTIFY[e.code]!) };
  if (e?.name === 'SyntaxError') return { code: 'invalid_json', message: 'request body is not valid JSON' };
  if ((e?.name === 'CompactionError' || e?.name === 'DistillationError') && e.code === 'not_advertised') {
    const capability = e.name === 'CompactionError' ? 'memory.compaction' : 'memory.distillation';
    return { code: 'capability_not_provided', message: `this host does not provide ${capability}`, details: { capability } };
  }
  const named = e?.name === undefined ? undefined : RUNTIME_ERRORS[e.name];
  if (named !== undefined) {
    const message = named.message ?? `${e.name}: ${(e as { code?: string }).code ?? 'refused'}`;
    return { code: named.code, message, ...(named.withDetails && e.details ? { details: e.details } : {}) };
  }
  if (e?.name === 'DtoValidationError') {
    const failures = ((e as { failures?: { instancePath: string; message: string }[] }).failures ?? []).slice(0, 20).map((f) => ({ instancePath: f.instancePath, message: f.message.slice(0, 500) }));
    return { code: 'validation_failed', message: 'body does not match its schema', ...(failures.length > 0 ? { details: { failures } } : {}) };
  }
  if (e?.name === 'QuestionError') {
    const issues = ((e as { issues?: { code: string; message: string }[] }).issues ?? []).slice(0, 20).map((i) => ({ instancePath: '', message: `${i.code}: ${i.message}`.slice(0, 500) }));
    const code = (e as { code?: string }).code;
    return code === 'question-invalid' && issues.length > 0
      ? { code: 'validation_failed', message: 'the proposed question was rejected by host validation', details: { failures: issues } }
      : { code: code === 'question-unknown' ? 'not_found' : 'conflict', message: `question refused: ${code}` };
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return { code: 'bad_request', message: 'bad request' };
  return { code: 'internal_error', message: 'internal error' };
}

const fastifyMessage = (code: ErrorCode): string =>
  ({ unsupported_media_type: 'request bodies must be application/json', payload_too_large: 'request body exceeds the limit', invalid_json: 'request body is not valid JSON', bad_request: 'bad request' }) [code as 'bad_request'] ?? 'bad request';
