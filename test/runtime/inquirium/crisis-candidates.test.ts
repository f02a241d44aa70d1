import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crisisCandidates, raiseCrisisCandidate } from '../../../runtime/inquirium/crisis-candidates.ts';
import { DtoValidationError } from '../../../runtime/inquirium/dto.ts';
import { classificationAxis } from '../../../runtime/inquirium/lattice.ts';
import { ManualClock, type IdSource } from '../../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import { commitDetached, detachedTx } from '../../../runtime/storage/unit-of-work.ts';

const P = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const counter = (): IdSource => { let n = 0; return { next: (p) => `${p}-${++n}` }; };

describe('crisis candidates', () => {
  it('are raised for host review only: metadata, a label at least the turn\'s, stored for the crisis layer, no notification and no mode', async () => {
    const port = await openMemoryStore();
    const plan = detachedTx(port);
    const c = raiseCrisisCandidate(plan, { turnId: 'turn:01J', participant: P, turnClassification: 'community', reason: 'self-harm-signal' }, { clock: new ManualClock(0), ids: counter() });
    expect(c).toEqual({ schema: 'inquirium.crisis-candidate.v1', 'candidate/id': 'crisis-candidate:crisis-candidate-1', 'turn/id': 'turn:01J', 'participant/ref': P, classification: 'community', 'reason/code': 'self-harm-signal', review: 'needs-host-review', 'raised/at': '1970-01-01T00:00:00.000Z' });
    expect(plan.size).toBe(1);
    await commitDetached(plan, port);
    expect(await crisisCandidates(detachedTx(port), { limit: 10 })).toEqual([c]);
    expect(await crisisCandidates(detachedTx(port), { tenant: 'other', limit: 10 })).toEqual([]);
  });

  it('refuse a reason that is free text (it could carry what the turn said), planning nothing', async () => {
    const plan = detachedTx(await openMemoryStore());
    expect(() => raiseCrisisCandidate(plan, { turnId: 'turn:01J', participant: P, reason: 'they said they want to end it' }, { clock: new ManualClock(0), ids: counter() })).toThrow(DtoValidationError);
    expect(plan.size).toBe(0);
  });

  it('are never less restrictive than the turn, and an unknown label is personal (property)', async () => {
    const port = await openMemoryStore();
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('public', 'community', 'personal'), fc.string(), fc.constant(undefined)), (label) => {
        const c = raiseCrisisCandidate(detachedTx(port), { turnId: 'turn:x', participant: P, turnClassification: label, reason: 'distress-signal' }, { clock: new ManualClock(0), ids: counter() });
        expect(classificationAxis.atLeastAsRestrictive(c.classification, label)).toBe(true);
        expect(c.review).toBe('needs-host-review');
      }),
    );
  });
});
