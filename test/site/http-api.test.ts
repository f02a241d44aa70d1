/**
 * The HTTP API reference: its one adapter (site/src/lib/http-api.ts) turns every row of the host's route table into an
 * operation, and the built page shows each with its method, path, parameters, access, request and response schemas.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { httpOperations } from '../../site/src/lib/http-api.ts';

describe('HTTP API reference', () => {
  const ops = httpOperations();
  it('has one operation per route of the table, with its parameters, access and schemas', () => {
    expect(ops.map((o) => o.id)).toEqual(Object.keys(ROUTES));
    const fork = ops.find((o) => o.id === 'runFork')!;
    expect(fork).toMatchObject({ method: 'POST', path: '/v1/runs/{runId}:fork', pathParams: ['runId'], access: 'tenant', requestBody: 'RunForkRequest', success: { status: 201, schemas: ['RunForkResponse'] } });
    expect(ops.find((o) => o.id === 'discovery')!.access).toBe('public');
    expect(ops.find((o) => o.id === 'runMemory')!.success.schemas).toEqual(['MemoryEntry', 'HostSampleMemoryEntriesResponse']);
    expect(ops.find((o) => o.id === 'memoryList')!.query).toEqual(['limit', 'cursor', 'tag']);
  });

  it('renders every operation on the built page, linked to its schemas', () => {
    const html = readFileSync('site/dist/http-api/index.html', 'utf8');
    for (const o of ops) {
      const section = new RegExp(`<section class="http-op[^"]*" id="op-${o.id}" data-method="${o.method}" data-path="${o.path.replace(/[{}]/g, '\\$&')}"[^>]*>([^]*?)</section>`).exec(html)?.[1];
      expect(section, o.id).toBeDefined();
      for (const s of [...o.success.schemas, ...(o.requestBody !== undefined ? [o.requestBody] : [])]) expect(section, `${o.id}: ${s}`).toMatch(new RegExp(`<a href="/schemas/[^"]+"[^>]*><code[^>]*>${s}</code></a>`));
    }
  });
});
