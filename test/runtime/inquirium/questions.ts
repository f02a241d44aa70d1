/** The seed's operator-question example, shared by the question and escalation tests. */
export const question = (over: Record<string, unknown> = {}) => ({
  schema: 'inquirium.operator-question.request.v1',
  'question/ref': 'question/inquirium/op-7f3a/remote-runtime-approval',
  'operation/ref': 'operation/inquirium/op-7f3a',
  'recipient/class': 'operator',
  'reason/code': 'operator-approval-required',
  prompt: { kind: 'single-choice', text: 'Use remote runtime for this public-only context?' },
  'widget/kind': 'single-choice',
  'widget/payload': { options: [{ value: 'yes', title: 'Yes' }, { value: 'no', title: 'No' }] },
  'default/on-timeout': { answer: 'no', 'reason/code': 'timeout-fail-closed' },
  timeout: 'PT5M',
  classification: { input: 'public', output: 'public' },
  response: { 'target/ref': 'inquirium.operator-question.respond', method: 'POST', 'idempotency/key': 'inquirium:op-7f3a:remote-runtime-approval' },
  provenance: { 'source/component': 'inquirium-core', 'requested/by': 'runtime-selection', 'reason/code': 'remote-runtime-requires-operator-approval', origin: 'model-proposed' },
  ...over,
});
export const answer = (a: string | string[], key = 'inquirium:op-7f3a:remote-runtime-approval') => ({ schema: 'inquirium.operator-question.answer.v1', 'question/ref': 'question/inquirium/op-7f3a/remote-runtime-approval', 'idempotency/key': key, answer: a });
