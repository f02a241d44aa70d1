/**
 * The one redaction chokepoint every memory write goes through (SR-1): a direct put, a compaction output, a
 * distillation archive, a consolidation merge. Each registered value of 8+ characters is replaced by
 * `[REDACTED:<secretId>]` by plain substring matching (no regex), longest first: of overlapping candidates the
 * leftmost wins and, at one position, the longest — so a long secret that contains a shorter one is redacted
 * whole. Cost is linear in the content size whatever the number of secrets (Aho–Corasick, cached per registry
 * version).
 *
 * One pass is exact leftmost-longest (see LeftmostLongestMatcher), so no registered value survives a pass
 * intact. The result is still scanned again, because a marker next to ordinary text could in theory spell a
 * registered value (a secret containing `]` or `D:` …); the chokepoint repeats until clean (bounded) and
 * otherwise refuses to produce content at all.
 */
import { LeftmostLongestMatcher, type Match } from './aho-corasick.ts';
import type { WriteRedactor } from '../memory/writer.ts';
import type { RunSecretRegistry, SecretRegistries } from './secret-registry.ts';
import { WopkitError } from '../shared/errors.ts';

export const MAX_REDACTION_PASSES = 4;

export const redactionMarker = (secretId: string): string => `[REDACTED:${secretId}]`;

/** Redaction could not reach a clean result: nothing may be persisted (`compaction_redaction_failed`). */
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
  readonly automaton: LeftmostLongestMatcher;
  readonly markers: readonly string[];
}

const cache = new WeakMap<RunSecretRegistry, Compiled>();

function compile(registry: RunSecretRegistry): Compiled {
  const hit = cache.get(registry);
  if (hit !== undefined && hit.version === registry.version) return hit;
  const secrets = registry.secrets();
  const compiled: Compiled = {
    version: registry.version,
    automaton: new LeftmostLongestMatcher(secrets.map((s) => s.value)),
    markers: secrets.map((s) => redactionMarker(s.secretId)),
  };
  cache.set(registry, compiled);
  return compiled;
}

/** Replace the given (leftmost-longest, non-overlapping) matches by their markers. */
function replace(content: string, matches: readonly Match[], c: Compiled): string {
  const parts: string[] = [];
  let at = 0;
  for (const m of matches) {
    parts.push(content.slice(at, m.start), c.markers[m.pattern]!);
    at = m.end;
  }
  parts.push(content.slice(at));
  return parts.join('');
}

/**
 * Redact content against a run's registry (no registry or no secrets: content unchanged). Each round is one
 * linear scan; a round that finds nothing proves the content clean, so clean content costs one scan and content
 * with secrets two (more only in the adversarial marker-spelling case, bounded by MAX_REDACTION_PASSES).
 */
export function redact(content: string, registry: RunSecretRegistry | undefined): string {
  if (registry === undefined || registry.size === 0) return content;
  const c = compile(registry);
  let out = content;
  for (let i = 0; i <= MAX_REDACTION_PASSES; i++) {
    const matches = c.automaton.matches(out);
    if (matches.length === 0) return out;
    if (i === MAX_REDACTION_PASSES) break;
    out = replace(out, matches, c);
  }
  throw new RedactionFailedError();
}

/** Redact against several registries (e.g. a background pass that must honour every live run's secrets). */
export function redactAll(content: string, registries: Iterable<RunSecretRegistry>): string {
  let out = content;
  for (const r of registries) out = redact(out, r);
  return out;
}

/**
 * The SR-1 chokepoint of a memory write (what the memory writer is given): the writing run's registry when a run
 * writes, then every other live run registry of the same tenant, so a background writer still honours the secrets
 * the tenant's runs resolved.
 */
export function writeRedactor(registries: SecretRegistries): WriteRedactor {
  return (content, { tenant, runId }) => {
    const own = runId === undefined ? undefined : registries.get(runId);
    let out = own === undefined ? content : redact(content, own);
    for (const r of registries.liveForTenant(tenant)) if (r !== own) out = redact(out, r);
    return out;
  };
}

/** Naive reference: per secret, longest first, split/join. Used by tests and the benchmark only. */
export function naiveRedact(content: string, registry: RunSecretRegistry): string {
  const secrets = [...registry.secrets()].sort((a, b) => b.value.length - a.value.length);
  let out = content;
  for (const s of secrets) out = out.split(s.value).join(redactionMarker(s.secretId));
  return out;
}
