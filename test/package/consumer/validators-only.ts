/**
 * A project that installed `@wopkit/validators` alone (no wopkit, no HTTP server, no database driver): compiled by the
 * consumer test with strict tsc (`nodenext`) and run on Node 24 and on the oldest Node the package declares. Each
 * check prints `ok …` or throws. Not part of the repository's type-check (it imports the package by name).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { MemoryEntry, RunEvent } from '@wopkit/validators/types';
import { validateMemoryEntry, validatorIndex, type StandardSchemaV1 } from '@wopkit/validators';
import { validateMemoryEntry as oneValidator } from '@wopkit/validators/validate/MemoryEntry';
import { assertMemoryEntry, isMemoryEntry, ValidationError } from '@wopkit/validators/guards';
import { validateRunEvent } from '@wopkit/validators/run-events';
import memoryEntrySchema from '@wopkit/validators/schemas/openwop/v1/memory-entry.schema.json' with { type: 'json' };

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const ok = (what: string): void => console.log(`ok ${what}`);

const valid = readJson('valid-entry.json');
const invalid = readJson('invalid-entry.json');
assert.equal(validateMemoryEntry(valid), true);
if (!isMemoryEntry(valid)) throw new Error('isMemoryEntry refused a valid entry');
const entry: MemoryEntry = valid;
assert.equal(typeof entry.content, 'string');
assert.equal(validateMemoryEntry(invalid), false);
assert.deepEqual(validateMemoryEntry.errors?.map((e) => [e.instancePath, e.keyword]), [['/createdAt', 'format']]);
assert.throws(() => assertMemoryEntry(invalid), (e: unknown) => e instanceof ValidationError && e.failures[0]?.instancePath === '/createdAt' && e.message.includes('#/createdAt: '));
ok('MemoryEntry: valid accepted, invalid refused at #/createdAt (format)');

// One validator by its own subpath, as a Standard Schema v1 (what tRPC, Hono, TanStack Form accept).
const standard = oneValidator['~standard'];
const checked: StandardSchemaV1.Result<MemoryEntry> = standard.validate(valid) as StandardSchemaV1.Result<MemoryEntry>;
assert.deepEqual(checked, { value: valid });
const inferred: StandardSchemaV1.InferOutput<typeof oneValidator> = entry;
assert.equal(inferred.id, entry.id);
assert.deepEqual((standard.validate(invalid) as StandardSchemaV1.FailureResult).issues.map((i) => i.path), [['createdAt']]);
ok(`@wopkit/validators/validate/MemoryEntry: a Standard Schema v1 (vendor ${standard.vendor}), issue paths as keys`);

const event = readJson('run-event.json') as RunEvent;
assert.equal(validateRunEvent(event).valid, true);
assert.equal(validateRunEvent({ ...event, type: 'vendor.custom', payload: {} }).known, false);
ok(`run event ${event.type} dispatched to its payload validator; unknown types tolerated`);

assert.ok(Object.keys(validatorIndex).length > 100);
assert.equal(memoryEntrySchema.$id, 'https://wopkit.dev/schemas/openwop/v1/memory-entry.schema.json');
ok(`${Object.keys(validatorIndex).length} validators by title; raw schema importable as JSON`);
