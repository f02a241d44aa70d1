/**
 * Fastify's validator compiler for every route, built from the route table: what a row says it reads — path
 * parameters, query parameters and a JSON body — is checked here, before any handler runs, with the generated
 * validators and the parameter table's schemas. A handler receives typed input and never parses or casts it.
 *
 * - body: the generated validator of the row's `request` title; an absent body is refused unless the row says
 *   `bodyOptional`, in which case it is read as `{}`;
 * - headers the row reads: checked like a query parameter (Node joins a repeated header into one value), never
 *   converted — Fastify keeps the request's header object;
 * - path and query parameters: each value a string (a repeated query parameter, `?tenant=a&tenant=a`, is refused by
 *   name: a parameter means one value), converted once by its schema (`type: integer` → a safe integer written in
 *   decimal digits) and then checked against it (minimum, maximum, minLength, or the generated validator of the
 *   corpus enum it names). Query parameters the row does not read are ignored, as HTTP intermediaries add their own.
 *
 * Every refusal is a 400 `validation_failed` in the error envelope whose failures name the input by JSON pointer
 * (`/limit`, `/tenant`, `/memoryRef`, or the body's instance path).
 */
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { ValidationFailure } from '../../generated/ts/error.ts';
import { validationFailures } from '../shared/errors.ts';
import { HttpError } from './errors.ts';
import { PARAMETERS, pathParametersOf, validatorOf, type CatalogueRoute, type ParameterName, type SchemaTitle } from './seam-catalogue.ts';

/** What a compiled check gives Fastify: the converted value, or the envelope's error. */
type Outcome = { readonly value: unknown } | { readonly error: HttpError };
type Check = (data: unknown) => Outcome;

/** The HTTP part a check reads, as Fastify names it. */
type Part = 'body' | 'params' | 'querystring' | 'headers';

const refuse = (where: string, failures: readonly ValidationFailure[]): { error: HttpError } => ({
  error: new HttpError('validation_failed', `${where} does not match its schema`, { failures: validationFailures(failures) }),
});

const patterns = new Map<string, RegExp>();
/** A parameter's pattern, compiled once (ECMA-262, with the u flag, as JSON Schema's `pattern`). */
const patternOf = (source: string): RegExp => {
  let re = patterns.get(source);
  if (re === undefined) patterns.set(source, (re = new RegExp(source, 'u')));
  return re;
};

