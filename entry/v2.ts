/**
 * `wopkit/v2` — the TypeScript types generated from the OpenWOP v2 schemas (types only: importing this module loads no
 * code). Their titles end with `V2`, so they sit beside the v1 types of `wopkit` without clashing.
 *
 * ```ts
 * import type { RunEventV2, DiscoveryDocumentV2 } from 'wopkit/v2';
 * ```
 */
export type * from '../generated/ts/v2/index.ts';
