/**
 * The runtime's layering, derived from the import statements of its source files (relative imports, type-only
 * ones included):
 * - runtime/shared/ imports nothing from other runtime folders;
 * - runtime/storage/ imports only runtime/shared/ (and generated/): the store is the floor, it knows no concern;
 * - runtime/memory/ imports only runtime/shared/ and runtime/storage/ (and generated/);
 * - runtime/inquirium/ imports only runtime/shared/ and runtime/storage/ — no OpenWOP-side concern (distillation,
 *   memory, events, …);
 * - nothing outside runtime/host/ imports the host; runtime/ imports nothing outside runtime/ and generated/;
 * - the folder graph has no cycle.
 */
import { describe, expect, it } from 'vitest';
import { importsOf, tsFilesUnder } from './sources.ts';
import { LAYER_RULES } from './layer-rules.ts';

/** Folders whose imports are restricted: the runtime folders each may import besides itself and generated/ (from the one rule table). */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  ['shared', 'storage', 'memory', 'inquirium'].map((f) => [f, (LAYER_RULES[`runtime/${f}`] ?? []).filter((t) => t.startsWith('runtime/')).map((t) => t.slice('runtime/'.length))]),
);

interface Edge {
  readonly file: string;
  readonly target: string;
  readonly from: string;
  /** `runtime/<folder>` → folder; `generated/…` → 'generated'; anything else → its path. */
  readonly to: string;
}

const folderOf = (path: string): string => (path.startsWith('runtime/') ? path.split('/')[1]! : path.startsWith('generated/') ? 'generated' : path);
const edges: Edge[] = tsFilesUnder('runtime').flatMap((file) =>
  importsOf(file).map((target) => ({ file, target, from: folderOf(file), to: folderOf(target) })),
);
const crossing = edges.filter((e) => e.to !== e.from && e.to !== 'generated');
const show = (e: Edge): string => `${e.file} imports ${e.target}`;

describe('runtime layering', () => {
  it('reads the import graph (the rules below are not vacuous)', () => {
    expect(edges.some((e) => e.from === 'inquirium' && e.to === 'shared')).toBe(true);
    expect(edges.some((e) => e.from === 'openwop' && e.to === 'memory')).toBe(true);
    expect(edges.some((e) => e.from === 'host' && e.to === 'openwop')).toBe(true);
    expect(edges.some((e) => e.from === 'memory' && e.to === 'storage')).toBe(true);
    expect(edges.some((e) => e.from === 'storage' && e.to === 'shared')).toBe(true);
  });

  it('the rules name the store as every concern\'s floor (memory and inquirium stand on it; it stands on shared only)', () => {
    expect(MAY_IMPORT).toEqual({ shared: [], storage: ['shared'], memory: ['shared', 'storage'], inquirium: ['shared', 'storage'] });
  });

  it.each(Object.entries(MAY_IMPORT))('runtime/%s/ imports only what it may', (folder, allowed) => {
    expect(crossing.filter((e) => e.from === folder && !allowed.includes(e.to)).map(show)).toEqual([]);
  });

  it('nothing outside runtime/host/ imports the host', () => {
    expect(crossing.filter((e) => e.to === 'host').map(show)).toEqual([]);
  });

  it('runtime/ imports nothing outside runtime/ and generated/', () => {
    expect(edges.filter((e) => !e.target.startsWith('runtime/') && !e.target.startsWith('generated/')).map(show)).toEqual([]);
  });

  it('the folder graph has no cycle', () => {
    const next = new Map<string, Set<string>>();
    for (const e of crossing) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') return void cycles.push([...path.slice(path.indexOf(f)), f].join(' → '));
      state.set(f, 'open');
      for (const t of next.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of [...next.keys()].sort()) visit(f, []);
    expect(cycles).toEqual([]);
  });
});
