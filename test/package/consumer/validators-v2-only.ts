/**
 * A project that installed `@wopkit/validators-v2` alone (OpenWOP v2, no v1 package, no wopkit): compiled by the
 * consumer test with strict tsc (`nodenext`) and run on Node 24. Each check prints `ok …` or throws. Not part of the
 * repository's type-check (it imports the package by name).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RunEventV2 } from '@wopkit/validators-v2/types';
import { validateRunEventV2, validatorIndex } from '@wopkit/validators-v2';
import { validateMemoryEntryV2 } from '@wopkit/validators-v2/validate/MemoryEntryV2';
import { guards, ValidationError } from '@wopkit/validators-v2/guards';
import { KNOWN_RUN_EVENT_TYPES, validateRunEvent } from '@wopkit/validators-v2/run-events';
import { errorStatus, eventNameIn, EVENT_NAME_ROWS } from '@wopkit/validators-v2/majors';
import runEventSchema from '@wopkit/validators-v2/schemas/openwop/v2/run-event.schema.json' with { type: 'json' };

const ok = (what: string): void => console.log(`ok ${what}`);
const event = JSON.parse(readFileSync('v2-run-event.json', 'utf8')) as unknown;

assert.equal(validateRunEventV2(event), true);
const typed: RunEventV2 = event as RunEventV2;
assert.equal(typeof typed.type, 'string');
assert.equal(validateRunEvent(event).valid, true);
assert.ok(KNOWN_RUN_EVENT_TYPES.length > 10);
ok(`v2 run event accepted by its validator and by the v2 dispatch (${KNOWN_RUN_EVENT_TYPES.length} known v2 types)`);

assert.equal(validateMemoryEntryV2({}), false);
assert.throws(() => guards.MemoryEntryV2.assert({}), (e: unknown) => e instanceof ValidationError && e.failures.length > 0);
ok('MemoryEntryV2 by its own subpath refuses an empty object; its guard throws a ValidationError');

assert.ok(Object.keys(validatorIndex).every((title) => title.endsWith('V2')));
assert.equal(runEventSchema.$id, 'https://wopkit.dev/schemas/openwop/v2/run-event.schema.json');
ok('every barrel title ends with V2; raw schema @wopkit/validators-v2/schemas/openwop/v2/run-event.schema.json');

const renamed = EVENT_NAME_ROWS.find((r) => r.v1 !== r.v2)!;
assert.equal(eventNameIn(renamed.v1, 'v1', 'v2'), renamed.v2);
assert.equal(errorStatus('v2', 'replay_memory_snapshot_unavailable'), 409);
ok('@wopkit/validators-v2/majors translates a renamed event and answers a v2 status');
