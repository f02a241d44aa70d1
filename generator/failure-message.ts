/**
 * The text of one validation failure for people: Ajv's message, completed with what the error's params say (the
 * property that is not allowed, the values an `enum` allows, the value a `const` requires). The generated guards'
 * `toFailures` writes the same text (generator/emit/guards.ts); test/generator/failure-message.test.ts holds the two
 * equal.
 */
export interface ValidationErrorLike {
  readonly keyword: string;
  readonly message?: string | undefined;
  readonly params: Readonly<Record<string, unknown>>;
}

export function failureMessage(e: ValidationErrorLike): string {
  const p = e.params;
  const message = e.message ?? e.keyword;
  if (e.keyword === 'additionalProperties' && p['additionalProperty'] !== undefined) return `${message}: ${JSON.stringify(p['additionalProperty'])}`;
  if (e.keyword === 'unevaluatedProperties' && p['unevaluatedProperty'] !== undefined) return `${message}: ${JSON.stringify(p['unevaluatedProperty'])}`;
  if (e.keyword === 'enum' && Array.isArray(p['allowedValues'])) return `${message}: ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (e.keyword === 'const' && 'allowedValue' in p) return `${message}: ${JSON.stringify(p['allowedValue'])}`;
  return message;
}
