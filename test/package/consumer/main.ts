/**
 * A host's own code using the installed `wopkit` package (with `@wopkit/validators`, which it depends on, and
 * without the optional peers: pg, the generator libraries) — compiled by the consumer test with strict tsc
 * (`module`/`moduleResolution: nodenext`, no `.ts` imports) in a project outside the repository, and run on plain
 * Node 24. Every subpath export is imported; each check prints `ok …` or throws.
 *
 * Not part of the repository's own type-check (it imports the package by name, which only the installed
 * tarball provides). The README's "Use it from your code" section quotes these import lines.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capabilities, MemoryEntry } from 'wopkit';
import { validateCapabilities, validateMemoryEntry } from 'wopkit/validators';
import { assertMemoryEntry, isMemoryEntry, ValidationError } from 'wopkit/guards';
import { validateRunEvent } from 'wopkit/run-events';
import type { RunEventV2 } from 'wopkit/v2';
import { validateRunEventV2, validatorIndex as v2Index } from 'wopkit/v2/validators';
import { validateMemoryEntryV2 } from 'wopkit/v2/validators/MemoryEntryV2';
import { isMemoryEntryV2 } from 'wopkit/v2/guards';
import { KNOWN_RUN_EVENT_TYPES as V2_EVENT_TYPES } from 'wopkit/v2/run-events';
import { createOpenwopRuntime, memoryRef, openMemoryStore, unitOfWork } from 'wopkit/runtime';
import { createHost, hostKeys, openStore, SecretKeyRing, StoreConfigError } from 'wopkit/host';
import { configFrom, runSuite } from 'wopkit/conformance';
import memoryEntrySchema from 'wopkit/schemas/openwop/v1/memory-entry.schema.json' with { type: 'json' };

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const ok = (what: string): void => console.log(`ok ${what}`);

// Validators and guards: a valid and an invalid MemoryEntry.
const valid = readJson('valid-entry.json');
const invalid = readJson('invalid-entry.json');
assert.equal(validateMemoryEntry(valid), true);
if (!isMemoryEntry(valid)) throw new Error('isMemoryEntry refused a valid entry');
const entry: MemoryEntry = valid;
assert.equal(typeof entry.content, 'string');
assert.equal(validateMemoryEntry(invalid), false);
assert.deepEqual(validateMemoryEntry.errors?.map((e) => [e.instancePath, e.keyword]), [['/createdAt', 'format']]);
assert.throws(() => assertMemoryEntry(invalid), (e: unknown) => e instanceof ValidationError && e.failures[0]?.instancePath === '/createdAt');
ok('MemoryEntry: valid accepted, invalid refused at /createdAt (format)');

// Run events: envelope, then the payload through the type index; a broken payload is reported under /payload.
const event = readJson('run-event.json') as { type: string; payload: Record<string, unknown> };
assert.deepEqual(validateRunEvent(event), { valid: true, known: true, type: event.type, failures: [] });
const broken = validateRunEvent({ ...event, payload: { ...event.payload, memoryRef: 42 } });
assert.equal(broken.valid, false);
assert.equal(broken.failures[0]?.instancePath, '/payload/memoryRef');
assert.equal(validateRunEvent({ ...event, type: 'vendor.custom', payload: {} }).known, false);
ok(`run event ${event.type} dispatched to its payload validator; unknown types tolerated`);

// Runtime: a secret resolved by a run never reaches memory (SR-1). One request = one unit of work, committed once.
const runtime = createOpenwopRuntime({ port: await openMemoryStore() });
const secret = 'sk-consumer-7f3a9c1e';
const stored = await unitOfWork(runtime.port, async (tx) => {
  const secrets = await runtime.secretsOf(tx, 'acme');
  secrets.claimRun('run-1');
  await secrets.register('run-1', 'api-key', secret, 'run');
  return (await runtime.writer.put(tx, memoryRef('acme', 'agent-1'), { content: `call the API with ${secret}` }, { runId: 'run-1', tenant: 'acme' })).stored;
});
assert.equal(stored.value.content, 'call the API with [REDACTED:api-key]');
const page = await unitOfWork(runtime.port, (tx) => runtime.adapterFor(tx, 'acme').list(memoryRef('acme', 'agent-1')));
assert.deepEqual(page.map((e) => e.content), ['call the API with [REDACTED:api-key]']);
ok('secret redacted on the runtime write path, and read back so from the store');

// Host: listen on an ephemeral loopback port, read discovery (public), refuse an unauthenticated route.
const token = 'consumer-test-token-0123456789';
const { app } = await createHost({ token, seedConformanceFixtures: true });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
try {
  const res = await fetch(`${url}/.well-known/openwop`);
  assert.equal(res.status, 200);
  const discovery = (await res.json()) as Capabilities;
  assert.equal(validateCapabilities(discovery), true);
  ok(`discovery from ${url}: ${discovery.host?.name ?? '?'} (valid Capabilities)`);
  assert.equal((await fetch(`${url}/v1/runs/run-1/events`)).status, 401);
  ok('routes other than discovery need the Bearer token');

  // Conformance: the whole suite, strict, against the host just started.
  const results = await runSuite(configFrom({}, { 'base-url': url, 'api-key': token, strict: true }));
  assert.equal(results.summary.fail, 0, JSON.stringify(results.scenarios.filter((s) => s.outcome === 'fail'), null, 2));
  assert.ok(results.summary.pass > 0);
  ok(`conformance (strict): ${results.summary.pass} passed, ${results.summary.fail} failed, ${results.summary.skip} skipped`);
} finally {
  await app.close();
}

// The host on SQLite, the default durable store (Node's built-in node:sqlite: nothing to install).
const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-consumer-sqlite-'));
try {
  const durable = await createHost({ token, storage: await openStore({ kind: 'sqlite', dataDir }) });
  const at = await durable.app.listen({ port: 0, host: '127.0.0.1' });
  assert.equal((await fetch(`${at}/.well-known/openwop`)).status, 200);
  await durable.app.close();
  ok(`host on SQLite in ${dataDir}: discovery served`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

// The keys a host on PostgreSQL must share with its fleet, read as npm start reads them; a host takes them.
const keys = hostKeys({ env: { WOPKIT_SECRET_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`, WOPKIT_CURSOR_KEY: Buffer.alloc(32, 3).toString('base64') }, production: false, store: 'postgres' });
assert.ok(keys.secretKeys instanceof SecretKeyRing && keys.cursorKey?.length === 1);
assert.throws(() => hostKeys({ env: {}, production: false, store: 'postgres' }), /on PostgreSQL every host of the fleet needs the same secret keys/);
const keyed = await createHost({ token, secretKeys: keys.secretKeys, cursorKey: keys.cursorKey });
await keyed.app.close();
ok('hostKeys: the fleet keys from the environment, refused when missing on PostgreSQL, taken by createHost');

// PostgreSQL needs the optional peer pg, which this project did not install: one line naming the install command.
await assert.rejects(openStore({ kind: 'postgres', url: 'postgres://wopkit@127.0.0.1:1/none' }), (e: unknown) => e instanceof StoreConfigError && e.message === 'the postgres store needs the pg package (npm install pg)');
ok('the postgres store without pg: "the postgres store needs the pg package (npm install pg)"');

// OpenWOP v2 beside v1: the v2 subpaths (from @wopkit/validators-v2).
const v2Event: Pick<RunEventV2, 'type'> = { type: V2_EVENT_TYPES[0]! };
assert.equal(validateRunEventV2({}), false);
assert.equal(validateMemoryEntryV2({}), false);
assert.equal(isMemoryEntryV2({}), false);
assert.ok(Object.keys(v2Index).length > 40 && typeof v2Event.type === 'string');
ok(`wopkit/v2, /v2/validators, /v2/validators/MemoryEntryV2, /v2/guards, /v2/run-events (${V2_EVENT_TYPES.length} v2 event types)`);

// Raw schemas: importable as JSON.
assert.equal(memoryEntrySchema.$id, 'https://wopkit.dev/schemas/openwop/v1/memory-entry.schema.json');
ok('raw schema wopkit/schemas/openwop/v1/memory-entry.schema.json');
