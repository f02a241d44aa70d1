#!/usr/bin/env -S npx tsx
/**
 * Upstream OpenWOP's own v2 schemas as the oracle of `schemas/openwop/v2/` (issue 34, part 3).
 *
 * Bash here cannot download, so the upstream files live in a scratch folder OUTSIDE this repository, filled by hand
 * from the upstream repositories at the commits named in its `manifest.json` (docs/interop.md, "OpenWOP v2 in the
 * corpus", says how); this script checks that folder and then checks our corpus against it:
 *
 *  1. the folder: every file the manifest lists exists, has the length the manifest records (a transcription check)
 *     and parses; every schema compiles (Ajv 2020, formats, non-strict: upstream uses its own x-openwop-* keywords);
 *  2. our v2 examples: each example whose target has an upstream counterpart (TARGETS) is validated by upstream's
 *     schema — a valid one must be accepted, an invalid one rejected with an error at its declared instance path and
 *     keyword. Where our schema is deliberately stricter or differs (DIVERGENCES, each with its reason), the example
 *     is reported as such; any other disagreement is a finding;
 *  3. our major tables: every registered v2 event name is in upstream's v2 type enum and every renamed v1 name in its
 *     v1-name list, and, when the folder holds upstream's `spec/v2/event-codemap.json`, each row is exactly one of its
 *     v1 → v2 pairs; every registered v2 error code is in upstream's registry with the status our table gives it;
 *  4. upstream's own v2 examples, where the manifest lists any (`examples`), validate against our schemas.
 *
 *   npx tsx scripts/upstream-v2-schemas.ts [DIR] [--json]
 *
 * DIR defaults to $WOPKIT_UPSTREAM_DIR, then /tmp/upstream. Exit 0 when nothing disagrees beyond DIVERGENCES, 1 on a
 * finding, 2 when the folder or its manifest is missing or broken.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_UPSTREAM_DIR = '/tmp/upstream';
export const UPSTREAM_ENV = 'WOPKIT_UPSTREAM_DIR';
const UPSTREAM_BASE = 'https://openwop.dev/spec/v2/';
const OUR_BASE = 'https://wopkit.dev/schemas/openwop/v2/';

/** One upstream file of the oracle folder: `<dir>/<repo name>/<path>`, as read at `commit`. */
export interface ManifestFile {
  readonly repo: string;
  readonly path: string;
  readonly commit: string;
  /** Length of the file in UTF-16 code units (JavaScript string length) as the upstream store reports it. */
  readonly chars: number;
}
export interface Manifest {
  readonly files: readonly ManifestFile[];
  /** Upstream v2 example instances, if upstream publishes any: file (in `files`) and the upstream schema ref. */
  readonly examples?: readonly { readonly path: string; readonly repo: string; readonly schema: string; readonly ours: string }[];
}

/** Our example target (`<stem>` or `<stem>--<Def>`) → the upstream schema (id, with a JSON pointer) that says the same. */
export const TARGETS: Readonly<Record<string, string>> = {
  'run-event': 'run-event.schema.json',
  'run-event--EventTypeName': 'run-event.schema.json#/properties/type',
  'run-event--RunEventType': 'run-event.schema.json#/properties/type/oneOf/0',
  'run-snapshot': 'run-snapshot.schema.json',
  'run-snapshot--Owner': 'run-snapshot.schema.json#/properties/owner',
  'run-snapshot--Subject': 'subject.schema.json',
  'run-snapshot--RunError': 'run-snapshot.schema.json#/properties/error',
  'run-snapshot--RunStatus': 'run-snapshot.schema.json#/properties/status',
  'run-snapshot--Extensions': 'run-snapshot.schema.json#/properties/extensions',
  error: 'error-envelope.schema.json',
  'error--ErrorCode': 'error-envelope.schema.json#/properties/error/oneOf/0',
  'error--VendorCode': 'error-envelope.schema.json#/properties/error/oneOf/1',
  'memory-list-options': 'memory-list-options.schema.json',
  'ids--TenantBoundId': 'ids.schema.json#/$defs/runId',
  'ids--OpaqueId': 'ids.schema.json#/$defs/eventId',
  'ids--TenantId': 'ids.schema.json#/$defs/tenantId',
};

