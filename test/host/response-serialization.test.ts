/**
 * Issue 32: response serialization never drops or changes a member. Every valid corpus example of every schema a
 * route answers with (its `response` and `alsoResponds` titles), returned by a handler registered through the same
 * `serve` helper every route of the host uses (so through whatever serializer that helper gives a route), arrives as
 * exactly its `JSON.stringify` round trip. The host declares no response schemas today, so this is the default
 * serializer; a response schema added to `serve` later (fast-json-stringify drops unknown members) must pass it too.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { serve } from '../../runtime/host/route-helpers.ts';
import { pathParametersOf, ROUTES, targetOf, type CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';
import { REPO } from '../generator/helpers.ts';
import { openMemoryStore, unitsOf } from '../../runtime/storage/index.ts';

const corpus = loadCorpus(REPO);
const resolved = new Resolved(corpus);
const titleOf = new Map([...resolved.entries.values()].map((e) => [`${e.file.family}/${e.file.major}/${e.target}`, e.title]));

/** The valid examples of a schema title. */
const validExamples = (title: string): unknown[] => corpus.examples.filter((ex) => ex.kind === 'valid' && titleOf.get(`${ex.family}/${ex.major}/${ex.target}`) === title).map((ex) => ex.instance);

describe('response serialization', () => {
  it('every valid example of every response schema comes back as its JSON.stringify round trip', async () => {
    let checked = 0;
    // `serve` opens the request's unit of work: the app carries the opener, as the host's does (server.ts).
    const units = unitsOf(await openMemoryStore());
    const titles = new Set<string>();
    for (const route of Object.values(ROUTES) as CatalogueRoute[]) {
      for (const title of [route.response, ...(route.alsoResponds ?? [])]) {
        const examples = validExamples(title);
        if (examples.length > 0) titles.add(title);
        for (const example of examples) {
          const app = Fastify({ logger: false });
          app.decorate('units', units);
          // Inputs are not what this test is about: every request is let through as sent.
          app.setValidatorCompiler(() => (data: unknown) => ({ value: data }));
          serve(app, route, () => example);
          const params = Object.fromEntries(pathParametersOf(route.path).map((p) => [p, `x-${p}${p === 'runId' && route.path.endsWith(':fork') ? ':fork' : ''}`]));
          const res = await app.inject({ method: route.method, url: targetOf(route, { params }), ...(route.request !== undefined ? { payload: {} } : {}) });
          expect(res.statusCode, `${route.method} ${route.path} ${title}`).toBe(route.status ?? 200);
          expect(JSON.parse(res.body), `${route.method} ${route.path} ${title}`).toEqual(JSON.parse(JSON.stringify(example)));
          await app.close();
          checked++;
        }
      }
    }
    // Not vacuous: most response schemas have examples.
    expect(titles.size).toBeGreaterThan(25);
    expect(checked).toBeGreaterThan(50);
  });
});
