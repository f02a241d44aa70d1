/**
 * `wopkit certify`, the command behind generator/cli.ts:
 *
 *   certify keygen [--out FILE]                         a new Ed25519 key file (0600); prints its signingKeys[] entry
 *   certify --base-url URL --key FILE [--out DIR] [--api-key K] [--strict] [--build KIND:ID]
 *           [--evidence-tier self|independent --verifier-key FILE]
 *                                                       run the suite, cut and sign a bundle v3, print the matrix row
 *   certify verify <bundle> [--discovery URL|FILE]      check the signature and every single-bundle predicate
 *   certify matrix-row <bundle>                         the INTEROP-MATRIX row of a bundle
 *
 * Exit 0: done (verify: the bundle verifies); 1: verify found failures, or the run had failures (the bundle is still
 * written: it is honest evidence of a host that does not certify); 2: usage, I/O, key or discovery errors, printed
 * as the error envelope `{ok: false, error: {code, message}}` with --format json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { configFrom, ConfigError, type SuiteConfig } from '../config.ts';
import { DiscoveryError, runSuite, SUITE_NAME, SUITE_VERSION, type SuiteResults } from '../run.ts';
import { BUILD_KINDS, type BuildKind, type BundleV3, type EvidenceTier } from './bundle-types.ts';
import { cutBundle } from './bundle.ts';
import { CertifyError } from './errors.ts';
import { readKeyFile, writeKeyFile } from './keys.ts';
import { matrixRow } from './matrix.ts';
import { MAJORS } from './profiles.ts';
import { formatVerdict, readJsonFrom, verifyBundleFile } from './verify.ts';

export interface CertifyIo {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}
export interface CertifyArgs {
  readonly args: readonly string[];
  readonly values: ReadonlyMap<string, string>;
  readonly flags: ReadonlySet<string>;
  readonly format: 'text' | 'json';
}

/** The suite run for each major certify can certify; a v2 row joins when the host and the suite serve v2. */
export const MAJOR_SUITES: readonly { readonly major: 1 | 2; readonly run: (config: SuiteConfig) => Promise<SuiteResults> }[] = [{ major: 1, run: (config) => runSuite(config) }];

/** The suite version a bundle names: this suite and its version, so no reader mistakes it for upstream's run. */
export const BUNDLE_SUITE_VERSION = `${SUITE_NAME}/${SUITE_VERSION}`;

function parseBuild(text: string): { kind: BuildKind; id: string } {
  const i = text.indexOf(':');
  const kind = text.slice(0, i) as BuildKind;
  if (i < 1 || !BUILD_KINDS.includes(kind) || text.length === i + 1) throw new CertifyError('usage', `--build must be KIND:ID with KIND one of ${BUILD_KINDS.join(', ')} (e.g. commit:$(git rev-parse HEAD))`);
  return { kind, id: text.slice(i + 1) };
}

async function keygen(a: CertifyArgs, io: CertifyIo): Promise<number> {
  const path = resolve(a.values.get('--out') ?? 'wopkit-signing-key.pem');
  const entry = writeKeyFile(path);
  if (a.format === 'json') io.out(JSON.stringify({ ok: true, keyFile: path, signingKey: entry }, null, 2));
  else io.out(`wrote ${path} (mode 0600; keep it private)\npublish this entry in the host's discovery signingKeys[] (reference host: the credentials file's "signingKeys"):\n${JSON.stringify(entry)}`);
  return 0;
}

