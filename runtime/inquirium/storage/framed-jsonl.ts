/**
 * A local append-only JSONL log that survives a crash mid-write without a torn record.
 *
 * Each record is one line: `<16 hex of sha256(json)> <json>\n` (JSON.stringify never emits a raw newline). A
 * record counts only when its line is complete (ends in a newline) and its checksum matches:
 * - the bytes after the last newline are a torn tail (a crash mid-write): they are cut off on open, so they never
 *   merge with a later append;
 * - a complete line whose checksum does not match (bit rot, a foreign write) is skipped and counted, never
 *   allowed to take the records after it down with it — every complete, intact record is kept.
 * Appends are a single write of the whole line, fsync'd when `durable` is set.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';

const checksum = (json: string): string => createHash('sha256').update(json).digest('hex').slice(0, 16);
export const frame = (record: unknown): string => {
  const json = JSON.stringify(record);
  return `${checksum(json)} ${json}\n`;
};

export interface RecoveredLog<T> {
  readonly records: T[];
  /** Byte length up to and including the last newline. */
  readonly validBytes: number;
  /** Bytes of torn tail cut off (no trailing newline), 0 when clean. */
  readonly discardedBytes: number;
  /** Complete lines skipped because their frame or checksum was wrong. */
  readonly skippedLines: number;
}

const parseLine = <T>(line: string): { ok: true; value: T } | { ok: false } => {
  if (line.length < 17 || line[16] !== ' ') return { ok: false };
  const json = line.slice(17);
  if (checksum(json) !== line.slice(0, 16)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(json) as T };
  } catch {
    return { ok: false };
  }
};

/** Parse a log's bytes: every complete, checksummed record; a torn tail is reported, bad complete lines skipped. */
export function recover<T>(bytes: Buffer): RecoveredLog<T> {
  const records: T[] = [];
  let at = 0;
  let skippedLines = 0;
  for (;;) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl === -1) break;
    const parsed = parseLine<T>(bytes.subarray(at, nl).toString('utf8'));
    if (parsed.ok) records.push(parsed.value);
    else skippedLines++;
    at = nl + 1;
  }
  return { records, validBytes: at, discardedBytes: bytes.length - at, skippedLines };
}

export class FramedJsonlLog<T> {
  #records: T[];
  /** What recovery found when the log was opened. */
  readonly recovery: Omit<RecoveredLog<T>, 'records'>;
  constructor(readonly path: string, private readonly durable = false) {
    if (!existsSync(path)) writeFileSync(path, '');
    const r = recover<T>(readFileSync(path));
    if (r.discardedBytes > 0) truncateSync(path, r.validBytes);
    this.#records = r.records;
    this.recovery = { validBytes: r.validBytes, discardedBytes: r.discardedBytes, skippedLines: r.skippedLines };
  }
  append(record: T): void {
    const line = frame(record);
    if (this.durable) {
      const fd = openSync(this.path, 'a');
      try {
        appendFileSync(fd, line);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } else appendFileSync(this.path, line);
    this.#records.push(structuredClone(record));
  }
  all(): readonly T[] {
    return this.#records;
  }
  /** Rewrite the log with only `keep`ed records (atomic: temp file + rename). Used by excision. */
  rewrite(keep: (r: T) => boolean): void {
    const kept = this.#records.filter(keep);
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeFileSync(fd, kept.map(frame).join(''));
      if (this.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    this.#records = kept;
  }
}
