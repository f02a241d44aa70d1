/**
 * The playground's permalink: the type and the document, in the URL's fragment (never sent to a server), as
 * `#type=<Title>&doc=<base64url of the UTF-8 text>`. Any text round-trips, malformed JSON included.
 */

export interface Permalink {
  readonly type: string;
  readonly doc: string;
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return undefined;
  try {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

export function encodePermalink(p: Permalink): string {
  return `#type=${encodeURIComponent(p.type)}&doc=${toBase64Url(new TextEncoder().encode(p.doc))}`;
}

/** The permalink in a URL fragment; undefined when it carries none or a damaged one. */
export function decodePermalink(hash: string): Permalink | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const type = params.get('type');
  const doc = params.get('doc');
  if (type === null || type === '' || doc === null) return undefined;
  const bytes = fromBase64Url(doc);
  if (bytes === undefined) return undefined;
  try {
    return { type, doc: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return undefined;
  }
}
