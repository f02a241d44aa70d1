/**
 * Opaque cursors of memory lists. A cursor names where a page ended (an entry's immutable list position) and what
 * it was minted for — the tenant, the memoryRef, the tag filter and, for a fork's view, the run — and is signed
 * (HMAC-SHA256) with a key from the host's configuration, so it survives a restart and works on every host of a
 * fleet that shares the key. A cursor that does not verify, or was minted for another tenant, memoryRef, tag or view,
 * is refused with 400 `invalid_cursor`; it never resumes another list.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WopkitError } from '../shared/errors.ts';
import type { EntryPosition } from '../storage/index.ts';


/** What a cursor resumes: the same list it was minted for. */
export interface CursorScope {
  readonly tenant: string;
  readonly memoryRef: string;
  readonly tag?: string;
  /** The view the list was read through (a fork run's id), absent for live memory. */
  readonly view?: string;
}

export class InvalidCursorError extends WopkitError<'invalid_cursor'> {
  constructor(why: string) {
    const message = `the cursor is not valid for this list (${why}); start again without one`;
    super('invalid_cursor', message, { error: 'invalid_cursor', message, details: { failures: [{ instancePath: '/cursor', message: why }] } });
  }
}

const b64 = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

export class CursorCodec {
  readonly #keys: readonly Buffer[];

  /**
   * `key`: one key or a ring, each at least 16 bytes, from the host's configuration — the first signs, every one
   * verifies, so a rotation (new key first, then the old one dropped a page's lifetime later) breaks no open cursor.
   * Absent: a random key, and cursors then die with the process.
   */
  constructor(key?: Buffer | readonly Buffer[]) {
    const keys = key === undefined ? [randomBytes(32)] : Array.isArray(key) ? key : [key as Buffer];
    if (keys.length === 0 || keys.some((k) => k.length < 16)) throw new RangeError('a cursor key must be at least 16 bytes');
    this.#keys = keys;
  }

  #mac(payload: string, key: Buffer = this.#keys[0]!): Buffer {
    return createHmac('sha256', key).update(payload).digest().subarray(0, 18);
  }

  encode(scope: CursorScope, at: EntryPosition): string {
    const payload = b64(JSON.stringify([scope.tenant, scope.memoryRef, scope.tag ?? null, scope.view ?? null, at.negCreated, at.id]));
    return `${payload}.${b64(this.#mac(payload))}`;
  }

  /** The position a cursor resumes after, checked against the list it is presented for. */
  decode(cursor: string, scope: CursorScope): EntryPosition {
    if (typeof cursor !== 'string' || cursor.length > 2048) throw new InvalidCursorError('malformed');
    const [payload, mac, extra] = cursor.split('.');
    if (payload === undefined || mac === undefined || extra !== undefined) throw new InvalidCursorError('malformed');
    const given = Buffer.from(mac, 'base64url');
    let verified = false;
    for (const key of this.#keys) {
      const expected = this.#mac(payload, key);
      if (given.length === expected.length && timingSafeEqual(given, expected)) verified = true;
    }
    if (!verified) throw new InvalidCursorError('not minted by this host or its fleet');
    let fields: unknown;
    try {
      fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw new InvalidCursorError('malformed');
    }
    if (!Array.isArray(fields) || fields.length !== 6) throw new InvalidCursorError('malformed');
    const [tenant, memoryRef, tag, view, negCreated, id] = fields as unknown[];
    if (tenant !== scope.tenant || memoryRef !== scope.memoryRef || tag !== (scope.tag ?? null) || view !== (scope.view ?? null)) {
      throw new InvalidCursorError('minted for another list');
    }
    if (typeof negCreated !== 'number' || !Number.isSafeInteger(negCreated) || typeof id !== 'string') throw new InvalidCursorError('malformed');
    return { negCreated, id };
  }
}
