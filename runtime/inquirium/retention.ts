/**
 * Transcript retention (P066 Decision 9): Inquirium declares the policy as ClassKeyed<RetentionProfile>; the
 * store applies it. Each fact's age is measured from its recordedAt; the limit is the profile resolved for the
 * fact's classification (missing class → the shortest retention among default and every configured profile).
 * Expired facts are excised.
 */
import { durationMs } from '../shared/duration.ts';
import { resolveClassKeyed, type ClassKeyed } from './keyed.ts';
import { retentionAxis, type RetentionProfile } from './safety-axes.ts';
import type { InquiryTranscriptStore, TranscriptFact } from './storage/transcript.ts';

/** Excise every fact older than its class's max_age; returns how many were excised. */
export function applyTranscriptRetention(store: InquiryTranscriptStore, policy: ClassKeyed<RetentionProfile>, nowMs: number): Promise<number> {
  const expired = (f: TranscriptFact): boolean => {
    const maxAge = durationMs(resolveClassKeyed(policy, f.classification, retentionAxis).value.max_age);
    const recorded = Date.parse(f.recordedAt);
    return maxAge !== null && !Number.isNaN(recorded) && nowMs - recorded >= maxAge;
  };
  return store.applyRetention(expired, new Date(nowMs).toISOString());
}
