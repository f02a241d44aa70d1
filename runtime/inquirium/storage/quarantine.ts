/**
 * The quarantine file `<log>.quarantine`: where the bytes a log could not accept go instead of being deleted — a
 * torn tail cut on open, complete lines skipped by recovery and moved out by the next rewrite.
 *
 * Append-only, one entry after another; each entry is a header line then the exact bytes, then a newline:
 *
 *     #quarantine {"source":"t.jsonl","kind":"skipped-line","line":3,"byteOffset":120,"bytes":58,"reason":"checksum-mismatch","at":"…"}
 *     <58 bytes exactly as they were in the log>
 *
 * `bytes` is authoritative (the data may itself contain newlines or none), so readQuarantine gives back the bytes
 * byte-exact. A crash while an entry is appended leaves a torn last entry, which readQuarantine reports and skips
 * (the source bytes are still in the log then, and are quarantined again).
 */
import { readFileSync } from 'node:fs';
import { appendDurably } from './durable-file.ts';
import { SKIP_REASONS, type SkipReason } from './jsonl-frame.ts';

const HEADER = '#quarantine ';

export interface QuarantineHeader {
  /** File name of the log the bytes came from. */
  readonly source: string;
  readonly kind: 'torn-tail' | 'skipped-line';
  /** 1-based line number in the log when the bytes were found. */
  readonly line: number;
  readonly byteOffset: number;
  readonly bytes: number;
  readonly reason: SkipReason | 'torn-tail';
  readonly at: string;
}

export interface QuarantineEntry extends QuarantineHeader {
  readonly data: Buffer;
}

export const quarantinePathOf = (logPath: string): string => `${logPath}.quarantine`;

/** The header line of an entry, its keys always in this order. */
const headerLine = (e: QuarantineEntry): string => {
  const header: QuarantineHeader = { source: e.source, kind: e.kind, line: e.line, byteOffset: e.byteOffset, bytes: e.data.length, reason: e.reason, at: e.at };
  return `${HEADER}${JSON.stringify(header)}\n`;
};

export function encodeQuarantine(entries: readonly QuarantineEntry[]): Buffer {
  return Buffer.concat(entries.flatMap((e) => [Buffer.from(headerLine(e)), e.data, Buffer.from('\n')]));
}

/** Append entries to a quarantine file; returns after the data is synced (when durable). */
export function appendQuarantine(path: string, entries: readonly QuarantineEntry[], durable: boolean): void {
  if (entries.length > 0) appendDurably(path, encodeQuarantine(entries), durable);
}

export interface QuarantineContents {
  readonly entries: QuarantineEntry[];
  /** Bytes from the first one that does not form a whole entry to the end (a crash while appending), 0 when clean. */
  readonly unparsedBytes: number;
}

const KINDS: readonly QuarantineHeader['kind'][] = ['torn-tail', 'skipped-line'];
const REASONS: readonly QuarantineHeader['reason'][] = [...SKIP_REASONS, 'torn-tail'];
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** An entry header read back (what `headerLine` wrote), or undefined when it is not one: the entry is not whole. */
function quarantineHeaderOf(v: unknown): QuarantineHeader | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const h: Readonly<Record<string, unknown>> = Object.fromEntries(Object.entries(v));
  const kind = KINDS.find((k) => k === h.kind);
  const reason = REASONS.find((r) => r === h.reason);
  const { source, line, byteOffset, bytes, at } = h;
  if (kind === undefined || reason === undefined || typeof source !== 'string' || typeof at !== 'string' || !isCount(line) || !isCount(byteOffset) || !isCount(bytes)) return undefined;
  return { source, kind, line, byteOffset, bytes, reason, at };
}

/** Read a quarantine file back: every whole entry with its bytes, exactly. */
export function readQuarantine(path: string): QuarantineContents {
  const bytes = readFileSync(path);
  const entries: QuarantineEntry[] = [];
  let at = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl === -1 || bytes.toString('utf8', at, at + HEADER.length) !== HEADER) break;
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8', at + HEADER.length, nl));
    } catch {
      break;
    }
    const header = quarantineHeaderOf(parsed);
    if (header === undefined) break;
    const start = nl + 1;
    const end = start + header.bytes;
    if (end >= bytes.length || bytes[end] !== 0x0a) break;
    entries.push({ ...header, data: Buffer.from(bytes.subarray(start, end)) });
    at = end + 1;
  }
  return { entries, unparsedBytes: bytes.length - at };
}
