import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseMemoryRef, memoryRef, MAX_MEMORY_REF_BYTES } from '../../../runtime/memory/memory-ref.ts';

describe('CTI-1 memoryRef grammar', () => {
  it('parses a well-formed ref into exactly one tenant', () => {
    expect(parseMemoryRef('mem://tenant-a/agents/agent-1')).toEqual({ ref: 'mem://tenant-a/agents/agent-1', tenant: 'tenant-a', scope: ['agents', 'agent-1'] });
  });
  it.each([
    ['traversal', 'mem://tenant-a/../tenant-b/x'],
    ['dot segment', 'mem://tenant-a/./x'],
    ['embedded NUL', 'mem://tenant-a/x\u0000y'],
    ['percent-encoded traversal', 'mem://tenant-a/%2e%2e/x'],
    ['backslash', 'mem://tenant-a\\x/y'],
    ['no scope', 'mem://tenant-a'],
    ['empty segment', 'mem://tenant-a//x'],
    ['uppercase tenant', 'mem://Tenant/x'],
    ['other scheme', 'file:///etc/passwd'],
    ['query', 'mem://tenant-a/x?y=1'],
    ['whitespace', 'mem://tenant-a/x y'],
    ['oversize', `mem://t/${'a'.repeat(MAX_MEMORY_REF_BYTES)}`],
    ['too many segments', `mem://t/${Array(17).fill('a').join('/')}`],
  ])('rejects %s', (_, ref) => {
    expect(parseMemoryRef(ref)).toBeNull();
  });
  it('rejects non-strings without throwing', () => {
    for (const v of [null, undefined, 42, {}, [], Symbol.iterator]) expect(parseMemoryRef(v)).toBeNull();
  });
  it('never throws and only accepts refs that rebuild to themselves (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (s) => {
        const p = parseMemoryRef(s);
        if (p !== null) expect(`mem://${p.tenant}/${p.scope.join('/')}`).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });
  it('memoryRef() refuses parts that would not parse', () => {
    expect(() => memoryRef('tenant', '..')).toThrow(RangeError);
    expect(memoryRef('t1', 'a', 'b')).toBe('mem://t1/a/b');
  });
});
