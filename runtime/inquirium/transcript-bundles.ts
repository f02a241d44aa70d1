/**
 * Transcript facts and bundles on the wire (Solution 045 § Transcript And Session Projection): the transcript
 * store's facts as `inquirium.assistant.transcript.fact.v1`, and a participant's facts gathered as
 * `inquirium.assistant.transcript.bundle.v1` for an explicit export or import (P066 Decision 9: never a background
 * merge). An import takes only facts of the authenticated participant (and of the bundle's session when it names
 * one), skips facts already held (by id: replay never duplicates), and plans its appends into the caller's `Plan`.
 */
import type { InquiriumAssistantTranscriptBundle } from '../../generated/ts/inquirium.assistant.transcript.bundle.v1.ts';
import type { InquiriumAssistantTranscriptFact } from '../../generated/ts/inquirium.assistant.transcript.fact.v1.ts';
import { toIso } from '../shared/clock.ts';
import { validationFailures, WopkitError } from '../shared/errors.ts';
import { assertDto } from './dto.ts';
import type { Tx } from '../storage/index.ts';
import type { InquiryTranscriptStore, TranscriptFact } from './storage/transcript.ts';

export type TranscriptFactDto = InquiriumAssistantTranscriptFact;
export type TranscriptBundle = InquiriumAssistantTranscriptBundle;

/** Most facts one bundle holds (the schema's bound). */
export const MAX_BUNDLE_FACTS = 10_000;

/** A bundle holding a fact of another participant or session: 400, naming the fact's position, nothing imported. */
export class BundleError extends WopkitError<'bundle-foreign-fact'> {
  constructor(index: number, field: 'participant/ref' | 'session/ref') {
    super('bundle-foreign-fact', `fact ${index} belongs to another ${field === 'participant/ref' ? 'participant' : 'session'}`, {
      error: 'validation_failed',
      message: 'the bundle holds a fact that is not the importer\'s',
      details: { failures: validationFailures([{ instancePath: `/facts/${index}/${field.replace('/', '~1')}`, message: 'must be the bundle\'s' }]) },
    });
  }
}

/** A stored fact as its wire DTO. */
export function factToDto(f: TranscriptFact): TranscriptFactDto {
  return assertDto('inquirium.assistant.transcript.fact.v1', {
    schema: 'inquirium.assistant.transcript.fact.v1',
    'fact/kind': f.kind,
    'fact/id': f.id,
    'participant/ref': f.participant,
    'session/ref': f.session,
    classification: f.classification,
    'recorded/at': f.recordedAt,
    body: f.body,
  });
}

/** A wire fact as the store keeps it (excision markers are not imported as facts: their content is gone). */
function dtoToFact(d: TranscriptFactDto): TranscriptFact | undefined {
  if (d['fact/kind'] === 'excision' || d.body === undefined || d.classification === undefined) return undefined;
  return { kind: d['fact/kind'], id: d['fact/id'], participant: d['participant/ref'], session: d['session/ref'], classification: d.classification, recordedAt: d['recorded/at'], body: { ...d.body } };
}

/** Export one participant's live facts (of one session, when given) as a bundle. */
export async function exportBundle(store: InquiryTranscriptStore, a: { readonly participant: string; readonly session?: string; readonly nowMs: number }): Promise<TranscriptBundle> {
  const facts = await store.query({ participant: a.participant, ...(a.session !== undefined ? { session: a.session } : {}) }, MAX_BUNDLE_FACTS);
  return assertDto('inquirium.assistant.transcript.bundle.v1', {
    schema: 'inquirium.assistant.transcript.bundle.v1',
    'participant/ref': a.participant,
    ...(a.session !== undefined ? { 'session/ref': a.session } : {}),
    'exported/at': toIso(a.nowMs),
    facts: facts.map(factToDto),
  });
}

/**
 * Import a bundle into the authenticated participant's transcript: every fact must be theirs (and the bundle's
 * session's, when it names one), or nothing is planned. Facts already held, or excised, are skipped. The counts.
 */
export async function importBundle(tx: Tx, store: InquiryTranscriptStore, bundle: unknown, participant: string): Promise<{ readonly imported: number; readonly skipped: number }> {
  const b = assertDto('inquirium.assistant.transcript.bundle.v1', bundle);
  b.facts.forEach((f, i) => {
    if (f['participant/ref'] !== participant || b['participant/ref'] !== participant) throw new BundleError(i, 'participant/ref');
    if (b['session/ref'] !== undefined && f['session/ref'] !== b['session/ref']) throw new BundleError(i, 'session/ref');
  });
  const held = new Set((await store.query({ participant }, MAX_BUNDLE_FACTS * 4)).map((f) => f.id));
  let imported = 0;
  let skipped = 0;
  for (const d of b.facts) {
    const fact = dtoToFact(d);
    if (fact === undefined || held.has(fact.id)) {
      skipped++;
      continue;
    }
    held.add(fact.id);
    try {
      await store.append(fact, tx);
      imported++;
    } catch (err) {
      // The id is taken by an excised fact: an import never brings excised content back.
      if (!(err instanceof RangeError)) throw err;
      skipped++;
    }
  }
  return { imported, skipped };
}
