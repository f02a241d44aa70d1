/**
 * Issue 12 item 5: request handling limits. Over a real loopback socket, an oversize body, a body nested past the
 * depth limit and malformed JSON each get a 4xx error envelope — never a 5xx — on every route that writes, and
 * leave nothing behind (no row in any table of the store). The limits table itself: defaults, validation, the
 * environment knobs, and the depth scan against a reference.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateErrorEnvelope } from '../../generated/validators/validators.js';
import { DEFAULT_LIMITS, formatLimit, jsonDeeperThan, LIMIT_NAMES, LIMITS, limitsFromEnv, resolveLimits } from '../../runtime/host/limits.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { question } from '../runtime/inquirium/questions.ts';
import { rowCounts } from './store-rows.ts';

const TOKEN = 'limits-test-token-0123456789abcdef';
const BODY_LIMIT = 8 * 1024;
const DEPTH = 16;
const REF = 'mem://limits/scope';

/** Every route that stores something from a body, and a valid body for it. */
const WRITERS = [
  { route: ROUTES.memorySeed, body: { memoryRef: REF, entries: [{ content: 'entry' }] } },
  { route: ROUTES.distillSchedule, body: { memoryRef: REF, every: 'PT1H' } },
  { route: ROUTES.questionPropose, body: question() },
] as const;

