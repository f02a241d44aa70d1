/** `wopkit/guards` — `is*` / `assert*` guards over the validators; failures name the JSON pointer. */
export * from '../generated/guards/index.ts';