/** The integer a query or path value spells (decimal digits, optionally signed, a safe integer), else undefined. */
export function integerOf(text: string): number | undefined {
  if (!/^-?\d{1,16}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** One parameter's value converted and checked against its table schema: the value, or why not. */
export function checkParameter(name: ParameterName, raw: unknown): { readonly value: string | number } | { readonly failure: ValidationFailure } {
  const at = `/${name}`;
  if (Array.isArray(raw)) return { failure: { instancePath: at, message: `must be given once (got ${raw.length} values)` } };
  if (typeof raw !== 'string') return { failure: { instancePath: at, message: 'must be a string' } };
  const schema: (typeof PARAMETERS)[ParameterName]['schema'] = PARAMETERS[name].schema;
  if ('title' in schema) {
    const validate = validatorOf(schema.title as SchemaTitle) as (v: unknown) => boolean;
    return validate(raw) ? { value: raw } : { failure: { instancePath: at, message: `must be a ${schema.title} value` } };
  }
  if (schema.type === 'integer') {
    const n = integerOf(raw);
    const min = 'minimum' in schema ? schema.minimum : undefined;
    const max = 'maximum' in schema ? schema.maximum : undefined;
    if (n === undefined || (min !== undefined && n < min) || (max !== undefined && n > max)) {
      return { failure: { instancePath: at, message: `must be an integer${min !== undefined ? ` >= ${min}` : ''}${max !== undefined ? ` and <= ${max}` : ''}` } };
    }
    return { value: n };
  }
  const minLength = 'minLength' in schema ? schema.minLength : 0;
  const maxLength = 'maxLength' in schema ? schema.maxLength : undefined;
  if (raw.length < minLength) return { failure: { instancePath: at, message: `must be at least ${minLength} characters` } };
  if (maxLength !== undefined && raw.length > maxLength) return { failure: { instancePath: at, message: `must be at most ${maxLength} characters` } };
  if ('pattern' in schema && !patternOf(schema.pattern).test(raw)) return { failure: { instancePath: at, message: `must match ${schema.pattern}` } };
  return { value: raw };
}

/** A check of a parameter object (path or query): each named parameter converted, every failure collected. */
function parametersCheck(names: readonly ParameterName[], where: string, required: boolean): Check {
  return (data) => {
    const source = (typeof data === 'object' && data !== null ? data : {}) as Readonly<Record<string, unknown>>;
    const out: Record<string, string | number> = {};
    const failures: ValidationFailure[] = [];
    for (const name of names) {
      const raw = source[name];
      if (raw === undefined) {
        if (required) failures.push({ instancePath: `/${name}`, message: 'is required' });
        continue;
      }
      const r = checkParameter(name, raw);
      if ('failure' in r) failures.push(r.failure);
      else out[name] = r.value;
    }
    return failures.length > 0 ? refuse(where, failures) : { value: out };
  };
}

/** The check of a body against the generated validator of `title`. */
function bodyCheck(title: SchemaTitle, optional: boolean): Check {
  const validate = validatorOf(title) as ((v: unknown) => boolean) & { errors?: readonly { instancePath: string; message?: string }[] | null };
  return (data) => {
    const body = optional && data === null ? {} : data;
    if (validate(body)) return { value: body };
    return refuse('request body', (validate.errors ?? []).map((e) => ({ instancePath: e.instancePath, message: e.message ?? 'invalid' })));
  };
}

/**
 * The Fastify `schema` of a route: one marker per part it reads (the compiler builds each check from the row). Each
 * marker says `type: object` so Fastify's JSON shorthand leaves it as it is.
 */
export function routeSchemaOf(route: CatalogueRoute): FastifySchema {
  const marker = (part: Part) => ({ type: 'object', 'x-wopkit-part': part, 'x-wopkit-route': `${route.method} ${route.path}` });
  return {
    ...(pathParametersOf(route.path).length > 0 ? { params: marker('params') } : {}),
    ...(route.query !== undefined ? { querystring: marker('querystring') } : {}),
    ...(route.headers !== undefined ? { headers: marker('headers') } : {}),
    ...(route.request !== undefined ? { body: marker('body') } : {}),
  };
}

/** The check of one part of a route. */
export function checkOf(route: CatalogueRoute, part: Part): Check {
  if (part === 'params') return parametersCheck(pathParametersOf(route.path) as ParameterName[], 'path', true);
  if (part === 'querystring') return parametersCheck(route.query ?? [], 'query', false);
  if (part === 'headers') {
    // Headers are checked, never replaced: Fastify keeps the request's own header object.
    const check = parametersCheck(route.headers ?? [], 'headers', false);
    return (data) => {
      const r = check(data);
      return 'error' in r ? r : { value: data };
    };
  }
  if (route.request === undefined) throw new RangeError(`${route.method} ${route.path} reads no body`);
  return bodyCheck(route.request, route.bodyOptional === true);
}

/**
 * The validator compiler of the host: `routes` are the rows served; each schema Fastify hands over is a marker of
 * {@link routeSchemaOf}, naming the row and the part. A schema from anywhere else is a programming error.
 */
export function routeValidatorCompiler(routes: readonly CatalogueRoute[]): FastifySchemaCompiler<unknown> {
  const byKey = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  return ({ schema, httpPart }) => {
    const marker = schema as { readonly 'x-wopkit-route'?: unknown; readonly 'x-wopkit-part'?: unknown };
    const route = typeof marker['x-wopkit-route'] === 'string' ? byKey.get(marker['x-wopkit-route']) : undefined;
    if (route === undefined || marker['x-wopkit-part'] !== httpPart) throw new RangeError(`no route-table check for the ${String(httpPart)} schema ${JSON.stringify(schema).slice(0, 200)}`);
    return checkOf(route, httpPart as Part);
  };
}
