import { describe, expect, it } from 'vitest';
import { applyTranscriptRetention } from '../../../runtime/inquirium/retention.ts';
import { StoreTranscript, type TranscriptFact } from '../../../runtime/inquirium/storage/transcript.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';

const fact = (id: string, classification: TranscriptFact['classification'], recordedAt: string): TranscriptFact =>
  ({ kind: 'turn', id, participant: 'p1', session: 's1', classification, recordedAt, body: {} });

describe('transcript retention', () => {
  it('Inquirium declares ClassKeyed retention and the store excises what is past it, per classification', async () => {
    const store = new StoreTranscript(unitsOf(await openMemoryStore()), () => 0);
    await store.append(fact('turn:public', 'public', '2026-01-01T00:00:00Z'));
    await store.append(fact('turn:personal', 'personal', '2026-01-01T00:00:00Z'));
    await store.append(fact('turn:community', 'community', '2026-01-01T00:00:00Z'));
    // community is not configured: it falls back to the most restrictive configured profile (personal's 7 days)
    const policy = { default: { max_age: 'P365D' }, by_class: { public: { max_age: 'P90D' }, personal: { max_age: 'P7D', on_expiry: 'excise' as const } } };
    expect(await applyTranscriptRetention(store, policy, Date.parse('2026-01-07T23:59:59Z'))).toBe(0);
    expect(await applyTranscriptRetention(store, policy, Date.parse('2026-01-08T00:00:00Z'))).toBe(2);
    expect((await store.query({ participant: 'p1' })).map((f) => f.id)).toEqual(['turn:public']);
    expect(await applyTranscriptRetention(store, policy, Date.parse('2026-04-01T00:00:00Z'))).toBe(1);
    expect(await store.query({ participant: 'p1' })).toEqual([]);
  });
});