async function cut(a: CertifyArgs, io: CertifyIo): Promise<number> {
  const keyFile = a.values.get('--key');
  if (keyFile === undefined) throw new CertifyError('usage', 'certify needs --key FILE (make one with `wopkit certify keygen`)');
  const hostKey = readKeyFile(keyFile);
  const tier = (a.values.get('--evidence-tier') ?? 'self') as EvidenceTier;
  if (!['self', 'steward', 'independent'].includes(tier)) throw new CertifyError('usage', '--evidence-tier must be self or independent');
  const verifierFile = a.values.get('--verifier-key');
  const verifierKey = verifierFile === undefined ? undefined : readKeyFile(verifierFile);
  let config;
  try {
    config = configFrom(io.env, { ...(a.values.get('--base-url') !== undefined ? { 'base-url': a.values.get('--base-url')! } : {}), ...(a.values.get('--api-key') !== undefined ? { 'api-key': a.values.get('--api-key')! } : {}), ...(a.flags.has('--strict') ? { strict: true } : {}) });
  } catch (e) {
    if (e instanceof ConfigError) throw new CertifyError('usage', e.message);
    throw e;
  }
  const buildFlag = a.values.get('--build');
  const flagBuild = buildFlag === undefined ? undefined : parseBuild(buildFlag);
  const url = `${config.baseUrl}${ROUTES.discovery.path}`;
  const document = await readJsonFrom(url, 'discovery document');
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new CertifyError('discovery_unavailable', `${url} is not a JSON object`);
  const doc = document as Record<string, unknown>;
  const fromDoc = (doc.host as { build?: { kind?: unknown; id?: unknown } } | undefined)?.build;
  const build = flagBuild !== undefined ? flagBuild
    : typeof fromDoc?.kind === 'string' && typeof fromDoc.id === 'string' ? parseBuild(`${fromDoc.kind}:${fromDoc.id}`)
    : undefined;
  if (build === undefined) throw new CertifyError('build_unknown', `${url} names no host.build; give --build KIND:ID (a bundle attributes to a build)`);
  // One run and one bundle per major the host serves and certify can run (MAJOR_SUITES × MAJORS: data, not a branch).
  const runs = MAJOR_SUITES.flatMap((m) => { const rule = MAJORS[m.major]; return rule !== undefined && rule.versions(doc) !== undefined ? [{ rule, run: m.run }] : []; });
  if (runs.length === 0) throw new CertifyError('major_unsupported', `${url} advertises protocol version ${JSON.stringify(doc.protocolVersion ?? doc.protocolVersions)}; certify runs major ${MAJOR_SUITES.map((m) => m.major).join(', ')}`);
  const dir = resolve(a.values.get('--out') ?? 'conformance/bundles');
  mkdirSync(dir, { recursive: true });
  const written: { file: string; bundle: BundleV3 }[] = [];
  for (const { rule, run } of runs) {
    let results;
    try {
      results = await run(config);
    } catch (e) {
      if (e instanceof DiscoveryError) throw new CertifyError('discovery_unavailable', e.message);
      throw e;
    }
    const bundle = cutBundle({ results, major: rule, discovery: { url, document: doc }, build, suiteVersion: BUNDLE_SUITE_VERSION, evidenceTier: tier }, hostKey, verifierKey);
    const slug = bundle.host.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
    const file = join(dir, `${slug}-v${rule.major}-${bundle.generatedAt.replace(/[:.]/g, '-')}.bundle.json`);
    writeFileSync(file, `${JSON.stringify(bundle, null, 2)}\n`);
    written.push({ file, bundle });
    if (a.format === 'text') {
      const t = bundle.results.totals;
      io.out(`wrote ${file}`);
      io.out(`signed by ${bundle.signature.keyId}; ${t.executedPass} pass, ${t.executedFail} fail, ${t.blocked} blocked, ${t.skipped} skipped, ${t.inapplicable} inapplicable; ${bundle.assertionCount} assertions`);
      io.out(`claimed: ${bundle.claimedProfiles.map((p) => `${p.id}${p.certified ? ' (certified)' : ''}`).join(', ') || 'none'}`);
      io.out(`INTEROP-MATRIX row:\n${matrixRow(bundle, { bundleLink: file })}`);
    }
  }
  const failed = written.some((w) => w.bundle.results.totals.executedFail > 0);
  if (a.format === 'json') io.out(JSON.stringify({ ok: !failed, bundles: written.map(({ file, bundle }) => ({ file, targetMajor: bundle.suite.targetMajor, claimedProfiles: bundle.claimedProfiles, totals: bundle.results.totals, matrixRow: matrixRow(bundle, { bundleLink: file }) })) }, null, 2));
  return failed ? 1 : 0;
}

async function verify(a: CertifyArgs, io: CertifyIo): Promise<number> {
  const path = a.args[1];
  if (path === undefined) throw new CertifyError('usage', 'certify verify needs a bundle file');
  const v = await verifyBundleFile(path, a.values.get('--discovery'));
  io.out(a.format === 'json' ? JSON.stringify({ bundle: path, ...v }, null, 2) : formatVerdict(path, v));
  return v.ok ? 0 : 1;
}

async function row(a: CertifyArgs, io: CertifyIo): Promise<number> {
  const path = a.args[1];
  if (path === undefined) throw new CertifyError('usage', 'certify matrix-row needs a bundle file');
  const b = (await readJsonFrom(path, 'bundle')) as BundleV3;
  if (b?.bundleVersion !== '3') throw new CertifyError('bundle_unreadable', `${path} is not a bundle v3`);
  const text = matrixRow(b, { bundleLink: path });
  io.out(a.format === 'json' ? JSON.stringify({ ok: true, matrixRow: text }) : text);
  return 0;
}

const SUBCOMMANDS: Readonly<Record<string, (a: CertifyArgs, io: CertifyIo) => Promise<number>>> = { keygen, verify, 'matrix-row': row };

/** Run `certify`; the exit code. CertifyErrors are printed (exit 2), anything else propagates. */
export async function certify(a: CertifyArgs, io: CertifyIo): Promise<number> {
  try {
    const sub = a.args[0];
    if (sub !== undefined && SUBCOMMANDS[sub] === undefined) throw new CertifyError('usage', `unknown certify subcommand "${sub}" (keygen, verify, matrix-row, or none to run the suite)`);
    return await (sub === undefined ? cut : SUBCOMMANDS[sub]!)(a, io);
  } catch (e) {
    if (!(e instanceof CertifyError)) throw e;
    if (a.format === 'json') io.out(JSON.stringify({ ok: false, error: { code: e.code, message: e.message } }, null, 2));
    else io.err(`wopkit certify: error: ${e.message}`);
    return 2;
  }
}
