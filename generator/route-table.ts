/**
 * The reference host's route tables: corpus data beside the schemas, one per family and major
 * (`schemas/<family>/v1/routes.json`), each checked against the generator's own schema for them
 * (generator/route-table-schema.ts) and against the corpus (every schema title defined, every parameter named in
 * the table's parameters). The load stage reads them (load.ts), lint reports what is wrong with them (rule
 * `route-table`), and two emitters read them: the OpenAPI document (emit/openapi.ts) and the typed module the host,
 * the conformance suite and the site import (emit/routes.ts, `generated/routes/routes.ts`).
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject } from './json-value.ts';
import type { RouteTableFile } from './model.ts';
import { createAjv } from './ajv.ts';
import { ROUTE_TABLE_SCHEMA } from './route-table-schema.ts';

/** The file name of a route table inside `schemas/<family>/v1/`. */
export const ROUTE_TABLE_FILE = 'routes.json';

/** An HTTP status the host answers with the error envelope. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 422 | 429 | 500 | 501 | 503;

/** A parameter's schema (inline, or a corpus title) and meaning. */
export interface ParameterSpec {
  readonly schema: { readonly type: 'string' | 'integer'; readonly minimum?: number; readonly maximum?: number; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string } | { readonly title: string };
  readonly description: string;
}

/** One row of a route table (generator/route-table-schema.ts `#/$defs/Route`). */
export interface RouteRow {
  readonly kind: 'protocol' | 'seam' | 'upstream-seam' | 'health';
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query?: readonly string[];
  readonly headers?: readonly string[];
  readonly request?: string;
  readonly bodyOptional?: true;
  readonly response: string;
  readonly alsoResponds?: readonly string[];
  readonly status?: 201;
  readonly public?: true;
  readonly cached?: { readonly maxAgeSeconds: number };
  readonly role: 'tenant' | 'operator';
  readonly summary: string;
  readonly errors: readonly ErrorStatus[];
  readonly errorBodies?: Readonly<Record<string, string>>;
}

export interface CommonErrors {
  readonly always: readonly ErrorStatus[];
  readonly authenticated: readonly ErrorStatus[];
  readonly body: readonly ErrorStatus[];
}

/** The tables of a corpus merged into one host surface: rows and parameters by name, the shared statuses. */
export interface RouteTable {
  readonly commonErrors: CommonErrors;
  readonly parameters: Readonly<Record<string, ParameterSpec>>;
  readonly routes: Readonly<Record<string, RouteRow>>;
  /** Which file each route came from (for messages). */
  readonly fileOf: Readonly<Record<string, string>>;
}

export const ROUTE_TABLE_SCHEMA_PATH = 'generator/route-table-schema.ts';

let compiled: ReturnType<Ajv2020['compile']> | undefined;

/** Where a route table file breaks its schema: `[pointer, message]` pairs (none when it conforms). */
export function routeTableSchemaFailures(data: unknown): [string, string][] {
  compiled ??= createAjv({ strict: false }).compile(ROUTE_TABLE_SCHEMA as unknown as JsonObject);
  if (compiled(data)) return [];
  return (compiled.errors ?? []).map((e) => [e.instancePath, `${e.message ?? 'invalid'}${e.params && 'allowedValues' in e.params ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : ''}`]);
}

/** The `{name}` path parameters of a path, in order. */
export function pathParametersOf(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
}

/** The error statuses a route can answer: its own and the ones it shares with every route of its kind, sorted. */
export function errorStatusesOf(row: RouteRow, common: CommonErrors): ErrorStatus[] {
  const all = new Set<ErrorStatus>([...common.always, ...row.errors]);
  if (row.public !== true) for (const s of common.authenticated) all.add(s);
  if (row.request !== undefined || row.method !== 'GET') for (const s of common.body) all.add(s);
  return [...all].sort((a, b) => a - b);
}

/**
 * The tables merged (those that conform to the schema; lint reports the others), or undefined when the corpus has
 * none. A later table's names must not repeat an earlier one's (lint says so; here the first wins).
 */