/** How upstream treats one of our examples. */
export type Verdict =
  | 'accepted' // a valid example upstream accepts
  | 'rejected-as-declared' // an invalid example upstream rejects at the declared path with the declared keyword
  | 'rejected-otherwise' // an invalid example upstream rejects, for another reason (path or keyword)
  | 'accepted-invalid' // an invalid example upstream accepts: our schema is stricter
  | 'rejected-valid'; // a valid example upstream rejects: a disagreement

/**
 * An upstream defect: v2's run-event `type` is `oneOf: [registered enum, vendor pattern]`, and every registered name
 * also matches the vendor pattern, so under upstream's own schema every event of a registered type fails `oneOf`.
 */
const UPSTREAM_TYPE_ONEOF =
  "upstream defect: run-event type is oneOf(registered enum, vendor pattern) and every registered name matches both, so upstream's own schema rejects every registered type; ours accepts it (the grammar once)";

/** Examples where upstream's verdict differs from ours on purpose, by example path (relative to schemas/openwop/v2/examples/). */
export const DIVERGENCES: Readonly<Record<string, { readonly verdict: Verdict; readonly reason: string }>> = {
  'run-event/valid/confidence-escalated.json': {
    verdict: 'rejected-valid',
    reason: UPSTREAM_TYPE_ONEOF,
  },
  'run-event/valid/memory-consolidated.json': {
    verdict: 'rejected-valid',
    reason: UPSTREAM_TYPE_ONEOF,
  },
  'run-event/valid/orchestrator-decided.json': {
    verdict: 'rejected-valid',
    reason: UPSTREAM_TYPE_ONEOF,
  },
  'run-event--EventTypeName/valid/registered.json': {
    verdict: 'rejected-valid',
    reason: UPSTREAM_TYPE_ONEOF,
  },
  'memory-list-options/invalid/relevance-without-query.json': {
    verdict: 'accepted-invalid',
    reason: 'upstream states "query is required when rank is relevance" in prose only; our schema expresses it (if/then)',
  },
  'error/invalid/replay-details-without-from-seq.json': {
    verdict: 'accepted-invalid',
    reason: 'upstream registers no details schema for replay_memory_snapshot_unavailable; ours keeps the v1 details shape (fromSeq) when details are present',
  },
  'error/invalid/reserved-vendor-prefix.json': {
    verdict: 'rejected-otherwise',
    reason: 'upstream composes the code as oneOf (registered | vendor), ours as anyOf; same path, other keyword',
  },
  'run-snapshot--Extensions/invalid/wopkit-interrupt-without-kind.json': {
    verdict: 'accepted-invalid',
    reason: 'wopkit.interrupt is our own extension record; upstream only requires extension records to be objects',
  },
};

export interface ExampleResult {
  readonly path: string;
  readonly target: string;
  readonly kind: 'valid' | 'invalid';
  readonly verdict: Verdict;
  readonly upstreamErrors?: readonly (readonly [string, string])[];
}
export interface TableFinding {
  readonly table: 'event-names' | 'error-statuses';
  readonly message: string;
}
export interface OracleReport {
  readonly dir: string;
  readonly files: readonly ManifestFile[];
  readonly examples: readonly ExampleResult[];
  /** Our examples whose target has no upstream counterpart among the oracle's files. */
  readonly unmapped: number;
  readonly tables: readonly TableFinding[];
  readonly upstreamExamples: readonly { readonly path: string; readonly ok: boolean; readonly errors?: string }[];
  /** Disagreements not covered by DIVERGENCES, and DIVERGENCES that no longer occur. */
  readonly findings: readonly string[];
}

