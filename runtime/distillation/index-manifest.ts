/**
 * The MEMORY-INDEX.json manifest (schemas/openwop/v1/memory-index.schema.json) kept as a workspace file per
 * memoryRef. Updating it emits `workspace.updated` (path + digest + size, no content).
 */
import { createHash } from 'node:crypto';
import { validateMemoryIndex } from '../../generated/validators/validators.js';
import type { MemoryIndex, MemoryIndexArchive } from '../../generated/ts/memory-index.ts';
import { isExpired } from '../memory/ttl.ts';
import type { Tx } from '../storage/index.ts';


export const INDEX_PATH = 'MEMORY-INDEX.json';

export type { MemoryIndex, MemoryIndexArchive } from '../../generated/ts/memory-index.ts';

/** Workspace files, one namespace per memoryRef of a tenant (tenant-bound, like the memory itself), in the store. */
export class Workspace {
  /** A file's contents as the request's unit of work reads them. */
  read(tx: Tx, tenant: string, memoryRef: string, path: string): Promise<string | undefined> {
    return tx.read.workspaceFile({ tenant, memoryRef, path });
  }
  /** Plan a file's write into the request; its digest and size (what `workspace.updated` carries). */
  write(tx: Tx, tenant: string, memoryRef: string, path: string, contents: string): { sha256: string; byteSize: number } {
    tx.add('workspace.put', { tenant, memoryRef, path, contents });
    return { sha256: createHash('sha256').update(contents).digest('hex'), byteSize: Buffer.byteLength(contents, 'utf8') };
  }
}

export async function readIndex(tx: Tx, ws: Workspace, tenant: string, memoryRef: string): Promise<MemoryIndex | undefined> {
  const raw = await ws.read(tx, tenant, memoryRef, INDEX_PATH);
  return raw === undefined ? undefined : (JSON.parse(raw) as MemoryIndex);
}

/** Add (or replace, by archiveId) an archive and drop archives past their expiry. Returns the new index. */
export function withArchive(index: MemoryIndex | undefined, memoryRef: string, tokenizerName: string, archive: MemoryIndexArchive, nowIso: string): MemoryIndex {
  const now = Date.parse(nowIso);
  const kept = (index?.archives ?? []).filter((a) => a.archiveId !== archive.archiveId && !isExpired(a, now));
  return { schemaVersion: 1, memoryRef, updatedAt: nowIso, tokenizerName, archives: [...kept, archive] };
}

/** The normative MEMORY-INDEX.json shape (generated validator for memory-index.schema.json) plus unique archive ids. */
export function isValidIndex(index: unknown): index is MemoryIndex {
  if (!validateMemoryIndex(index)) return false;
  const ids = (index as MemoryIndex).archives.map((a) => a.archiveId);
  return new Set(ids).size === ids.length;
}
