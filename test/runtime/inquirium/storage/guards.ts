/**
 * Guards of the test logs' records: a framed JSONL log checks every record it reads or appends with one, so a test
 * log names what its records are. (Type imports only: the durability test mocks node:fs before it loads anything else.)
 */
import type { CrashRecord } from './records.ts';

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Any JSON value is a record (for logs whose records a test never reads as a type). */
export const anyRecord = (_v: unknown): _v is unknown => true;
export const isN = (v: unknown): v is { n: number } => isObject(v) && typeof v.n === 'number';
export const isA = (v: unknown): v is { a: number } => isObject(v) && typeof v.a === 'number';
export const isV = (v: unknown): v is { v: unknown } => isObject(v) && Object.prototype.hasOwnProperty.call(v, 'v');
export const isIdV = (v: unknown): v is { id: number; v: unknown } => isObject(v) && typeof v.id === 'number' && isV(v);
export const isIV = (v: unknown): v is { i: number; v: unknown } => isObject(v) && typeof v.i === 'number' && isV(v);
export const isCrashRecord = (v: unknown): v is CrashRecord =>
  isObject(v) && typeof v.id === 'number' && typeof v.pad === 'string' && Array.isArray(v.tail) && v.tail.every((n) => typeof n === 'number');
