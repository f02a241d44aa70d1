/**
 * Every request body the reference host reads is checked by the generated validator of its schema: each invalid
 * example of a request schema is refused with 400 validation_failed naming the example's own JSON pointer, each valid
 * example gets past validation, and every 2xx answer validates against the response schema. A request schema added to
 * the corpus without a catalogue route (runtime/host/seam-catalogue.ts) fails the first test.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { loadCorpus } from '../../generator/load.ts';
import { validatorIndex } from '../../generated/validators/validators.js';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES, targetOf, validatorOf, type CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';

const TOKEN = 'seam-bodies-test-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const EXAMPLES = 'schemas/openwop/v1/examples';

/** request schema stem (its examples folder) → the catalogue route whose body it is. */
const SEAMS: Record<string, CatalogueRoute> = Object.fromEntries(Object.values(ROUTES)
  .flatMap((r): [string, CatalogueRoute][] => ('request' in r ? [[validatorIndex[r.request].target, r]] : []))
  .filter(([stem]) => stem.startsWith('host-sample-')));

/** The examples of a request schema as the corpus loader reads them (it removes the `$schema` examples carry for editors). */
const corpusExamples = loadCorpus('.').examples;
const examples = (stem: string, kind: 'valid' | 'invalid') =>
  corpusExamples
    .filter((e) => e.family === 'openwop' && e.major === 'v1' && e.target === stem && e.kind === kind)
    .map((e) => ({ file: e.path.slice(`${EXAMPLES}/`.length), doc: (kind === 'valid' ? e.instance : { instance: e.instance, expect: e.expect }) as any }));

describe('fixture seam request bodies are schema-checked', () => {
  it('every host-sample request schema in the corpus has a route here', () => {
    const stems = readdirSync('schemas/openwop/v1').filter((f) => /^host-sample-.*-request\.schema\.json$/.test(f)).map((f) => f.replace('.schema.json', ''));
    expect(stems.sort()).toEqual(Object.keys(SEAMS).sort());
  });

  for (const [stem, seam] of Object.entries(SEAMS)) {
    it(`${seam.path}: invalid examples → 400 at the example's pointer; valid ones pass validation and answer on-schema`, async () => {
      const { app } = await createHost({ token: TOKEN });
      try {
        for (const { file, doc } of examples(stem, 'invalid')) {
          const r = await app.inject({ method: 'POST', url: seam.path, headers: H, payload: JSON.stringify(doc.instance) });
          expect(r.statusCode, file).toBe(400);
          const body = r.json();
          expect(body.error, file).toBe('validation_failed');
          expect(body.details.failures.map((f: { instancePath: string }) => f.instancePath), file).toContain(doc.expect.instancePath);
        }
        for (const { file, doc } of examples(stem, 'valid')) {
          const r = await app.inject({ method: 'POST', url: seam.path, headers: H, payload: JSON.stringify(doc) });
          // A valid body may still be refused for state (an unknown source id, an unknown question) — never for shape.
          expect(r.json().error, `${file}: ${r.body.slice(0, 300)}`).not.toBe('validation_failed');
          expect(r.statusCode, file).toBeLessThan(500);
          if (r.statusCode < 300) {
            const v = validatorOf(seam.response);
            expect(v(r.json()), `${file}: ${JSON.stringify(v.errors)}`).toBe(true);
          }
        }
      } finally {
        await app.close();
      }
    });
  }

  it.each([['with', true], ['without', false]])('a seed naming a run of another tenant (%s secrets) is a 409 conflict, and nothing is written', async (_, withSecrets) => {
    const { app } = await createHost({ token: TOKEN });
    const secrets = withSecrets ? { secrets: [{ secretId: 'k1', value: 'sk-live-0123456789' }] } : {};
    const seed = (memoryRef: string) => app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: H, payload: JSON.stringify({ memoryRef, runId: 'shared-run', ...secrets, entries: [{ content: 'x' }] }) });
    expect((await seed('mem://tenant-a/notes')).statusCode).toBe(200);
    expect((await seed('mem://tenant-a/other')).statusCode).toBe(200); // the same tenant may keep using its run
    const r = await seed('mem://tenant-b/notes');
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'conflict', details: { failures: [{ instancePath: '/runId' }] } });
    const list = await app.inject({ method: 'GET', url: targetOf(ROUTES.memoryEntries, { query: { tenant: 'tenant-b', memoryRef: 'mem://tenant-b/notes' } }), headers: H });
    expect(list.json()).toEqual({ entries: [] });
    await app.close();
  });
  it('a seed naming a started run of another tenant is a 409 too', async () => {
    const { app } = await createHost({ token: TOKEN });
    const started = await app.inject({ method: 'POST', url: ROUTES.escalationRun.path, headers: H, payload: JSON.stringify({ confidence: 0.95 }) });
    const { runId } = started.json() as { runId: string };
    const r = await app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: H, payload: JSON.stringify({ memoryRef: 'mem://acme/notes', runId, entries: [{ content: 'x' }] }) });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'conflict', details: { failures: [{ instancePath: '/runId' }] } });
    await app.close();
  });
});
