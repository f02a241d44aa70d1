import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LeftmostLongestMatcher } from '../../../runtime/redaction/leftmost-longest.ts';
import { naiveRedact, redact, redactionMarker } from '../../../runtime/redaction/chokepoint.ts';
import { SecretRefusedError, type SecretScope, type SecretSet, type TenantSecretScope } from '../../../runtime/redaction/secret-registry.ts';
import type { OpenwopRuntime } from '../../../runtime/openwop/index.ts';
import { registryRow } from '../../../runtime/storage/reads/secrets.ts';
import { acceptSecrets, endRun, openRuntime, put, registerSecrets, request, requestSecrets, storeText, thrown } from '../support.ts';

let shared: OpenwopRuntime;
beforeAll(async () => {
  shared = (await openRuntime()).rt;
});

const scopeOf = (rt: OpenwopRuntime = shared, tenant = 't'): Promise<TenantSecretScope> => requestSecrets(rt, tenant);

/** Register secrets in run-1's registry through the real registration rules; the request's scope. */
async function registry(secrets: Record<string, string>): Promise<TenantSecretScope> {
  const s = await scopeOf();
  for (const [id, v] of Object.entries(secrets)) await s.register('run-1', id, v, 'run');
  return s;
}

/** Register what registration accepts into run-1 of one request's view (refused values are left out). */
async function accepting(values: readonly string[]): Promise<{ scope: TenantSecretScope; accepted: string[] }> {
  const scope = await scopeOf();
  const accepted = await acceptSecrets(scope, 'run-1', values.map((v, i) => [`s${i}`, v] as const));
  return { scope, accepted: accepted.map((a) => a.value) };
}

/**
 * Naive reference for the chokepoint's semantics: at each position try every secret, longest first, replace the
 * first that matches and jump past it; repeat the whole pass until nothing matches. Quadratic, obviously right.
 */
function referenceRedact(content: string, r: SecretSet): string {
  const secrets = [...r.secrets()].sort((a, b) => b.value.length - a.value.length);
  let out = content;
  for (let round = 0; round < 4; round++) {
    let next = '';
    let changed = false;
    for (let i = 0; i < out.length; ) {
      const hit = secrets.find((s) => out.startsWith(s.value, i));
      if (hit === undefined) { next += out[i]; i++; continue; }
      next += redactionMarker(hit.secretId);
      i += hit.value.length;
      changed = true;
    }
    out = next;
    if (!changed || !secrets.some((s) => out.includes(s.value))) return out;
  }
  throw new Error('reference did not converge');
}

