/**
 * The runtime is schema-first: a shape that generated/ts/ already has is imported from there (narrowed with
 * `Readonly<…>` / `Pick<…>` where the runtime needs a narrower or read-only view), never declared again.
 *
 * Two checks over every exported interface and type alias declared under runtime/:
 * - its name is not one that generated/ts/index.ts exports (a second `MemoryEntry`, `RunEvent`, `ErrorCode`…);
 * - it is not an object shape of 3+ properties whose property names all belong to one generated object type
 *   (a copy of a generated shape, whole or in part, under another name).
 * A genuine exception goes in ALLOWED with the reason; an entry nothing needs any more fails too.
 */
import { describe, expect, it } from 'vitest';
import { declaredShapes, exportedShapes, tsFilesUnder, type DeclaredShape } from './sources.ts';

const ALLOWED: Readonly<Record<string, string>> = {
  AssistantConfig:
    'runtime/inquirium/config.ts: the resolved configuration — every safety setting present with its `default` filled in and typed by the runtime axes — where the wire document (InquiriumAssistantConfig) leaves them optional.',
};

const MIN_PROPERTIES = 3;

const generated = exportedShapes('generated/ts/index.ts');
const generatedNames = new Set(generated.map((g) => g.name));
const generatedObjects = generated.filter((g) => g.properties !== undefined && g.properties.length >= MIN_PROPERTIES);
const runtime = tsFilesUnder('runtime').flatMap(declaredShapes);

/** The generated object type whose property names include all of `r`'s, if any (smallest first). */
function copiedFrom(r: DeclaredShape): DeclaredShape | undefined {
  if (r.properties === undefined || r.properties.length < MIN_PROPERTIES) return undefined;
  const own = r.properties;
  return generatedObjects
    .filter((g) => own.every((p) => g.properties!.includes(p)))
    .sort((a, b) => a.properties!.length - b.properties!.length)[0];
}

const findings = runtime.flatMap((r) => {
  const out: { name: string; message: string }[] = [];
  if (generatedNames.has(r.name)) out.push({ name: r.name, message: `${r.file}: ${r.kind} ${r.name} re-declares the generated ${r.name}; import it from generated/ts/` });
  const source = copiedFrom(r);
  if (source !== undefined) {
    out.push({ name: r.name, message: `${r.file}: ${r.kind} ${r.name} {${r.properties!.join(', ')}} copies generated ${source.name}; use it (or Pick/Readonly of it)` });
  }
  return out;
});

describe('runtime shapes come from generated/ts', () => {
  it('reads both sides (the checks below are not vacuous)', () => {
    expect(generatedNames).toContain('MemoryEntry');
    expect(generatedNames).toContain('RunEvent');
    expect(generatedNames).toContain('ErrorCode');
    expect(runtime.length).toBeGreaterThan(50);
    expect(runtime.map((r) => r.name)).toContain('StoragePort');
  });

  it('no runtime interface or type alias re-declares a generated name or copies a generated object shape', () => {
    expect(findings.filter((f) => ALLOWED[f.name] === undefined).map((f) => f.message)).toEqual([]);
  });

  it('every allow-list entry is still needed', () => {
    const flagged = new Set(findings.map((f) => f.name));
    expect(Object.keys(ALLOWED).filter((name) => !flagged.has(name))).toEqual([]);
  });
});
