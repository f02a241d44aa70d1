/**
 * Run-event validation for the runtime: the envelope, then the payload of a known type through the
 * `x-type-index` of run-event-payloads.schema.json; unknown types pass on the envelope alone (consumers must
 * tolerate them). This is the single place the runtime gets its event validator from.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../generator/ajv.ts';

export interface EventValidationFailure {
  readonly instancePath: string;
  readonly message: string;
}
export interface EventValidationResult {
  readonly ok: boolean;
  readonly known: boolean;
  readonly failures: readonly EventValidationFailure[];
}

const dir = fileURLToPath(new URL('../../schemas/openwop/v1/', import.meta.url));
const ajv = createAjv();
for (const f of ['orchestrator-decision', 'proposal', 'capabilities', 'run-event', 'run-event-payloads']) {
  ajv.addSchema(JSON.parse(readFileSync(`${dir}${f}.schema.json`, 'utf8')));
}
const base = 'https://wopkit.dev/schemas/openwop/v1/';
const envelope = ajv.getSchema(`${base}run-event.schema.json`)!;
const index = (JSON.parse(readFileSync(`${dir}run-event-payloads.schema.json`, 'utf8')) as { 'x-type-index': Record<string, string> })['x-type-index'];
const payloadValidators = new Map<string, ValidateFunction>(
  Object.entries(index).map(([type, pointer]) => [type, ajv.getSchema(`${base}run-event-payloads.schema.json${pointer}`)!]),
);

const failuresOf = (v: ValidateFunction, prefix = ''): EventValidationFailure[] =>
  (v.errors ?? []).map((e) => ({ instancePath: prefix + e.instancePath, message: e.message ?? e.keyword }));

/** Validate a complete event (envelope + payload). Never throws. */
export function validateRunEvent(event: unknown): EventValidationResult {
  if (!envelope(event)) return { ok: false, known: false, failures: failuresOf(envelope) };
  const { type, payload } = event as { type: string; payload: unknown };
  const v = payloadValidators.get(type);
  if (v === undefined) return { ok: true, known: false, failures: [] };
  return v(payload) ? { ok: true, known: true, failures: [] } : { ok: false, known: true, failures: failuresOf(v, '/payload') };
}

/** Event types the runtime knows (the x-type-index keys). */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(index));