export class OracleFolderError extends Error {}

type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);
type JsonObject = { [k: string]: unknown };
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The oracle folder to use: the argument, else $WOPKIT_UPSTREAM_DIR, else /tmp/upstream. */
export function upstreamDir(arg?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(arg ?? env[UPSTREAM_ENV] ?? DEFAULT_UPSTREAM_DIR);
}

/** The folder's manifest, checked: every file present, of the recorded length, and JSON. Throws OracleFolderError. */
export function readManifest(dir: string): { manifest: Manifest; texts: Map<string, string> } {
  const at = join(dir, 'manifest.json');
  if (!existsSync(at)) throw new OracleFolderError(`no manifest at ${at}`);
  const manifest = JSON.parse(readFileSync(at, 'utf8')) as Manifest;
  if (!Array.isArray(manifest.files) || manifest.files.length === 0) throw new OracleFolderError(`${at}: "files" must list the upstream files`);
  const texts = new Map<string, string>();
  for (const f of manifest.files) {
    if (!/^[0-9a-f]{40}$/.test(f.commit)) throw new OracleFolderError(`${f.repo}/${f.path}: commit must be 40 hex digits`);
    const abs = join(dir, f.repo.split('/')[1] ?? f.repo, f.path);
    if (!existsSync(abs)) throw new OracleFolderError(`missing ${abs} (${f.repo}@${f.commit.slice(0, 10)}:${f.path})`);
    const text = readFileSync(abs, 'utf8');
    if (text.length !== f.chars) throw new OracleFolderError(`${abs}: ${text.length} characters, the manifest records ${f.chars} (a transcription error?)`);
    try {
      JSON.parse(text);
    } catch (e) {
      throw new OracleFolderError(`${abs}: not JSON: ${(e as Error).message}`);
    }
    texts.set(`${f.repo}:${f.path}`, text);
  }
  return { manifest, texts };
}

function upstreamAjv(manifest: Manifest, texts: Map<string, string>): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const f of manifest.files) if (f.path.endsWith('.schema.json')) ajv.addSchema(JSON.parse(texts.get(`${f.repo}:${f.path}`)!) as object);
  return ajv;
}

function ourAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const major of ['v1', 'v2']) {
    const dir = join(REPO, 'schemas', 'openwop', major);
    for (const name of readdirSafe(dir).filter((n) => n.endsWith('.schema.json'))) ajv.addSchema(JSON.parse(readFileSync(join(dir, name), 'utf8')) as object);
  }
  return ajv;
}

