/**
 * A local append-only JSONL log that survives a crash mid-write without a torn record.
 *
 * Each record is one line: `<16 hex of sha256(json)> <json>\n`. A record counts only when its line is complete
 * (ends in a newline) and its checksum matches. On open, everything after the last good record is cut off, so a
 * torn tail from a crash never mixes with later appends; every complete record before it is kept. Appends are a
 * single `appendFileSync` of the whole line (one write call), fsync'd when `durable` is set.
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
  /** Byte length of the valid prefix. */
  readonly validBytes: number;
  /** Bytes cut off (torn tail), 0 when clean. */
  readonly discardedBytes: number;
}

/** Parse a log's bytes: every complete, checksummed record up to the first bad one. */
export function recover<T>(bytes: Buffer): RecoveredLog<T> {
  const records: T[] = [];
  let at = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl === -1) break;
    const line = bytes.subarray(at, nl).toString('utf8');
    const sp = line.indexOf(' ');
    if (sp !== 16) break;
    const json = line.slice(17);
    if (checksum(json) !== line.slice(0, 16)) break;
    try {
      records.push(JSON.parse(json) as T);
    } catch {
      break;
    }
    at = nl + 1;
  }
  return { records, validBytes: at, discardedBytes: bytes.length - at };
}

export class FramedJsonlLog<T> {
  #records: T[];
  constructor(readonly path: string, private readonly durable = false) {
    if (!existsSync(path)) writeFileSync(path, '');
    const r = recover<T>(readFileSync(path));
    if (r.discardedBytes > 0) truncateSync(path, r.validBytes);
    this.#records = r.records;
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
    writeFileSync(tmp, kept.map(frame).join(''));
    renameSync(tmp, this.path);
    this.#records = kept;
  }
}
