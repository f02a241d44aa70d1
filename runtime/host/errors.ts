/**
 * The error envelope (schemas/openwop/v1/error.schema.json) on every error the host returns. Runtime errors say
 * themselves how they answer (`WopkitError.toWire()`, status from the one ErrorCode → status table); Fastify's own
 * errors go through one table here; anything else is an internal error. Nothing here ever echoes request content
 * or memory entries.
 */
import type { FastifyReply } from 'fastify';
import { HTTP_STATUS, WopkitError, type ErrorDetails, type WireCode, type WireError } from '../shared/errors.ts';

/** A refusal a route raises itself: the wire code is its code, the message is sent as written. */
export class HttpError extends WopkitError<WireCode> {
  constructor(code: WireCode, message: string, details?: ErrorDetails) {
    super(code, message, { error: code, message, ...(details !== undefined ? { details } : {}) });
  }
}

export function sendError(reply: FastifyReply, code: WireCode, message: string, details?: ErrorDetails): FastifyReply {
  return reply.code(HTTP_STATUS[code]).type('application/json').send({ error: code, message, ...(details !== undefined ? { details } : {}) });
}

const answer = (error: WireCode, message: string): WireError => ({ error, message });
const BAD_REQUEST = answer('bad_request', 'bad request');
const INVALID_JSON = answer('invalid_json', 'request body is not valid JSON');
const UNSUPPORTED_MEDIA_TYPE = answer('unsupported_media_type', 'request bodies must be application/json');
const INTERNAL = answer('internal_error', 'internal error');

/** Fastify's own error codes → the envelope. */
const FASTIFY: ReadonlyMap<string, WireError> = new Map(Object.entries({
  FST_ERR_CTP_INVALID_MEDIA_TYPE: UNSUPPORTED_MEDIA_TYPE,
  FST_ERR_CTP_EMPTY_TYPE: UNSUPPORTED_MEDIA_TYPE,
  FST_ERR_CTP_INVALID_TYPE: UNSUPPORTED_MEDIA_TYPE,
  FST_ERR_CTP_BODY_TOO_LARGE: answer('payload_too_large', 'request body exceeds the limit'),
  FST_ERR_CTP_EMPTY_JSON_BODY: INVALID_JSON,
  FST_ERR_CTP_INVALID_JSON_BODY: INVALID_JSON,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: BAD_REQUEST,
}));

/** Map any thrown error to (code, message, details) without leaking its internals. */
export function classify(err: unknown): Omit<WireError, 'error'> & { readonly code: WireCode } {
  const { error: code, ...rest } = wireOf(err);
  return { code, ...rest };
}

function wireOf(err: unknown): WireError {
  if (err instanceof WopkitError) return err.toWire();
  const e = err as { code?: unknown; statusCode?: unknown; name?: unknown } | null | undefined;
  const fastify = typeof e?.code === 'string' ? FASTIFY.get(e.code) : undefined;
  if (fastify !== undefined) return fastify;
  if (e?.name === 'SyntaxError') return INVALID_JSON;
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return BAD_REQUEST;
  return INTERNAL;
}
