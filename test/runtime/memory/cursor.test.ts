/**
 * Cursors are signed with the host's cursor key ring: the first key signs, every key verifies. A rotation puts the new
 * key first and keeps the old one until the cursors it signed have been used up, so no open cursor breaks; a ring
 * without the key a cursor was signed with refuses it (invalid_cursor), as it refuses a cursor for another list.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CursorCodec, InvalidCursorError } from '../../../runtime/memory/cursor.ts';

const scope = { tenant: 'acme', memoryRef: 'mem://acme/notes' };
const at = { negCreated: -1_767_225_600_000, id: 'mem_1' };

describe('cursor key ring', () => {
  it('a rotation breaks no open cursor: old cursors verify under [new, old], new ones are signed with the new key; [new] alone refuses the old', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const before = new CursorCodec(oldKey).encode(scope, at);
    const rotating = new CursorCodec([newKey, oldKey]);
    expect(rotating.decode(before, scope)).toEqual(at);
    const after = rotating.encode(scope, at);
    expect(new CursorCodec(newKey).decode(after, scope)).toEqual(at);
    expect(() => new CursorCodec(newKey).decode(before, scope)).toThrow(InvalidCursorError);
    expect(() => new CursorCodec(oldKey).decode(after, scope)).toThrow(InvalidCursorError);
  });

  it('a cursor verifies only for the list it was minted for, under any ring holding its key (property)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), fc.option(fc.string({ maxLength: 8 }), { nil: undefined }), fc.integer({ min: 0, max: 3 }), (tenant, ref, tag, position) => {
      const keys = [randomBytes(16), randomBytes(16), randomBytes(16), randomBytes(16)];
      const mint = { tenant, memoryRef: ref, ...(tag !== undefined ? { tag } : {}) };
      const cursor = new CursorCodec(keys[position]!).encode(mint, at);
      expect(new CursorCodec(keys).decode(cursor, mint)).toEqual(at);
      expect(() => new CursorCodec(keys).decode(cursor, { ...mint, tenant: `${tenant}x` })).toThrow(InvalidCursorError);
      expect(() => new CursorCodec(keys.filter((_, i) => i !== position)).decode(cursor, mint)).toThrow(InvalidCursorError);
    }));
  });

  it('refuses a key shorter than 16 bytes and an empty ring', () => {
    expect(() => new CursorCodec(Buffer.alloc(8))).toThrow(RangeError);
    expect(() => new CursorCodec([])).toThrow(RangeError);
    expect(() => new CursorCodec([randomBytes(32), Buffer.alloc(4)])).toThrow(RangeError);
  });
});
