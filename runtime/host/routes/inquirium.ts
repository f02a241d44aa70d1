/**
 * The Inquirium host capability (P066): generate on local runtimes and the operator-question respond endpoint,
 * plus test seams to propose a question and read traces. The caller is bound to the local operator participant,
 * in the operator tenant: questions are that tenant's, and an answer is checked against (and records) the caller.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.ts';
import { actingTenant, bodyOf, headersOf, queryOf, serve } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime, QuestionCaller } from '../host-runtime.ts';

export const LOCAL_OPERATOR = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
/** The tenant an operator key's questions belong to (operator keys act across tenants and name none here). */
export const OPERATOR_TENANT = 'operator';
/** The session of a generate request that names none. */
const DEFAULT_SESSION = 'session:default';

/** Who is calling: the local operator participant, in the tenant its key acts as (a tenant key's own tenant). */
const callerOf = (req: FastifyRequest): QuestionCaller => ({ tenant: actingTenant(req, OPERATOR_TENANT), participant: LOCAL_OPERATOR });

export function registerInquirium(app: FastifyInstance, host: HostRuntime): void {
  // Every route here runs in the request's unit: a generate turn's transcript facts and trace commit with it.
  // The session header is checked by the row's parameter schema (route-validation.ts); absent, the default session.
  serve(app, ROUTES.inquiriumGenerate, async (req, _reply, tx) => host.generate(tx, req.body, { participant: LOCAL_OPERATOR, session: headersOf(req, ROUTES.inquiriumGenerate)['x-inquirium-session'] ?? DEFAULT_SESSION }));

  // A refused answer still keeps a timeout it found due (commitOnThrow: the answer is the last thing it plans).
  serve(app, ROUTES.inquiriumRespond, async (req, _reply, tx) => host.answerQuestion(tx, req.body, callerOf(req)), { commitOnThrow: true });

  // Seam: the same generate request against a host whose only runtime is remote (no remote fallback allowed).
  serve(app, ROUTES.generateRemoteOnly, async (req, _reply, tx) => host.generateRemoteOnly(tx, req.body, { participant: LOCAL_OPERATOR, session: headersOf(req, ROUTES.generateRemoteOnly)['x-inquirium-session'] ?? DEFAULT_SESSION }));

  // Seam: a model-proposed question, validated and opened by the host.
  serve(app, ROUTES.questionPropose, async (req, _reply, tx) => host.proposeQuestion(tx, req.body, callerOf(req).tenant));
  serve(app, ROUTES.questionRead, async (req, _reply, tx) => {
    const { ref } = queryOf(req, ROUTES.questionRead);
    if (ref === undefined) throw new HttpError('validation_failed', 'ref is required', { failures: [{ instancePath: '/ref', message: 'required' }] });
    try {
      return await host.questionState(tx, ref, callerOf(req).tenant);
    } catch {
      throw new HttpError('not_found', 'no such question');
    }
  });
  serve(app, ROUTES.questionCancel, async (req, _reply, tx) => {
    const body = bodyOf(req, ROUTES.questionCancel);
    return host.cancelQuestion(tx, body['question/ref'], callerOf(req).tenant);
  }, { commitOnThrow: true });

  // Seam: trace records of a turn (operational trace, no content).
  serve(app, ROUTES.traces, async (req, _reply, tx) => ({ records: await host.traces(tx, queryOf(req, ROUTES.traces).traceRef) }));
}
