/**
 * `wopkit/validators` — the generated validators, one per schema and `$defs` entry (each also a Standard Schema v1),
 * plus `validatorIndex` (every validator by type title); no dependencies. One validator alone:
 * `wopkit/validators/<Title>` (`@wopkit/validators/validate/<Title>`).
 */
export * from '../generated/validators/validators.js';
