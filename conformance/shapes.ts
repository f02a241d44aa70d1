/**
 * Response shapes of the host routes that have no schema in schemas/openwop/v1 yet (the `/v1/host/sample/…` fixture
 * seams, the run-events read, the entries read), composed from the generated validators so every response body the
 * suite reads is checked. Each shape is closed where the documented response is (docs/host.md) and reuses the
 * generated validator for every nested spec object (MemoryEntry, RunEvent, MemoryCompactedPayload, …).
 * These are the shapes proposed for `schemas/openwop/v1/host-sample-*.schema.json` (see docs/conformance.md).
 */
import {
  validateInquiriumAssistantTurnTrace, validateMemoryCompactedPayload, validateMemoryEntry, validateReplayMemorySnapshotUnavailableDetails, validateRunEvent,
} from '../generated/validators/validators.js';
import type { SchemaValidator } from './client.ts';

type Check = (v: unknown, at: string, errs: { instancePath: string; message: string }[]) => void;
/** Every Check built here, so a generated validator and a Check are told apart without guessing from arity. */
const CHECKS = new WeakSet<object>();
const mark = (c: Check): Check => (CHECKS.add(c), c);
const asCheck = (c: Check | SchemaValidator): Check => (CHECKS.has(c) ? (c as Check) : fromValidator(c as SchemaValidator));

function fromValidator(v: SchemaValidator): Check {
  return (value, at, errs) => {
  if (!v(value)) for (const e of v.errors ?? [{ instancePath: '', message: 'invalid' }]) errs.push({ instancePath: `${at}${e.instancePath}`, message: e.message ?? 'invalid' });
  };
}
const prim = (type: 'string' | 'number' | 'boolean', extra?: (v: never) => boolean): Check => mark((v, at, errs) => {
  if (typeof v !== type || (type === 'number' && !Number.isFinite(v)) || (extra !== undefined && !extra(v as never))) errs.push({ instancePath: at, message: `must be ${type}` });
});
export const string: Check = prim('string', (s: string) => s.length > 0);
export const integer: Check = prim('number', (n: number) => Number.isInteger(n) && n >= 0);
export const number: Check = prim('number');
export const boolean: Check = prim('boolean');
export const dateTime: Check = prim('string', (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT/.test(s));
export const arrayOf = (item: Check | SchemaValidator): Check => mark((v, at, errs) => {
  if (!Array.isArray(v)) return void errs.push({ instancePath: at, message: 'must be array' });
  const c = asCheck(item);
  v.forEach((x, i) => c(x, `${at}/${i}`, errs));
});
/** An object with required and optional keys; closed unless `open`. */
export const object = (required: Record<string, Check | SchemaValidator>, optional: Record<string, Check | SchemaValidator> = {}, open = false): Check => mark((v, at, errs) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return void errs.push({ instancePath: at, message: 'must be object' });
  const o = v as Record<string, unknown>;
  for (const [k, c] of Object.entries(required)) {
    if (!(k in o)) errs.push({ instancePath: at, message: `must have required property '${k}'` });
    else asCheck(c)(o[k], `${at}/${k}`, errs);
  }
  for (const [k, c] of Object.entries(optional)) if (k in o) asCheck(c)(o[k], `${at}/${k}`, errs);
  if (!open) for (const k of Object.keys(o)) if (!(k in required) && !(k in optional)) errs.push({ instancePath: `${at}/${k}`, message: 'must NOT have additional properties' });
});

/** A Check as a SchemaValidator (the shape the HTTP client takes). */
export function validator(c: Check): SchemaValidator {
  const f: SchemaValidator = (value: unknown) => {
    const errs: { instancePath: string; message: string }[] = [];
    c(value, '', errs);
    f.errors = errs.length > 0 ? errs : null;
    return errs.length === 0;
  };
  return f;
}

const entry = validateMemoryEntry as SchemaValidator;
export const EntriesResponse = validator(object({ entries: arrayOf(entry) }));
export const RunEventsResponse = validator(object({ runId: string, events: arrayOf(validateRunEvent as SchemaValidator) }));
export const SeedResponse = validator(object({ memoryRef: string, runId: string, entries: arrayOf(entry) }));
export const RedactionFixtureResponse = validator(object({ memoryRef: string, memoryId: string, secretId: string, secretValue: string }));
export const CompactResponse = validator(object({ compactionRunId: string, event: validateMemoryCompactedPayload as SchemaValidator, output: entry }));
export const EscalationRunResponse = validator(object({ runId: string, floor: number }));
export const CrossRunTtlResponse = validator(object({ parentRunId: string, childRunId: string, memoryRef: string, parentStartedAt: dateTime, childWrittenAt: dateTime, entry, seenByParent: boolean }));
export const ReplayFixtureResponse = validator(object({ runId: string, memoryRef: string, memoryId: string, fromSeq: integer, expectedAtFork: string, current: string }));
export const TracesResponse = validator(object({ records: arrayOf(object({ stream: string, record_type: string, body: validateInquiriumAssistantTurnTrace as SchemaValidator })) }));
/** The 422 refusal of a fork: the envelope is checked by the client; this pins its details. */
export const replayDetails = validateReplayMemorySnapshotUnavailableDetails as SchemaValidator;
