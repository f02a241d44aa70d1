/**
 * `wopkit` — the TypeScript types generated from the schemas (types only: importing this module loads no code).
 *
 * ```ts
 * import type { MemoryEntry, RunEvent, Capabilities } from 'wopkit';
 * ```
 */
export type * from '../generated/ts/index.ts';
