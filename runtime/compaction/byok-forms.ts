/**
 * Derived content (a summary) can carry secret *forms* that are not registered values: an unresolved vault
 * reference copied from an in-context example, such as `[BYOK:openai-key]`. RFC 0012's carry-forward scenario
 * treats those as leaks. They are neutralised to a fixed marker before the registered-value redaction runs.
 */
const BYOK_FORM = /\[BYOK:[^\]\n]{0,256}\]/g;
export const BYOK_FORM_MARKER = '[REDACTED:byok-reference]';
export const neutraliseByokForms = (content: string): string => content.replace(BYOK_FORM, BYOK_FORM_MARKER);
