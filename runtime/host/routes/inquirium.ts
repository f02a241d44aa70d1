/**
 * The Inquirium host capability (P066): generate on local runtimes and the operator-question respond endpoint,
 * plus test seams to propose a question and read traces. The caller is bound to the local operator participant.
 */
import type { FastifyInstance } from 'fastify';
import { validateHostSampleQuestionCancelRequest } from '../../../generated/validators/validators.js';
import type { HostSampleQuestionCancelRequest } from '../../../generated/ts/index.ts';
import { HttpError } from '../errors.ts';
import { bodyOf } from '../context.ts';
import type { HostRuntime } from '../host-runtime.ts';

export const LOCAL_OPERATOR = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

export function registerInquirium(app: FastifyInstance, host: HostRuntime): void {
  const session = (req: { headers: Record<string, unknown> }) => {
    const s = req.headers['x-inquirium-session'];
    return typeof s === 'string' && /^session:[A-Za-z0-9:._-]{1,120}$/.test(s) ? s : 'session:default';
  };

  app.post('/v1/host/capabilities/inquirium.generate', async (req) => host.generate(req.body, { participant: LOCAL_OPERATOR, session: session(req) }));

  app.post('/v1/host/capabilities/inquirium.operator-question.respond', async (req) => host.answerQuestion(req.body));

  // Seam: the same generate request against a host whose only runtime is remote (no remote fallback allowed).
  app.post('/v1/host/sample/inquirium/generate-remote-only', async (req) => host.generateRemoteOnly(req.body, { participant: LOCAL_OPERATOR, session: session(req) }));

  // Seam: a model-proposed question, validated and opened by the host.
  app.post('/v1/host/sample/inquirium/questions', async (req, reply) => reply.code(201).send(host.proposeQuestion(req.body)));
  app.get('/v1/host/sample/inquirium/questions', async (req) => {
    const ref = (req.query as { ref?: string }).ref;
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > 512) throw new HttpError('validation_failed', 'ref is required', { failures: [{ instancePath: '/ref', message: 'required' }] });
    try {
      return host.questionState(ref);
    } catch {
      throw new HttpError('not_found', 'no such question');
    }
  });
  app.post('/v1/host/sample/inquirium/questions/cancel', async (req) => {
    const body = bodyOf<HostSampleQuestionCancelRequest>(req, validateHostSampleQuestionCancelRequest);
    return host.cancelQuestion(body['question/ref']);
  });

  // Seam: trace records of a turn (operational trace, no content).
  app.get('/v1/host/sample/inquirium/traces', async (req) => {
    const ref = (req.query as { traceRef?: string }).traceRef;
    return { records: host.traces(ref) };
  });
}
