/**
 * The one redaction chokepoint every stored string goes through (SR-1): a direct put (content and tags), a
 * compaction output, a distillation archive, a consolidation merge, a child run's write. Each registered value of
 * 8+ characters is replaced by `[REDACTED:<secretId>]` by literal substring matching (a value is never a pattern): of overlapping
 * candidates the leftmost wins and, at one position, the longest — so a long secret that contains a shorter one
 * is redacted whole.
 *
 * One set per tenant: a write into a tenant's memory is redacted against the union of the tenant's live run
 * registries (TenantSecrets, read from the store and checked current by each write's transaction), compiled into
 * one matcher that is rebuilt only when that union changes. A write costs one linear scan of its content whatever
 * the number of runs, live or finished.
 *
 * Marker collision (issue 12, item 3): the marker is kept collision-proof by refusing, at registration, any value
 * that could overlap a marker of the tenant (marker.ts lists the four rules; in short: a value may not contain
 * `[REDACTED:`, end with the start of a marker, start with the end of one, or lie inside one of the tenant's
 * markers). So no registered value overlaps a marker, old or new; one leftmost-longest pass therefore leaves no
 * registered value in its output, and a second pass finds nothing: redaction is a single pass, idempotent
 * (`redact(redact(x)) === redact(x)`) and cannot fail for a registered set, whatever the content (markers typed
 * by a writer included). So no second scan runs: an occurrence lying wholly in text the pass left unchanged would
 * have been matched by the pass itself (the sweep takes a match at every free position that starts one), so a
 * survivor would have to overlap a marker, which the registration rules exclude. The property tests hold the
 * output against the simple reference (reference.ts) and check that no registered value survives.
 *
 * The matcher (leftmost-longest.ts) picks its engine per set when it is compiled: one RegExp alternation for sets
 * whose values start alike or are few, a flat Aho–Corasick automaton otherwise; both give the same matches.
 */
import { LeftmostLongestMatcher } from './leftmost-longest.ts';
import { redactionMarker } from './marker.ts';
import type { SecretSet } from './secret-registry.ts';
import { WopkitError } from '../shared/errors.ts';

export { redactionMarker } from './marker.ts';

/**
 * Redaction could not certify its result: nothing may be persisted (`compaction_redaction_failed`). The error of the
 * SR-1 contract (the error table maps it); the single-pass chokepoint cannot produce it for a registered set.
 */
export class RedactionFailedError extends WopkitError<'compaction_redaction_failed'> {
  constructor() {
    super('compaction_redaction_failed', 'redaction did not converge; content not persisted', {
      error: 'compaction_redaction_failed',
      message: 'derived content could not be certified clean; nothing was written',
    });
  }
}

interface Compiled {
  readonly version: number;
  readonly matcher: LeftmostLongestMatcher;
  readonly markers: readonly string[];
}

const cache = new WeakMap<SecretSet, Compiled>();

function compile(set: SecretSet): Compiled {
  const hit = cache.get(set);
  if (hit !== undefined && hit.version === set.version) return hit;
  const secrets = set.secrets();
  const compiled: Compiled = {
    version: set.version,
    matcher: new LeftmostLongestMatcher(secrets.map((s) => s.value)),
    markers: secrets.map((s) => redactionMarker(s.secretId)),
  };
  cache.set(set, compiled);
  return compiled;
}

/**
 * Redact content against a set of secrets (a run's registry, or a tenant's union; none or empty: unchanged): one
 * linear scan of the content, and the matches replaced by their markers.
 */
export function redact(content: string, set: SecretSet | undefined): string {
  if (set === undefined || set.size === 0) return content;
  const c = compile(set);
  const matches = c.matcher.matches(content);
  if (matches.length === 0) return content;
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += content.slice(at, m.start) + c.markers[m.pattern]!;
    at = m.end;
  }
  return out + content.slice(at);
}

/** Naive reference: per secret, longest first, split/join. Used by tests and the benchmark only. */
export function naiveRedact(content: string, set: SecretSet): string {
  const secrets = [...set.secrets()].sort((a, b) => b.value.length - a.value.length);
  let out = content;
  for (const s of secrets) out = out.split(s.value).join(redactionMarker(s.secretId));
  return out;
}