describe('SR-1 redaction chokepoint', () => {
  it('replaces a registered plaintext with [REDACTED:<secretId>]', async () => {
    expect(redact('key is sk-live-12345678 ok', (await registry({ 'byok-1': 'sk-live-12345678' })).secrets)).toBe('key is [REDACTED:byok-1] ok');
  });
  it('redacts at exactly 8 characters and not at 7 (the minimum-length floor)', async () => {
    const r = await registry({ eight: 'abcd1234', seven: 'xyz1234' });
    expect(r.secrets.size).toBe(1);
    expect(r.redact('abcd1234 xyz1234')).toBe('[REDACTED:eight] xyz1234');
  });
  it.each<[SecretScope, boolean]>([['user', true], ['tenant', true], ['run', true], ['platform', false]])('a value resolved at %s scope registers: %s (and later writes of the tenant are redacted by it)', async (scope, registers) => {
    const { rt, port } = await openRuntime();
    rt.byok.store('k', 'SCOPED-SECRET-VALUE', scope);
    const resolved = await request(port, async (plan) => {
      const s = await rt.secretsOf(plan, 'tenant-a');
      s.claimRun('run-1');
      return rt.byok.resolve(s, 'run-1', 'k');
    });
    expect(resolved).toBe('SCOPED-SECRET-VALUE');
    const stored = await put(rt, 'mem://tenant-a/s', { content: 'x SCOPED-SECRET-VALUE y' });
    expect(stored.content).toBe(registers ? 'x [REDACTED:k] y' : 'x SCOPED-SECRET-VALUE y');
  });
  it('redacts a longer secret that contains a shorter one whole (longest first)', async () => {
    const r = await registry({ short: 'password', long: 'password-extended-1' });
    expect(r.redact('x password-extended-1 y password z')).toBe('x [REDACTED:long] y [REDACTED:short] z');
  });
  it('picks the leftmost occurrence when two secrets overlap, and the longest at one position', async () => {
    const r = await registry({ a: 'AAAABBBB', b: 'BBBBCCCCC' });
    // a starts first: it wins even though b is longer; b is then broken and cannot be spelled.
    expect(r.redact('AAAABBBBCCCCC')).toBe('[REDACTED:a]CCCCC');
    // a forward-only automaton would see b (the longest ending at the last C) and hide c starting later
    const r2 = await registry({ x: 'zzzzqqqq', y: 'qqqqwwwwwwww', z: 'wwwwwwww' });
    expect(r2.redact('zzzzqqqqwwwwwwww')).toBe('[REDACTED:x][REDACTED:z]');
  });
  it('treats regex metacharacters literally', async () => {
    const r = await registry({ re: '.*+?^${}()|[]\\' });
    expect(r.redact('a .*+?^${}()|[]\\ b')).toBe('a [REDACTED:re] b');
    expect(r.redact('aaaaaaaaaaaaaaaaaaaa')).toBe('aaaaaaaaaaaaaaaaaaaa');
  });
  it('handles secrets outside the BMP (surrogate pairs) by code units', async () => {
    const r = await registry({ emoji: '🔑🔑secret' });
    expect(r.redact('x🔑🔑secret🔑')).toBe('x[REDACTED:emoji]🔑');
  });
  it('a value that a marker next to text could spell is refused at registration (the marker stays collision-proof)', async () => {
    // "D:inner]tail" is spelled by the marker for `inner` followed by "tail"; "D:l]xxxx" re-spelled itself forever
    const r = await registry({ inner: 'INNER-SECRET' });
    expect(await thrown(() => r.register('run-1', 'spelled', 'D:inner]tail', 'run'))).toBeInstanceOf(SecretRefusedError);
    expect(await thrown(() => r.register('run-1', 'l', 'D:l]xxxx', 'run'))).toBeInstanceOf(SecretRefusedError);
    expect(r.secrets.size).toBe(1);
    expect(r.redact('INNER-SECRETtail')).toBe('[REDACTED:inner]tail');
    expect(r.redact(`D:l]${'x'.repeat(24)}`)).toBe(`D:l]${'x'.repeat(24)}`);
  });
  it('refuses a malformed secretId (nothing registered), and its message never names the value', async () => {
    const r = await registry({});
    for (const id of ['', 'has space', 'x'.repeat(129), 'br[acket']) {
      const err = await thrown(() => r.register('run-1', id, 'VALUE-NEVER-ECHOED-1', 'run'));
      expect(err).toBeInstanceOf(SecretRefusedError);
      expect(String((err as Error).message)).not.toContain('VALUE-NEVER-ECHOED');
    }
    expect(r.secrets.size).toBe(0);
  });
  it('leaves markers of registered ids alone: one pass, idempotent, even over content that already carries markers', async () => {
    const r = await registry({ inner: 'INNER-SECRET', other: 'OTHER-SECRET' });
    const once = r.redact('[REDACTED:inner]INNER-SECRET[REDACTED:nobody]OTHER-SECRET');
    expect(once).toBe('[REDACTED:inner][REDACTED:inner][REDACTED:nobody][REDACTED:other]');
    expect(r.redact(once)).toBe(once);
  });
  it('the BYOK resolver registers what it resolves into the run registry (sealed: the store never holds the value); the registry dies with the run', async () => {
    const { rt, port } = await openRuntime();
    rt.byok.store('byok-7', 'sk-tenant-secret-9', 'tenant');
    await request(port, async (plan) => {
      const s = await rt.secretsOf(plan, 'tenant-a');
      s.claimRun('run-1');
      expect(await rt.byok.resolve(s, 'run-1', 'byok-7')).toBe('sk-tenant-secret-9');
    });
    expect((await scopeOf(rt, 'tenant-a')).redact('sk-tenant-secret-9')).toBe(redactionMarker('byok-7'));
    expect((await put(rt, 'mem://tenant-a/s', { content: 'sk-tenant-secret-9' }, { runId: 'run-1' })).content).toBe(redactionMarker('byok-7'));
    expect(await storeText(port)).not.toContain('sk-tenant-secret-9');
    await endRun(rt, 'tenant-a', 'run-1');
    expect((await registryRow(port.reads, 'run-1'))?.state).toBe('dropped');
    expect((await scopeOf(rt, 'tenant-a')).secrets.size).toBe(0);
    // the run that lost its registry writes nothing more, rather than store a value it can no longer recognise
    expect(await thrown(() => put(rt, 'mem://tenant-a/s', { content: 'sk-tenant-secret-9' }, { runId: 'run-1' }))).toMatchObject({ code: 'secret_registry_unavailable', reason: 'dropped' });
    expect(await storeText(port)).not.toContain('sk-tenant-secret-9');
  });
  it('a run belongs to one tenant: claiming it for another, or writing in it into another tenant, is refused', async () => {
    const { rt } = await openRuntime();
    await registerSecrets(rt, 'tenant-a', 'run-1', { k: 'TENANT-A-SECRET-1' });
    expect(await thrown(() => registerSecrets(rt, 'tenant-b', 'run-1', {}))).toMatchObject({ code: 'run_conflict' });
    expect(await thrown(() => put(rt, 'mem://tenant-b/x', { content: 'hello' }, { runId: 'run-1', tenant: 'tenant-b' }))).toMatchObject({ code: 'run_tenant_conflict' });
  });

  const meta = fc.constantFrom('a', 'b', 'c', '.', '*', '[', '(', '$', '\\', '1');
  const secretArb = fc.string({ minLength: 8, maxLength: 16, unit: meta });
  it('no registered secret of 8+ characters survives, whatever overlaps, nesting or metacharacters (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(secretArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.oneof(secretArb, fc.string({ maxLength: 6, unit: meta }), fc.nat().map(String)), { maxLength: 12 }),
        fc.nat(),
        async (secrets, pieces, seed) => {
          // nested: add a substring of one secret as a secret of its own when it is long enough
          const host = secrets[seed % secrets.length]!;
          const nested = host.slice(seed % 3, (seed % 3) + 8 + (seed % 4));
          const candidates = [...new Set([...secrets, ...(nested.length >= 8 ? [nested] : [])])];
          // a value that could overlap the marker syntax is refused at registration (item 3); the rest must not survive
          const { scope, accepted } = await accepting(candidates);
          const out = scope.redact(pieces.join('') + candidates.join(''));
          for (const s of accepted) expect(out.includes(s)).toBe(false);
        },
      ),
      { numRuns: 1500 },
    );
  });
  it('equals a naive longest-first reference on random overlapping inputs (differential property)', async () => {
    const ab = fc.constantFrom('a', 'b');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.string({ minLength: 8, maxLength: 11, unit: ab }), { minLength: 1, maxLength: 10 }), fc.string({ maxLength: 80, unit: ab }), async (secrets, text) => {
        const { scope } = await accepting(secrets);
        expect(scope.secrets.size).toBe(secrets.length);
        expect(scope.redact(text)).toBe(referenceRedact(text, scope.secrets));
      }),
      { numRuns: 2000 },
    );
  });
  it('equals the naive per-secret split/join when secrets do not overlap in the content (differential property)', async () => {
    const word = fc.string({ minLength: 8, maxLength: 12, unit: fc.constantFrom('q', 'w', 'e', 'r', 't', 'y') });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(word, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 10 }), async (secrets, picks) => {
        const { scope } = await accepting(secrets);
        const text = picks.map((p) => (p % 3 === 0 ? ' plain ' : ` ${secrets[p % secrets.length]} `)).join('|');
        expect(redact(text, scope.secrets)).toBe(naiveRedact(text, scope.secrets));
      }),
      { numRuns: 500 },
    );
  });
});

