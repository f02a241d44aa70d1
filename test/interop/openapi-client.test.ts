/**
 * Issue 24: a typed client generated from the OpenAPI document with standard tools (openapi-typescript for the
 * types, openapi-fetch for the calls) compiles, calls discovery, a memory list and `:fork` against a running host,
 * and a wrong field in a request body fails to compile. The client is generated here, into a scratch folder inside
 * the repository (so it resolves this repository's packages), type-checked with the TypeScript compiler, imported and
 * run; the folder is removed afterwards.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import type { FastifyInstance } from 'fastify';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { REPO } from '../generator/helpers.ts';

const TOKEN = 'openapi-client-token-0123456789';
const SCRATCH_PARENT = join(REPO, '.tmp');

/** The client program: one function per call the acceptance names. `BODY` is replaced to make the broken variant. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

export async function calls(baseUrl: string, token: string, runId: string, fromSeq: number) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  const discovery = await client.GET('/.well-known/openwop');
  const list = await client.GET('/v1/memory/{memoryRef}', { params: { path: { memoryRef: 'mem://default/openapi-client' }, query: { limit: 10 } } });
  const fork = await client.POST('/v1/runs/{runId}:fork', { params: { path: { runId } }, body: BODY });
  const protocolVersion: string = discovery.data!.protocolVersion;
  const entries: number = list.data!.entries.length;
  const forkId: string | undefined = fork.data?.runId;
  return { protocolVersion, entries, forkId, forkStatus: fork.response.status, forkError: fork.error };
}
`;

/** TypeScript diagnostics of the client program in `dir` (strict, as this project compiles). */
function typeErrors(dir: string): string[] {
  const options: ts.CompilerOptions = {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true, skipLibCheck: true, types: [],
  };
  const program = ts.createProgram([join(dir, 'client.ts')], options);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${d.file.fileName.slice(dir.length + 1)}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('a typed client generated from the OpenAPI document', () => {
  let dir = '';
  let app: FastifyInstance;
  let baseUrl = '';

  beforeAll(async () => {
    mkdirSync(SCRATCH_PARENT, { recursive: true });
    dir = mkdtempSync(join(SCRATCH_PARENT, 'openapi-client-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const doc = JSON.parse(readFileSync(join(REPO, 'generated/openapi/openapi.json'), 'utf8')) as Parameters<typeof openapiTS>[0];
    writeFileSync(join(dir, 'schema.ts'), astToString(await openapiTS(doc)));
    ({ app } = await createHost({ token: TOKEN }));
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('compiles, and a wrong field or a wrong type in a request body does not', () => {
    writeFileSync(join(dir, 'client.ts'), CLIENT.replace('BODY', '{ fromSeq, mode: "replay" }'));
    expect(typeErrors(dir)).toEqual([]);
    writeFileSync(join(dir, 'client.ts'), CLIENT.replace('BODY', '{ fromSeq, fromSequence: 1 }'));
    expect(typeErrors(dir).join('\n')).toMatch(/fromSequence/);
    writeFileSync(join(dir, 'client.ts'), CLIENT.replace('BODY', '{ fromSeq: "zero" }'));
    expect(typeErrors(dir).join('\n')).toMatch(/string.*number|number.*string/s);
    writeFileSync(join(dir, 'client.ts'), CLIENT.replace('BODY', '{ mode: "rewind", fromSeq }'));
    expect(typeErrors(dir).join('\n')).toMatch(/rewind/);
  }, 60_000);

  it('calls discovery, a memory list and :fork against the host', async () => {
    writeFileSync(join(dir, 'client.ts'), CLIENT.replace('BODY', '{ fromSeq, mode: "replay" }'));
    const fixture = await app.inject({ method: 'POST', url: ROUTES.replayFixture.path, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, payload: '{}' });
    expect(fixture.statusCode).toBe(200);
    const { runId, fromSeq } = fixture.json() as { runId: string; fromSeq: number };
    const { calls } = (await import(join(dir, 'client.ts'))) as { calls: (b: string, t: string, r: string, f: number) => Promise<Record<string, unknown>> };
    const out = await calls(baseUrl, TOKEN, runId, fromSeq);
    expect(out.protocolVersion).toMatch(/^\d+\.\d+/);
    expect(out.entries).toBe(0);
    expect(out.forkStatus).toBe(201);
    expect(typeof out.forkId).toBe('string');
    expect(out.forkError).toBeUndefined();
  }, 60_000);
});
