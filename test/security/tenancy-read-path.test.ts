/**
 * CTI-1 is enforced once, in the shared read path (runtime/memory/tenant-reader.ts), and a new view cannot forget
 * it: raw entries are read only by the backings that hold them and by `TenantReader`; every other runtime module
 * reads memory through a tenant-bound reader. A module that reads the raw store (or projects a replay snapshot)
 * around a reader fails here.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { tsFilesUnder } from '../architecture/sources.ts';

/** Raw reads: a backing's entry lists, its ref index, a snapshot projection. */
const RAW_READ = /\b(listRawSync|getRawSync|listRaw|stateAt)\s*\(|\.refs\(\)/g;

/** Where raw reads may occur: the backings (which define them), the reader, and the one ref-index walk of erasure. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'runtime/memory/tenant-reader.ts': ['listRawSync', 'getRawSync'],
  'runtime/memory/store.ts': ['listRawSync', 'getRawSync', 'listRaw'],
  'runtime/memory/memory-port.ts': ['listRawSync', 'getRawSync', 'listRaw'],
  'runtime/multi-agent/replay-snapshots.ts': ['listRawSync', 'getRawSync', 'stateAt'],
  // forget walks the ref index (keys only) and reads each ref's entries through the tenant's reader.
  'runtime/memory/writer.ts': ['.refs()'],
};

const rawReads = (file: string): string[] => [...readFileSync(file, 'utf8').matchAll(RAW_READ)].map((m) => m[1] ?? '.refs()');

describe('CTI-1: one read path', () => {
  const files = tsFilesUnder('runtime');

  it('the scan sees raw reads where they are (not vacuous)', () => {
    expect(rawReads('runtime/memory/tenant-reader.ts')).toContain('listRawSync');
    expect(rawReads('runtime/multi-agent/replay-snapshots.ts')).toContain('stateAt');
  });

  it('no runtime module reads raw entries except the backings and TenantReader', () => {
    const hits = files.flatMap((f) => rawReads(f).filter((r) => !(ALLOWED[f] ?? []).includes(r)).map((r) => `${f}: ${r}`));
    expect(hits).toEqual([]);
  });

  it('views are typed against tenant-bound readers, not the raw store', () => {
    const typedBy: [string, RegExp][] = [
      ['runtime/memory/adapter.ts', /constructor\(\s*readonly tenant: string,\s*store: TenantReaders,/],
      ['runtime/multi-agent/replay-snapshots.ts', /constructor\(reader: TenantReader, snapshot: PinnedSnapshot\)/],
      ['runtime/compaction/compactor.ts', /readonly store: TenantReaders;/],
      ['runtime/distillation/distiller.ts', /readonly store: TenantReaders;/],
      ['runtime/memory/memory-port.ts', /interface MemoryStorePort extends TenantReaders \{/],
    ];
    for (const [file, re] of typedBy) expect(readFileSync(file, 'utf8'), file).toMatch(re);
    expect(readFileSync('runtime/memory/memory-port.ts', 'utf8')).not.toMatch(/interface MemoryStorePort[^}]*listRaw/);
  });
});