function readdirSafe(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

interface OurExample {
  readonly path: string;
  readonly target: string;
  readonly kind: 'valid' | 'invalid';
  readonly instance: unknown;
  readonly expect?: { readonly instancePath: string; readonly keyword: string };
}

function ourExamples(): OurExample[] {
  const root = join(REPO, 'schemas', 'openwop', 'v2', 'examples');
  const out: OurExample[] = [];
  for (const target of readdirSafe(root))
    for (const kind of ['valid', 'invalid'] as const)
      for (const name of readdirSafe(join(root, target, kind)).filter((n) => n.endsWith('.json'))) {
        const data = JSON.parse(readFileSync(join(root, target, kind, name), 'utf8')) as unknown;
        const raw = kind === 'valid' ? data : (data as JsonObject)['instance'];
        const instance = isObject(raw) && '$schema' in raw ? Object.fromEntries(Object.entries(raw).filter(([k]) => k !== '$schema')) : raw;
        out.push({ path: `${target}/${kind}/${name}`, target, kind, instance, ...(kind === 'invalid' ? { expect: (data as JsonObject)['expect'] as OurExample['expect'] } : {}) });
      }
  return out;
}

function verdictOf(ex: OurExample, ok: boolean, errors: readonly (readonly [string, string])[]): Verdict {
  if (ex.kind === 'valid') return ok ? 'accepted' : 'rejected-valid';
  if (ok) return 'accepted-invalid';
  return errors.some(([p, k]) => p === ex.expect!.instancePath && k === ex.expect!.keyword) ? 'rejected-as-declared' : 'rejected-otherwise';
}

function checkTables(upstream: Ajv2020, texts: Map<string, string>): TableFinding[] {
  const out: TableFinding[] = [];
  const codemapText = texts.get('openwop/openwop:spec/v2/event-codemap.json');
  if (codemapText !== undefined) {
    const pairs = new Map((JSON.parse(codemapText) as { rows: { v1: string; v2: string }[] }).rows.map((r) => [r.v1, r.v2]));
    const v2s = new Set(pairs.values());
    for (const row of (JSON.parse(readFileSync(join(REPO, 'schemas', 'openwop', 'majors', 'event-names.json'), 'utf8')) as { rows: { v1: string; v2: string; registered: boolean }[] }).rows) {
      if (row.registered && pairs.get(row.v1) !== row.v2) out.push({ table: 'event-names', message: `${row.v1} → ${row.v2} here, → ${pairs.get(row.v1) ?? '(no row)'} in upstream's code map` });
      if (!row.registered && (pairs.has(row.v1) || v2s.has(row.v2))) out.push({ table: 'event-names', message: `${row.v1} has a row in upstream's code map; mark it registered` });
    }
  }
  const read = (name: string) => JSON.parse(readFileSync(join(REPO, 'schemas', 'openwop', 'majors', name), 'utf8')) as JsonObject;
  const runEvent = upstream.getSchema(`${UPSTREAM_BASE}run-event.schema.json`)!.schema as JsonObject;
  const typeProp = (runEvent['properties'] as JsonObject)['type'] as JsonObject;
  const v2Names = new Set(((typeProp['oneOf'] as JsonObject[])[0]!['enum'] as string[]));
  const v1Names = new Set((((runEvent['$defs'] as JsonObject)['RunEventType'] as JsonObject)['enum'] as string[]));
  for (const row of read('event-names.json')['rows'] as { v1: string; v2: string; registered: boolean }[]) {
    if (row.registered && !v2Names.has(row.v2)) out.push({ table: 'event-names', message: `${row.v2} is not a registered v2 type upstream` });
    if (!row.registered && v2Names.has(row.v2)) out.push({ table: 'event-names', message: `${row.v2} is registered upstream; mark the row registered` });
    if (row.registered && !v1Names.has(row.v1)) out.push({ table: 'event-names', message: `${row.v1} is not in upstream's list of v1 names` });
  }
  const envelope = upstream.getSchema(`${UPSTREAM_BASE}error-envelope.schema.json`)!.schema as JsonObject;
  const statuses = envelope['x-openwop-http-status'] as Record<string, number>;
  for (const row of read('error-statuses.json')['rows'] as { v2: { code: string; status: number } }[]) {
    if (row.v2.code.includes('.')) continue;
    if (!(row.v2.code in statuses)) out.push({ table: 'error-statuses', message: `${row.v2.code} is not in upstream's v2 registry` });
    else if (statuses[row.v2.code] !== row.v2.status) out.push({ table: 'error-statuses', message: `${row.v2.code}: ${row.v2.status} here, ${statuses[row.v2.code]} upstream` });
  }
  return out;
}

/** Run every check against the folder. Throws OracleFolderError when the folder is unusable. */
export function runOracle(dir: string): OracleReport {
  const { manifest, texts } = readManifest(dir);
  const upstream = upstreamAjv(manifest, texts);
  for (const f of manifest.files)
    if (f.path.endsWith('.schema.json')) {
      const id = (JSON.parse(texts.get(`${f.repo}:${f.path}`)!) as JsonObject)['$id'] as string;
      try {
        upstream.getSchema(id);
      } catch (e) {
        throw new OracleFolderError(`${f.repo}/${f.path} does not compile: ${(e as Error).message}`);
      }
    }
  const examples: ExampleResult[] = [];
  let unmapped = 0;
  for (const ex of ourExamples()) {
    const ref = TARGETS[ex.target];
    if (ref === undefined) {
      unmapped += 1;
      continue;
    }
    const validate = upstream.getSchema(`${UPSTREAM_BASE}${ref}`);
    if (validate === undefined) throw new OracleFolderError(`upstream schema ${ref} (for ${ex.target}) is not in the folder`);
    const ok = validate(ex.instance) as boolean;
    const errors = (validate.errors ?? []).map((e) => [e.instancePath, e.keyword] as const);
    examples.push({ path: ex.path, target: ex.target, kind: ex.kind, verdict: verdictOf(ex, ok, errors), ...(ok ? {} : { upstreamErrors: errors }) });
  }
  const ours = ourAjv();
  const upstreamExamples = (manifest.examples ?? []).map((e) => {
    const validate = ours.getSchema(`${OUR_BASE}${e.ours}`)!;
    const ok = validate(JSON.parse(texts.get(`${e.repo}:${e.path}`)!)) as boolean;
    return { path: `${e.repo}/${e.path}`, ok, ...(ok ? {} : { errors: JSON.stringify(validate.errors) }) };
  });
  const findings: string[] = [];
  for (const r of examples) {
    const known = DIVERGENCES[r.path];
    const expected: Verdict = known?.verdict ?? (r.kind === 'valid' ? 'accepted' : 'rejected-as-declared');
    if (r.verdict !== expected) findings.push(`${r.path}: upstream ${r.verdict}, expected ${expected}${r.upstreamErrors ? ` (${JSON.stringify(r.upstreamErrors)})` : ''}`);
  }
  for (const path of Object.keys(DIVERGENCES)) if (!examples.some((r) => r.path === path)) findings.push(`${path}: listed in DIVERGENCES but not checked`);
  const tables = checkTables(upstream, texts);
  for (const t of tables) findings.push(`${t.table}: ${t.message}`);
  for (const e of upstreamExamples) if (!e.ok) findings.push(`upstream example ${e.path} fails our schema: ${e.errors}`);
  return { dir, files: manifest.files, examples, unmapped, tables, upstreamExamples, findings };
}

/** Counts per verdict, for the summary line and the report. */
export function verdictCounts(report: OracleReport): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { accepted: 0, 'rejected-as-declared': 0, 'rejected-otherwise': 0, 'accepted-invalid': 0, 'rejected-valid': 0 };
  for (const r of report.examples) counts[r.verdict] += 1;
  return counts;
}

function main(argv: string[]): number {
  const json = argv.includes('--json');
  const positional = argv.filter((a) => !a.startsWith('--'));
  if (positional.length > 1) {
    process.stderr.write('usage: upstream-v2-schemas.ts [DIR] [--json]\n');
    return 2;
  }
  let report: OracleReport;
  try {
    report = runOracle(upstreamDir(positional[0]));
  } catch (e) {
    if (!(e instanceof OracleFolderError)) throw e;
    process.stderr.write(`upstream-v2-schemas: ${e.message}\n`);
    return 2;
  }
  const counts = verdictCounts(report);
  if (json) process.stdout.write(`${JSON.stringify({ ...report, counts }, null, 2)}\n`);
  else {
    process.stdout.write(`upstream files: ${report.files.map((f) => `${f.repo}@${f.commit.slice(0, 10)}:${f.path}`).join(', ')}\n`);
    process.stdout.write(`our v2 examples checked by upstream: ${report.examples.length} (${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}); without an upstream counterpart: ${report.unmapped}\n`);
    process.stdout.write(`upstream v2 examples checked by ours: ${report.upstreamExamples.length}\n`);
    for (const f of report.findings) process.stdout.write(`finding: ${f}\n`);
  }
  return report.findings.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
