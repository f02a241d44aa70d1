/**
 * The INTEROP-MATRIX row upstream asks a host to add beside its evidence, generated from a bundle (never typed by
 * hand): host and version, the build, the target major and suite, the claimed profiles with the certified ones
 * marked, the ledger totals, and the signing key id.
 */
import type { BundleV3 } from './bundle-types.ts';

/** One Markdown table row for upstream's INTEROP-MATRIX.md. */
export function matrixRow(b: BundleV3, bundleLink = 'bundle'): string {
  const t = b.results.totals;
  const profiles = b.claimedProfiles.map((p) => (p.certified ? `**${p.id}** ✓` : p.id)).join(', ') || '—';
  const cells = [
    `${b.host.name} ${b.host.version}`,
    `${b.host.build.kind}:${b.host.build.id.slice(0, 12)}`,
    `v${b.suite.targetMajor} (${b.discovery.preferredVersion})`,
    profiles,
    `${t.executedPass} pass / ${t.executedFail} fail / ${t.blocked} blocked / ${t.skipped} skipped / ${t.inapplicable} inapplicable`,
    `${b.claimedProfiles[0]?.evidenceTier ?? 'self'}, signed ${b.signature.keyId}`,
    `[${b.generatedAt.slice(0, 10)}](${bundleLink})`,
  ];
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
}
