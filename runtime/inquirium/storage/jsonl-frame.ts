/**
 * The line format of the framed JSONL log, and the pure scan that recovers a log from its bytes.
 *
 * Each record is one line: `<16 hex of sha256(json)> <json>\n` (JSON.stringify never emits a raw newline). A
 * record counts only when its line is complete (ends in a newline) and its checksum matches:
 * - the bytes after the last newline are a torn tail (a crash mid-write, never acknowledged);
 * - a complete line whose frame or checksum is wrong (bit rot, a foreign write), or whose JSON is not a record of
 *   the log's kind (its guard refuses it: a foreign or older writer), is skipped and reported with its line number,
 *   byte offset and reason, never allowed to take the records after it down with it — nor to reach a typed record.
 * Nothing here touches a file: the log (framed-jsonl.ts) decides what to do with what the scan found.
 */
import { createHash } from 'node:crypto';

const CHECKSUM_HEX = 16;
const NEWLINE = 0x0a;

export const checksum = (json: string): string => createHash('sha256').update(json).digest('hex').slice(0, CHECKSUM_HEX);

/** The JSON text of a record; refuses values JSON cannot represent at the top level (undefined, functions). */
export function recordJson(record: unknown): string {
  const json = JSON.stringify(record) as string | undefined;
  if (json === undefined) throw new TypeError('a framed JSONL record must be JSON-serialisable');
  return json;
}

export const frameJson = (json: string): string => `${checksum(json)} ${json}\n`;
export const frame = (record: unknown): string => frameJson(recordJson(record));

/** Why a complete line was not accepted as a record. */
export const SKIP_REASONS = ['malformed-frame', 'checksum-mismatch', 'invalid-json', 'not-a-record'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The check that a parsed line is a record of the log's kind (a generated guard, or a structural one per kind). */
export type RecordGuard<T> = (value: unknown) => value is T;

export interface SkippedLine {
  /** 1-based line number in the file as it was scanned. */
  readonly line: number;
  readonly byteOffset: number;
  /** Length of the line in bytes, its newline included. */
  readonly bytes: number;
  readonly reason: SkipReason;
}

/** A record and where its line sits in the scanned bytes (newline included). */
export interface RecordSpan<T> {
  readonly value: T;
  readonly byteOffset: number;
  readonly bytes: number;
}

export interface ScannedLog<T> {
  readonly spans: RecordSpan<T>[];
  readonly skipped: SkippedLine[];
  /** Byte length up to and including the last newline. */
  readonly validBytes: number;
  /** Bytes after the last newline (a torn tail), 0 when the log ends cleanly. */
  readonly tornTailBytes: number;
  /** Complete lines seen (records + skipped). */
  readonly lines: number;
}

type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: SkipReason };

function parseLine<T>(line: string, isRecord: RecordGuard<T>): Parsed<T> {
  if (line.length < CHECKSUM_HEX + 1 || line[CHECKSUM_HEX] !== ' ') return { ok: false, reason: 'malformed-frame' };
  const json = line.slice(CHECKSUM_HEX + 1);
  if (checksum(json) !== line.slice(0, CHECKSUM_HEX)) return { ok: false, reason: 'checksum-mismatch' };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, reason: 'invalid-json' };
  }
  return isRecord(value) ? { ok: true, value } : { ok: false, reason: 'not-a-record' };
}

/**
 * Scan a log's bytes: every complete, checksummed line that `isRecord` accepts, with its span; bad complete lines and a
 * torn tail reported.
 */
export function scanFramedLog<T>(bytes: Buffer, isRecord: RecordGuard<T>): ScannedLog<T> {
  const spans: RecordSpan<T>[] = [];
  const skipped: SkippedLine[] = [];
  let at = 0;
  let lines = 0;
  for (;;) {
    const nl = bytes.indexOf(NEWLINE, at);
    if (nl === -1) break;
    lines++;
    const parsed = parseLine(bytes.subarray(at, nl).toString('utf8'), isRecord);
    if (parsed.ok) spans.push({ value: parsed.value, byteOffset: at, bytes: nl + 1 - at });
    else skipped.push({ line: lines, byteOffset: at, bytes: nl + 1 - at, reason: parsed.reason });
    at = nl + 1;
  }
  return { spans, skipped, validBytes: at, tornTailBytes: bytes.length - at, lines };
}

export interface RecoveredLog<T> {
  readonly records: T[];
  readonly validBytes: number;
  readonly tornTailBytes: number;
  readonly skipped: SkippedLine[];
}

/** Parse a log's bytes without touching any file (read-only inspection): records, torn tail, skipped lines. */
export function recover<T>(bytes: Buffer, isRecord: RecordGuard<T>): RecoveredLog<T> {
  const s = scanFramedLog(bytes, isRecord);
  return { records: s.spans.map((r) => r.value), validBytes: s.validBytes, tornTailBytes: s.tornTailBytes, skipped: s.skipped };
}
