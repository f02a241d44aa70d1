/**
 * Issue 12, items 3 and 7 (SR-1):
 * - Item 3: a secret whose value overlaps the marker syntax (`REDACTED:` …) must not disable its tenant: it is
 *   refused at registration (400, nothing stored) and every later write, compaction and consolidation succeeds.
 * - Item 7: every stored string field goes through the chokepoint (tags included; an id or memoryRef carrying a
 *   secret is refused), and the request log never carries a query value, an Authorization header or a key.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { MemoryWriteError } from '../../runtime/memory/writer.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { HEADERS, TOKEN, testHost } from './amplification-host.ts';
import { library } from './library.ts';

/** The entries stored under a ref, as the store holds them. */
const storedDocs = async (port: StoragePort, memoryRef: string) => (await port.reads.all('SELECT doc FROM entries WHERE memory_ref = ?', [memoryRef], 1000)).map((r) => r.doc);

describe('item 3: one secret cannot disable a tenant', () => {
  it('a secret valued "REDACTED:" is refused at registration; later writes, compaction and consolidation of the tenant succeed', async () => {
    const h = await testHost();
    const ref = 'mem://victim/notes';
    expect((await h.post(ROUTES.memorySeed, { memoryRef: ref, secrets: [{ secretId: 'k1', value: 'sk-live-normal-0123456789' }], entries: [{ content: 'key sk-live-normal-0123456789' }, { content: 'a plain note' }] })).statusCode).toBe(200);
    // A run of the tenant that stays live (client-named) tries to register the poison value.
    const poison = await h.post(ROUTES.memorySeed, { memoryRef: ref, runId: 'long-lived', secrets: [{ secretId: 'p', value: 'REDACTED:' }], entries: [{ content: 'poisoned' }] });
    // The tenant keeps working: a write that carries a marker, a compaction and a consolidation all succeed.
    const later = await h.post(ROUTES.memorySeed, { memoryRef: ref, runId: 'long-lived', entries: [{ content: 'see [REDACTED:k1] above' }] });
    expect(later.statusCode, later.body).toBe(200);
    const list = await h.get(targetOf(ROUTES.memoryEntries, { query: { tenant: 'victim', memoryRef: ref } }));
    const ids = (list.json() as { entries: { id: string }[] }).entries.map((e) => e.id);
    expect((await h.post(ROUTES.memoryCompact, { memoryRef: ref, sourceIds: ids.slice(0, 2) })).statusCode).toBe(200);
    expect((await h.post(ROUTES.consolidate, { memoryRef: ref })).statusCode).toBe(200);
    // The poison itself was refused with a clear envelope, and its entry was not stored.
    expect(poison.statusCode).toBe(400);
    expect(poison.json()).toMatchObject({ error: 'bad_request', message: expect.stringMatching(/redaction marker/) });
    expect((await h.stored(ref)).map((e) => e.content)).not.toContain('poisoned');
    await h.app.close();
  });

  it.each([
    ['contains the marker opening', 'xx[REDACTED:yy'],
    ['lies inside every marker', 'REDACTED'],
    ['ends with the start of a marker', 'sk-live-abc[RED'],
    ['starts with the end of a marker', 'id-chars]sk-live-abc'],
    ['lies inside its own marker', 'sk-live-own-id'],
  ])('a value that %s is refused at registration with a clear error (library)', async (_, value) => {
    const l = await library();
    const err = await l.request(async (plan) => {
      const scope = await l.rt.secretsOf(plan, 'acme');
      scope.claimRun('run-1');
      return scope.register('run-1', value === 'sk-live-own-id' ? 'sk-live-own-id-1' : 'k', value, 'run').then(() => undefined, (e: unknown) => e);
    });
    expect(String(err)).toMatch(/redaction marker/);
    expect(await l.port.reads.get('SELECT state, secret_count FROM secret_registries WHERE run_id = ?', ['run-1'])).toEqual({ state: 'live', secret_count: 0 });
    // ...and the tenant's writes keep working.
    const w = await l.request((plan) => l.rt.writer.put(plan, 'mem://acme/a', { content: `text with ${value} and [REDACTED:k]` }, { runId: 'run-1', tenant: 'acme' }));
    expect(w.stored.value.content).toContain(value);
    await l.port.close();
  });
});

