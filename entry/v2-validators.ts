/**
 * `wopkit/v2/validators` — the generated OpenWOP v2 validators (each also a Standard Schema v1), plus `validatorIndex`
 * (every v2 validator by type title); from `@wopkit/validators-v2`, no dependencies. One validator alone:
 * `wopkit/v2/validators/<Title>` (`@wopkit/validators-v2/validate/<Title>`).
 */
export * from '../generated/validators/v2/validators.js';
