/**
 * The assistant turn (Solution 045 § Assistant Turn Boundary; P066 § Assistant Turn Host Capability): one operator
 * message of one inquiry session, run through the generate pipeline after assistant policy validation.
 *
 * - The principal comes from the authenticated host context (`TurnPrincipal`), never from the body: the request's
 *   `participant/ref` is kept as requested metadata only and selects nothing.
 * - A valid caller `turn/id` is kept; a missing one is assigned here (from the injected id source).
 * - Completed output is capped (16 KiB by default) before the transcript is written; the cut shows in
 *   `output/truncated` and as an epistemic caveat.
 * - With an `idempotency/key`, the response is recorded (planned into the caller's `Plan`) under the principal and
 *   session; the same key again returns that response marked `idempotency/replayed` and appends no transcript fact.
 *   Two turns with one key at once: the turn id comes from the key, the store records one turn's facts, and the
 *   other's commit finds its reads stale; its unit of work runs it again, and it answers with the first one's
 *   recorded response (a replay), never a second set of facts.
 * - Granted context is assembled through `assembleContext` (the grants as the store holds them now) and handed to
 *   the pipeline as its elements.
 */
import type { InquiriumAssistantTurnRequest } from '../../generated/ts/inquirium.assistant.turn.request.v1.ts';
import type { InquiriumAssistantTurnResponse } from '../../generated/ts/inquirium.assistant.turn.response.v1.ts';
import { createHash } from 'node:crypto';
import type { Clock, IdSource } from '../shared/clock.ts';
import { assertDto } from './dto.ts';
import { assembleContext, type ContextElement, type ContextResolver } from './context-assembly.ts';
import { OUTPUT_TRUNCATED_CAVEAT, type GeneratePipeline } from './generate.ts';
import type { Grants } from './grants.ts';
import type { Classification } from './lattice.ts';
import { StoreCorruptError, type JsonDoc, type Tx } from '../storage/index.ts';
import { isInquiriumAssistantTurnResponse } from '../../generated/guards/index.ts';

export type TurnRequest = InquiriumAssistantTurnRequest;
export type TurnResponse = InquiriumAssistantTurnResponse;

/** The host's completed-output cap for assistant turns: 16 KiB (P066 Decision 8.5, baseline profile). */
export const ASSISTANT_OUTPUT_CAP_BYTES = 16 * 1024;
/** The store's document log of recorded turn responses, for idempotent replay. */
export const TURN_REPLAY_LOG = 'inquirium-assistant-turns';

/** Who the authenticated caller is: the only source of the principal and participant scope. */
export interface TurnPrincipal {
  readonly participant: string;
}

export interface AssistantTurnOptions {
  /** Runs the turn in the request's unit (the facade's `generateIn`). */
  readonly pipeline: { readonly generateIn: GeneratePipeline['generate'] };
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly outputCapBytes?: number;
  /** Grants and the host gate that resolves granted sources (granted-context turns). */
  readonly grants?: Grants;
  readonly resolver?: ContextResolver;
}

export class AssistantTurns {
  constructor(private readonly o: AssistantTurnOptions) {}

  #replayKey(participant: string, session: string): string {
    return `${participant}\u001f${session}`;
  }

  /** Run one turn for the authenticated `principal`; writes beyond the pipeline's own go into `plan`. */
  async turn(tx: Tx, request: unknown, principal: TurnPrincipal, label: { readonly turnClassification?: Classification } = {}): Promise<TurnResponse> {
    const req = assertDto('inquirium.assistant.turn.request.v1', request);
    const participant = principal.participant;
    const session = req['session/ref'];
    const key = req['idempotency/key'];
    if (key !== undefined) {
      const seen = await tx.read.docByItem({ log: TURN_REPLAY_LOG, key: this.#replayKey(participant, session), item: key });
      if (seen !== undefined) {
        // The replay log's decoder: what it holds is the response this turn answered first.
        if (!isInquiriumAssistantTurnResponse(seen.doc)) throw new StoreCorruptError(TURN_REPLAY_LOG, 'a stored turn response is not one this runtime wrote');
        return { ...seen.doc, 'idempotency/replayed': true };
      }
    }
    // Without a caller turn id, a keyed turn's id is derived from (principal, session, key): two concurrent turns with
    // one key then write the same transcript fact ids, and the store takes only one of them.
    const turnId = req['turn/id'] ?? (key !== undefined ? `turn:idem-${createHash('sha256').update(`${participant}\u001f${session}\u001f${key}`).digest('hex').slice(0, 32)}` : `turn:${this.o.ids.next('turn')}`);
    const sources = req.context_assembly?.sources ?? [];
    let elements: readonly ContextElement[] = [];
    if (sources.length > 0 && req.policy?.scope === 'granted-context' && this.o.grants !== undefined && this.o.resolver !== undefined) {
      const assembled = await assembleContext(tx, this.o.grants, req.context_assembly, { participant, session, nowMs: this.o.clock.now(), onDenied: req.policy.on_context_denied ?? 'fail_closed' }, this.o.resolver);
      elements = assembled.elements;
    }
    // Two turns with one key at once write the same fact ids (the turn id comes from the key): the one that commits
    // second finds its look for them stale, and its unit of work runs the turn again, which then replays the first.
    const generated = await this.o.pipeline.generateIn(
      tx,
      {
        schema: 'inquirium.generate.request.v1',
        operation: 'generate',
        turns: [req.turn],
        ...(req.context_assembly !== undefined ? { context_assembly: req.context_assembly } : {}),
        ...(req.parameters !== undefined ? { parameters: req.parameters } : {}),
        ...(req.policy !== undefined ? { policy: req.policy } : {}),
        ...(req.metadata !== undefined ? { metadata: req.metadata } : {}),
      },
      {
        participant,
        session,
        elements,
        maxOutputBytes: this.o.outputCapBytes ?? ASSISTANT_OUTPUT_CAP_BYTES,
        turnId,
        ...(label.turnClassification !== undefined ? { turnClassification: label.turnClassification } : {}),
      },
    );
    const response = assertDto('inquirium.assistant.turn.response.v1', {
      schema: 'inquirium.assistant.turn.response.v1',
      'turn/id': turnId,
      'session/ref': session,
      outcome: generated.outcome,
      ...(generated['reason/code'] !== undefined ? { 'reason/code': generated['reason/code'] } : {}),
      ...(generated.output !== undefined ? { output: generated.output } : {}),
      ...(generated.epistemic !== undefined ? { epistemic: generated.epistemic } : {}),
      'trace/ref': generated['trace/ref'],
      'idempotency/replayed': false,
      'output/truncated': generated.epistemic?.caveats?.includes(OUTPUT_TRUNCATED_CAVEAT) === true,
    });
    if (key !== undefined) tx.add('doc.append', { log: TURN_REPLAY_LOG, key: this.#replayKey(participant, session), item: key, readAbsent: true, atMs: this.o.clock.now(), doc: response });
    return response;
  }
}