describe('item 7: every stored string field is redacted, and logs carry no secret', () => {
  const secret = 'sk-live-tag-canary-0123456789';

  it('tags are redacted like content', async () => {
    const h = await testHost();
    const r = await h.post(ROUTES.memorySeed, { memoryRef: 'mem://acme/tags', secrets: [{ secretId: 'k-tag', value: secret }], entries: [{ content: 'note', tags: [`customer:${secret}`, 'plain'] }] });
    expect(r.statusCode).toBe(200);
    expect(r.body).not.toContain(secret);
    const stored = await h.stored('mem://acme/tags');
    expect(stored.flatMap((e) => e.tags)).toEqual(['customer:[REDACTED:k-tag]', 'plain']);
    expect(JSON.stringify(stored)).not.toContain(secret);
    await h.app.close();
  });

  it('library: a child write redacts its tags; an id or memoryRef that carries a secret is refused, nothing stored', async () => {
    const l = await library();
    const registered = (runId: string) => l.request(async (plan) => {
      const scope = await l.rt.secretsOf(plan, 'acme');
      scope.claimRun(runId);
      await scope.register(runId, 'k', secret, 'run');
    });
    await registered('run-1');
    for (const [ref, input] of [['mem://acme/a', { id: `id-${secret}`, content: 'x' }], [`mem://acme/${secret}`, { content: 'x' }]] as const) {
      const err = await l.request((plan) => l.rt.writer.put(plan, ref, input, { runId: 'run-1', tenant: 'acme' }).then(() => undefined, (e: unknown) => e));
      expect(err).toBeInstanceOf(MemoryWriteError);
    }
    expect(Number((await l.port.reads.get('SELECT count(*) AS n FROM entries'))!.n)).toBe(0);
    const parent = await l.request(async (plan) => l.rt.startRun(plan, { workflowId: 'w', memoryRef: 'mem://acme/a' }));
    await registered('child-1');
    const { entry } = await l.rt.childWrite({ runId: parent.runId, memoryRef: 'mem://acme/a' }, 'child-1', { content: 'c', tags: [`t:${secret}`] });
    expect(entry.tags).toEqual(['t:[REDACTED:k]']);
    expect((await storedDocs(l.port, 'mem://acme/a')).join()).not.toContain(secret);
    await l.port.close();
  });

  it('the request log has no query value, no Authorization header, no key', async () => {
    const lines: string[] = [];
    const h = await testHost({ logger: { level: 'trace', stream: { write: (s: string) => void lines.push(s) } } });
    const apiKey = 'query-api-key-0123456789abcdef';
    expect((await h.post(ROUTES.memorySeed, { memoryRef: 'mem://acme/logs', secrets: [{ secretId: 'k', value: secret }], entries: [{ content: secret, tags: [secret] }] })).statusCode).toBe(200);
    const tagged = targetOf(ROUTES.memoryEntries, { query: { tenant: 'acme', memoryRef: 'mem://acme/logs', tag: secret } });
    expect((await h.get(tagged)).statusCode).toBe(200);
    await h.get(`${tagged}&api_key=${apiKey}&access_token=${apiKey}`);
    await h.get(`${ROUTES.memoryEntries.path}?token=${apiKey}`, { authorization: `Bearer ${apiKey}` }); // refused: wrong token
    await h.get(`/v1/no-such-route/${secret}?api_key=${apiKey}`);
    await h.app.close();
    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(8);
    for (const needle of [secret, apiKey, TOKEN, HEADERS.authorization]) expect(all).not.toContain(needle);
    const incoming = lines.map((l) => JSON.parse(l) as { msg: string; req?: { url?: string; route?: string; queryParams?: string[] } }).filter((r) => r.msg === 'incoming request');
    expect(incoming.length).toBe(5);
    // What the log says instead: the route pattern and the names of the query parameters sent.
    expect(incoming[1]!.req).toMatchObject({ route: ROUTES.memoryEntries.path, queryParams: ['tenant', 'memoryRef', 'tag'] });
    expect(incoming[2]!.req).toMatchObject({ queryParams: ['tenant', 'memoryRef', 'tag'], otherQueryParams: 2 });
    expect(incoming.every((r) => r.req?.url === undefined || !r.req.url.includes('?'))).toBe(true);
  });
});
