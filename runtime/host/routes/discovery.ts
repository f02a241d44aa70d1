import type { FastifyInstance } from 'fastify';
import openapiDocument from '../../../generated/openapi/openapi.json' with { type: 'json' };
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';
import { cachedText, serveCached, type CachedText } from './cached-document.ts';

/**
 * The discovery document as served: the runtime's document with the `capabilities` mirror RFC 0073 tolerates (every
 * root member again under `capabilities`), so a reader written against the wrapper sees what the root says. Built
 * from the one document, so the two cannot disagree.
 */
export function withCapabilitiesMirror(doc: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { capabilities: _ignored, ...root } = doc;
  return { ...root, capabilities: root };
}

/**
 * The two public documents (no key needed), both cached (cached-document.ts):
 *   (plus `rootMembers`, the host's own root members: the bundle-signing public keys of its credentials file, signing-keys.ts)
 * - the discovery document, built from what the runtimes wire. The registry hands out the same frozen document until
 *   a capability changes, so its text and ETag are computed once per document identity (a wrapper that changes the
 *   document returns a new object and gets its own);
 * - the OpenAPI document generated from the route table and the schemas (generated/openapi/openapi.json, imported as
 *   a module so a bundled host carries it too), served as the text the generator wrote.
 */
export function registerDiscovery(app: FastifyInstance, host: HostRuntime, rootMembers: Readonly<Record<string, unknown>> = {}): void {
  const texts = new WeakMap<object, CachedText>();
  serveCached(app, ROUTES.discovery, async () => {
    const doc = await host.discovery();
    let served = texts.get(doc);
    if (served === undefined) texts.set(doc, (served = cachedText(JSON.stringify({ ...withCapabilitiesMirror(doc), ...rootMembers }))));
    return served;
  });
  // The emitter writes JSON.stringify(document, null, 2) and a newline; the same here gives the file's bytes.
  const openapi = cachedText(`${JSON.stringify(openapiDocument, null, 2)}\n`);
  serveCached(app, ROUTES.openapi, () => openapi);
}
