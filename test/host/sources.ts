/** Reading the project's own source for the structure tests: TypeScript files under a folder, and what each imports. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts file under `dir`, recursively. */
export const tsFiles = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
});

/** Every static import or re-export of a module text, and whether it is type-only. */
export const importsOf = (text: string): { typeOnly: boolean; from: string }[] =>
  [...text.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gms)].map((m) => ({ typeOnly: m[1] !== undefined, from: m[2]! }));