export function mergeRouteTables(files: readonly RouteTableFile[]): RouteTable | undefined {
  const usable = files.filter((f) => routeTableSchemaFailures(f.data).length === 0);
  if (usable.length === 0) return undefined;
  const parameters: Record<string, ParameterSpec> = {};
  const routes: Record<string, RouteRow> = {};
  const fileOf: Record<string, string> = {};
  for (const f of usable) {
    const d = f.data as unknown as { parameters: Record<string, ParameterSpec>; routes: Record<string, RouteRow> };
    for (const [k, v] of Object.entries(d.parameters)) parameters[k] ??= v;
    for (const [k, v] of Object.entries(d.routes)) {
      if (routes[k] !== undefined) continue;
      routes[k] = v;
      fileOf[k] = f.path;
    }
  }
  return { commonErrors: (usable[0]!.data as unknown as { commonErrors: CommonErrors }).commonErrors, parameters, routes, fileOf };
}

/** What is wrong with the corpus's route tables: `[file, pointer, message]`, given the corpus's schema titles. */
export function routeTableViolations(files: readonly RouteTableFile[], titleDefined: (title: string) => boolean): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const f of files) for (const [pointer, message] of routeTableSchemaFailures(f.data)) out.push([f.path, pointer, `does not match ${ROUTE_TABLE_SCHEMA_PATH}: ${message}`]);
  const merged = mergeRouteTables(files);
  if (merged === undefined) return out;
  const seen = new Map<string, string>();
  const firstCommon = JSON.stringify(merged.commonErrors);
  for (const f of files.filter((x) => routeTableSchemaFailures(x.data).length === 0)) {
    const d = f.data as unknown as { commonErrors: CommonErrors; parameters: Record<string, ParameterSpec>; routes: Record<string, RouteRow> };
    if (JSON.stringify(d.commonErrors) !== firstCommon) out.push([f.path, '/commonErrors', 'every route table of a corpus must declare the same common errors (one host)']);
    for (const [name, p] of Object.entries(d.parameters)) {
      if (JSON.stringify(merged.parameters[name]) !== JSON.stringify(p)) out.push([f.path, `/parameters/${name}`, `parameter "${name}" means something else in another route table`]);
      if ('title' in p.schema && !titleDefined(p.schema.title)) out.push([f.path, `/parameters/${name}/schema/title`, `no schema of the corpus has the title "${p.schema.title}"`]);
    }
    for (const [name, row] of Object.entries(d.routes)) {
      const at = `/routes/${name}`;
      if (merged.fileOf[name] !== f.path) out.push([f.path, at, `route "${name}" is also in ${merged.fileOf[name]}`]);
      const key = `${row.method} ${row.path}`;
      if (seen.has(key)) out.push([f.path, at, `${key} is also route "${seen.get(key)}"`]);
      else seen.set(key, name);
      for (const [status] of Object.entries(row.errorBodies ?? {})) {
        if (!errorStatusesOf(row, d.commonErrors).includes(Number(status) as ErrorStatus)) out.push([f.path, `${at}/errorBodies/${status}`, `${status} is not one of the route's error statuses`]);
      }
      for (const [field, title] of [['request', row.request], ['response', row.response], ...(row.alsoResponds ?? []).map((t, i) => [`alsoResponds/${i}`, t]), ...Object.entries(row.errorBodies ?? {}).map(([s, t]) => [`errorBodies/${s}`, t])] as [string, string | undefined][]) {
        if (title !== undefined && !titleDefined(title)) out.push([f.path, `${at}/${field}`, `no schema of the corpus has the title "${title}"`]);
      }
      for (const p of [...pathParametersOf(row.path), ...(row.query ?? []), ...(row.headers ?? [])]) {
        if (merged.parameters[p] === undefined) out.push([f.path, at, `parameter "${p}" is not in any table's parameters`]);
      }
      if (row.request === undefined && row.bodyOptional === true) out.push([f.path, `${at}/bodyOptional`, 'bodyOptional on a route that reads no body']);
    }
  }
  return out;
}
