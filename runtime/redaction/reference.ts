/**
 * The simple reference for the chokepoint's semantics, kept beside the fast path so tests and the benchmark can hold
 * one against the other: at each position, try every secret that starts with that character, longest first;
 * replace the first that matches by its marker and jump past it, else keep the character. Leftmost-longest,
 * non-overlapping, by code units; obviously right, and slow (not for the write path).
 */
import { redactionMarker } from './marker.ts';
import type { RegisteredSecret } from './secret-registry.ts';

export function referenceRedact(content: string, secrets: readonly RegisteredSecret[]): string {
  const byFirst = new Map<string, RegisteredSecret[]>();
  for (const s of secrets) {
    if (s.value.length === 0) continue;
    const list = byFirst.get(s.value[0]!) ?? [];
    list.push(s);
    byFirst.set(s.value[0]!, list);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.value.length - a.value.length);
  let out = '';
  for (let i = 0; i < content.length; ) {
    const hit = byFirst.get(content[i]!)?.find((s) => content.startsWith(s.value, i));
    if (hit === undefined) {
      out += content[i];
      i++;
      continue;
    }
    out += redactionMarker(hit.secretId);
    i += hit.value.length;
  }
  return out;
}
