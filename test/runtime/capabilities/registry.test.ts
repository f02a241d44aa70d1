/** CapabilityRegistry: the discovery document is computed once per set of contributions and cannot be changed by callers. */
import { describe, expect, it } from 'vitest';
import { CapabilityRegistry, ConflictingCapabilityError, DISCOVERY_ROOT, type CapabilityFragment } from '../../../runtime/capabilities/registry.ts';

const registry = () => new CapabilityRegistry().contribute('memory', { memory: { supported: true } });

describe('CapabilityRegistry document cache', () => {
  it('a contribution after a read changes the next document (and its JSON)', () => {
    const reg = registry();
    expect(reg.document()).toEqual({ ...DISCOVERY_ROOT, memory: { supported: true } });
    expect(reg.documentJson()).toBe(JSON.stringify({ ...DISCOVERY_ROOT, memory: { supported: true } }));
    reg.contribute('ttl', { memory: { ttlSupported: true } });
    expect(reg.document()).toEqual({ ...DISCOVERY_ROOT, memory: { supported: true, ttlSupported: true } });
    expect(JSON.parse(reg.documentJson())).toEqual(reg.document());
  });

  it('between contributions every read is the same document', () => {
    const reg = registry();
    expect(reg.document()).toBe(reg.document());
    expect(reg.documentJson()).toBe(reg.documentJson());
  });

  it('mutating a returned document cannot change the next one', () => {
    const reg = registry();
    const first = reg.document() as unknown as { memory: { supported: boolean }; extra?: number };
    expect(() => {
      first.memory.supported = false;
    }).toThrow(TypeError);
    expect(() => {
      first.extra = 1;
    }).toThrow(TypeError);
    expect(reg.document()).toEqual({ ...DISCOVERY_ROOT, memory: { supported: true } });
    expect(reg.documentJson()).toBe(JSON.stringify({ ...DISCOVERY_ROOT, memory: { supported: true } }));
  });

  it('changing a fragment object after contributing it changes nothing', () => {
    const fragment = { memory: { supported: true } };
    const reg = new CapabilityRegistry().contribute('memory', fragment as CapabilityFragment);
    fragment.memory.supported = false;
    expect(reg.document().memory?.supported).toBe(true);
  });

  it('a conflicting contribution after a read is still refused on the next read', () => {
    const reg = registry();
    reg.document();
    reg.contribute('other', { memory: { supported: false } });
    expect(() => reg.document()).toThrow(ConflictingCapabilityError);
    expect(() => reg.documentJson()).toThrow(ConflictingCapabilityError);
  });
});
