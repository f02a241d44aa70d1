/** `wopkit/v2/guards` — `is*` / `assert*` guards over the OpenWOP v2 validators; failures name the JSON pointer. */
export * from '../generated/guards/v2/index.ts';