describe('request body limits over loopback (item 5)', () => {
  let url: string;
  let store: StoragePort;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const host = await createHost({ token: TOKEN, limits: { bodyLimitBytes: BODY_LIMIT, maxJsonDepth: DEPTH } });
    store = host.store;
    url = await host.app.listen({ port: 0, host: '127.0.0.1' });
    close = () => host.app.close();
  });
  afterAll(() => close());

  const post = async (path: string, body: string) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });
    const json: unknown = await res.json();
    expect(validateErrorEnvelope(json), JSON.stringify(json)).toBe(true);
    return { status: res.status, body: json as { error: string; message: string } };
  };

  /** Nest `value` `levels` deep in arrays. */
  const nested = (levels: number, value: string) => `${'['.repeat(levels)}${value}${']'.repeat(levels)}`;

  const CASES = [
    { name: 'an oversize body', make: (body: object) => JSON.stringify({ ...body, pad: 'x'.repeat(BODY_LIMIT) }), status: 413, error: 'payload_too_large' },
    { name: 'a body nested past the depth limit (objects)', make: (body: object) => JSON.stringify(body).replace(/^\{/, `{"deep":${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)},`), status: 400, error: 'bad_request' },
    { name: 'a body nested past the depth limit (arrays, 3 000 levels)', make: (body: object) => JSON.stringify(body).replace(/^\{/, `{"deep":${nested(3_000, '1')},`), status: 400, error: 'bad_request' },
    { name: 'malformed JSON', make: (body: object) => JSON.stringify(body).slice(0, -1), status: 400, error: 'invalid_json' },
    { name: 'an empty body', make: () => '', status: 400, error: 'invalid_json' },
  ] as const;

  for (const c of CASES) {
    it(`${c.name}: ${c.status} ${c.error} on every writing route, nothing stored`, async () => {
      for (const w of WRITERS) {
        const before = await rowCounts(store);
        const res = await post(w.route.path, c.make(w.body));
        expect([w.route.path, res.status, res.body.error]).toEqual([w.route.path, c.status, c.error]);
        expect(await rowCounts(store), `${w.route.path}: no row written`).toEqual(before);
      }
    });
  }

  it('a body at the depth limit is parsed (the limit refuses only what is past it)', async () => {
    const atLimit = JSON.stringify({ memoryRef: REF, entries: [{ content: 'x', tags: ['t'] }] });
    expect(jsonDeeperThan(atLimit, DEPTH)).toBe(false);
    const res = await fetch(`${url}${ROUTES.memorySeed.path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: atLimit });
    expect(res.status).toBe(200);
  });
});

describe('the limits table', () => {
  it('every limit has a positive integer default, a minimum it meets, and its own environment variable', () => {
    for (const n of LIMIT_NAMES) {
      expect(Number.isSafeInteger(LIMITS[n].default) && LIMITS[n].default >= LIMITS[n].min, n).toBe(true);
    }
    expect(new Set(LIMIT_NAMES.map((n) => LIMITS[n].env)).size).toBe(LIMIT_NAMES.length);
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
  });
  it('the documented request defaults: 10 s request, 5 s headers, 1 MiB body', () => {
    expect([DEFAULT_LIMITS.requestTimeoutMs, DEFAULT_LIMITS.headersTimeoutMs, DEFAULT_LIMITS.bodyLimitBytes]).toEqual([10_000, 5_000, 1_048_576]);
  });
  it('refuses a non-integer, a value under its minimum, an unknown name, headers longer than the request', () => {
    expect(() => resolveLimits({ requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs/);
    expect(() => resolveLimits({ bodyLimitBytes: 1.5 })).toThrow(/bodyLimitBytes/);
    expect(() => resolveLimits({ nope: 1 } as never)).toThrow(/unknown host limit nope/);
    expect(() => resolveLimits({ requestTimeoutMs: 1000, headersTimeoutMs: 2000 })).toThrow(/headersTimeoutMs/);
  });
  it('keeps the idle-socket backstop above the request timeout, so a 408 is always sent before a silent close', () => {
    expect(resolveLimits({ requestTimeoutMs: 90_000, connectionTimeoutMs: 1_000 }).connectionTimeoutMs).toBeGreaterThan(90_000);
  });
  it('reads each limit from its environment variable and refuses a malformed one by name', () => {
    expect(limitsFromEnv({ OPENWOP_REQUEST_TIMEOUT_MS: '2500', OPENWOP_BODY_LIMIT_BYTES: '', OTHER: '1' })).toEqual({ requestTimeoutMs: 2500 });
    expect(() => limitsFromEnv({ OPENWOP_MAX_JSON_DEPTH: '1e3' })).toThrow(/OPENWOP_MAX_JSON_DEPTH/);
  });
  it('the depth scan agrees with the nesting of the parsed value, strings with brackets and escapes included', () => {
    const depthOf = (v: unknown): number => (v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (v, max) => {
      const text = JSON.stringify(v);
      expect(jsonDeeperThan(text, max)).toBe(depthOf(v) > max);
    }), { numRuns: 500 });
    expect(jsonDeeperThan(JSON.stringify({ s: '[[[[{{{{\\"' }), 1)).toBe(false);
  });
});

describe('docs/security.md lists every limit as the table defines it', () => {
  const doc = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
  /** The table rows of one section, by the backticked name in their first cell. */
  const rowsOf = (heading: string): Map<string, string[]> => {
    const section = doc.split(/^## /m).find((s) => s.startsWith(heading)) ?? '';
    return new Map([...section.matchAll(/^\| `(\w+)` \|(.*)\|$/gm)].map((m) => [m[1]!, m[2]!.split('|').map((c) => c.trim())]));
  };
  it.each([['request', 'Request handling limits'], ['tenant', 'Per-tenant resource bounds'], ['host', 'Host-wide state bounds']] as const)('%s limits: one row each, with the default and both knobs', (scope, heading) => {
    const rows = rowsOf(heading);
    const names = LIMIT_NAMES.filter((n) => LIMITS[n].scope === scope);
    expect([...rows.keys()].sort()).toEqual([...names].sort());
    for (const n of names) {
      const [def, knob] = rows.get(n)!;
      expect([n, def]).toEqual([n, formatLimit(LIMITS[n].default, LIMITS[n].unit)]);
      expect(knob).toBe(`\`limits.${n}\` / \`${LIMITS[n].env}\``);
    }
  });
});
