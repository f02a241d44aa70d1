/** The discovery document follows what the runtime wires: an unwired module is neither advertised nor served. */
import { describe, expect, it } from 'vitest';
import { createHost, HOST_VERSION } from '../../runtime/host/server.ts';
import { validateCapabilities, validateErrorEnvelope } from '../../generated/validators/validators.js';
import { configFrom } from '../../conformance/config.ts';
import { runSuite } from '../../conformance/run.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';

const TOKEN = 'discovery-test-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

describe('discovery from what the runtime wires', () => {
  it('the default host advertises every family at the root, valid against capabilities.schema.json', async () => {
    const { app } = await createHost({ token: TOKEN });
    const d = (await app.inject({ method: 'GET', url: ROUTES.discovery.path })).json();
    expect(validateCapabilities(d)).toBe(true);
    expect(Object.keys(d)).toEqual(expect.arrayContaining(['protocolVersion', 'host', 'agents', 'memory', 'multiAgent', 'inquirium']));
    expect(d.host).toEqual({ name: 'wopkit-reference-host', version: HOST_VERSION });
    await app.close();
  });
  it('without compaction: no memory.compaction/distillation block, the seams answer capability_not_provided, the suite calls the scenarios inapplicable (lenient) or fails them (strict)', async () => {
    const { app } = await createHost({ token: TOKEN, modules: { compaction: false, distillation: false } });
    const d = (await app.inject({ method: 'GET', url: ROUTES.discovery.path })).json();
    expect(validateCapabilities(d)).toBe(true);
    expect(d.memory?.compaction).toBeUndefined();
    expect(d.memory?.distillation).toBeUndefined();
    for (const [url, capability] of [[ROUTES.memoryCompact.path, 'memory.compaction'], [ROUTES.memoryDistill.path, 'memory.distillation']] as const) {
      const r = await app.inject({ method: 'POST', url, headers: H, payload: JSON.stringify({ memoryRef: 'mem://t/a' }) });
      expect(r.statusCode).toBe(501);
      expect(r.json()).toMatchObject({ error: 'capability_not_provided', details: { capability } });
      expect(validateErrorEnvelope(r.json())).toBe(true);
    }
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const lenient = await runSuite(configFrom({}, { 'base-url': url, 'api-key': TOKEN, only: 'memory-compaction' }));
    expect(lenient.scenarios.map((s) => [s.outcome, s.skipClass])).toEqual(Array(3).fill(['skip', 'inapplicable']));
    const strict = await runSuite(configFrom({}, { 'base-url': url, 'api-key': TOKEN, only: 'memory-compaction', strict: true }));
    expect(strict.scenarios.map((s) => s.outcome)).toEqual(['fail', 'fail', 'fail']);
    expect(strict.host.name).toBe('wopkit-reference-host');
    await app.close();
  });
});
