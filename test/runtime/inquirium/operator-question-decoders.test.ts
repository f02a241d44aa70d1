/**
 * The operator-question tables' decoders: a stored question record decodes back into exactly the record that was
 * written, and a document this runtime did not write — a field missing, of another type, an unknown state — is
 * refused with `store_corrupt` naming the table (`questions`, `question_history`), never handed on as a question.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OperatorQuestions, questionRecordOf, questionStateOf, type QuestionRecord } from '../../../runtime/inquirium/operator-questions.ts';
import { QuestionTransitions } from '../../../runtime/inquirium/question-transitions.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { StoreCorruptError, unitOfWork, unitsOf, type JsonDoc, type StoragePort } from '../../../runtime/storage/index.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import { answer, question } from './questions.ts';
import { questionsOn } from './question-requests.ts';

const policy = { displayCeiling: 'community' as const, secrets: [] };
const REF = question()['question/ref'];
const ALICE = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

/** The stored document of the local tenant's question `ref`. */
const storedDoc = (port: StoragePort, ref = REF): Promise<JsonDoc> =>
  unitOfWork(port, async (tx) => (await tx.read.questionGet({ tenant: 'local', ref }))!.doc);

/** A store holding one answered question (its record and its two history states), and the questions over it. */
async function answered() {
  const port = await openMemoryStore();
  const q = questionsOn(port, new ManualClock(), policy);
  await q.propose(question());
  await q.answer(answer('yes'), { participant: ALICE });
  return { port, q };
}

/** Each field of a stored record, and a value of the wrong type for it. */
const WRONG: Readonly<Record<keyof QuestionRecord, JsonDoc[string]>> = {
  tenant: 7, ref: null, request: 'not an object', state: 'archived', answer: [1], answerRaw: { yes: true }, answeredBy: 3,
  defaultApplied: 'no', supersededBy: false, reason: 0, updatedAt: 12, deadline: 'soon',
};
const REQUIRED: readonly (keyof QuestionRecord)[] = ['tenant', 'ref', 'request', 'state', 'updatedAt', 'deadline'];

describe('operator-question decoders', () => {
  it('decode every record the runtime stored back into what it wrote', async () => {
    const { port, q } = await answered();
    const doc = await storedDoc(port);
    const record = questionRecordOf(doc);
    expect(record).toEqual(doc);
    expect(record).toMatchObject({ tenant: 'local', ref: REF, state: 'answered', answer: ['yes'], answerRaw: 'yes', answeredBy: ALICE });
    const history = await q.history(REF);
    expect(history.map((s) => s.state)).toEqual(['pending', 'answered']);
    const stored = await unitOfWork(port, (tx) => tx.read.questionHistory({ tenant: 'local', ref: REF, limit: 10 }));
    expect(stored.map(questionStateOf)).toEqual(history);
  });

  it('refuse a record with any field missing (when required) or of the wrong type, as store_corrupt at questions (property)', async () => {
    const { port } = await answered();
    const doc = await storedDoc(port);
    const fields = Object.keys(WRONG) as (keyof QuestionRecord)[];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.boolean(), (field, drop) => {
        const { [field]: _gone, ...rest } = doc;
        const broken: JsonDoc = drop ? rest : { ...doc, [field]: WRONG[field] };
        if (drop && !REQUIRED.includes(field)) return void expect(questionRecordOf(broken)).toEqual(rest);
        let err: unknown;
        try {
          questionRecordOf(broken);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(StoreCorruptError);
        expect(err).toMatchObject({ code: 'store_corrupt', location: 'questions' });
      }),
      { numRuns: 100 },
    );
  });

  it('a malformed stored question fails every read of it with store_corrupt, and changes nothing', async () => {
    const port = await openMemoryStore();
    const q = questionsOn(port, new ManualClock(), policy);
    // A row this runtime did not write: an unknown state and no deadline.
    await unitOfWork(port, (tx) => void tx.add('question.open', { tenant: 'local', ref: REF, deadlineMs: 0, openedMs: 0, record: { tenant: 'local', ref: REF, state: 'archived', request: question(), updatedAt: 'x' }, stateDto: { state: 'archived' }, limit: 10 }));
    const before = await storedDoc(port);
    for (const read of [() => q.state(REF), () => q.answer(answer('yes')), () => q.cancel(REF), () => q.idempotencyKey(REF), () => q.transitions().apply({ schema: 'inquirium.operator-question.transition.request.v1', 'question/ref': REF, transition: 'cancel', 'idempotency/key': 'k' })]) {
      await expect(read()).rejects.toMatchObject({ code: 'store_corrupt', location: 'questions' });
    }
    await expect(q.history(REF)).rejects.toMatchObject({ code: 'store_corrupt', location: 'question_history' });
    expect(await storedDoc(port)).toEqual(before);
  });
});
