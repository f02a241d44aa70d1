/**
 * `wopkit/validators` — the standalone Ajv validators, one per schema and `$defs` entry, plus `validatorIndex`
 * (every validator by type title). Loads Ajv's two runtime helpers and ajv-formats' format table, nothing else.
 */
export * from '../generated/validators/validators.js';