describe('LeftmostLongestMatcher (Aho–Corasick over reversed patterns)', () => {
  it('takes the leftmost match, the longest at that position', () => {
    const m = new LeftmostLongestMatcher(['he', 'she', 'hers', 'his']);
    expect(m.matches('ushers').map((x) => [x.start, x.end, x.pattern])).toEqual([[1, 4, 1]]);
    expect(m.matches('hershe').map((x) => [x.start, x.end, x.pattern])).toEqual([[0, 4, 2], [4, 6, 0]]);
    expect(m.test('xxhixx')).toBe(false);
    expect(m.test('xxhisx')).toBe(true);
  });
  it('agrees exactly with a brute-force leftmost-longest scan (property)', () => {
    const unit = fc.constantFrom('a', 'b', 'c');
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5, unit }), { minLength: 1, maxLength: 8 }), fc.string({ maxLength: 40, unit }), (patterns, text) => {
        const expected: [number, number][] = [];
        for (let s = 0; s < text.length; ) {
          const lens = patterns.filter((p) => text.startsWith(p, s)).map((p) => p.length);
          if (lens.length === 0) { s++; continue; }
          const e = s + Math.max(...lens);
          expected.push([s, e]);
          s = e;
        }
        const found = new LeftmostLongestMatcher(patterns).matches(text);
        expect(found.map((m) => [m.start, m.end])).toEqual(expected);
        for (const m of found) expect(text.slice(m.start, m.end)).toBe(patterns[m.pattern]);
      }),
      { numRuns: 2000 },
    );
  });
});
