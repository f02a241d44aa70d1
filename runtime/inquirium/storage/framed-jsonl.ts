/**
 * A local append-only JSONL log (format: jsonl-frame.ts) with one writer, durable appends, crash recovery that
 * reports what it skipped, and a quarantine instead of deletion. The contract, in full in docs/storage-jsonl.md:
 *
 * - Opening takes the exclusive writer lock `<log>.lock` (runtime/shared/writer-lock.ts); a second writer is refused.
 * - `append` returns only after its line is written and fdatasync'd; creating the log syncs its directory.
 *   Cost is O(1) in the size of the log: the descriptor stays open and one framed line is written.
 * - Recovery on open: a torn tail (never acknowledged) is copied to `<log>.quarantine`, then cut; damaged complete
 *   lines are skipped and reported, and stay in the file until a rewrite moves them to the quarantine. The report
 *   is `log.recovery`, and one content-free line (counts, offsets, reasons) goes to the injected logger.
 * - `rewrite` (retention, erasure) writes a new file, syncs it, renames it over the log and syncs the directory:
 *   readers see the old file or the new one, never a mix.
 * - Every record is of the log's kind, checked by the guard the log is opened with: a line that parses but is not a
 *   record is skipped on open like a damaged one (`not-a-record`), and an append whose JSON would not read back as a
 *   record is refused before anything is written (FramedRecordRefusedError). No record reaches a caller unchecked.
 * - `durable: false` skips every sync. It is UNSAFE (an acknowledged append can be lost on power failure) and
 *   exists for tests and benchmarks only.
 */
import { closeSync, existsSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { openForAppend, readWhole, syncDirectory, writeFully, writeSyncedFile } from './durable-file.ts';
import { frameJson, recordJson, scanFramedLog, type RecordGuard, type SkippedLine } from './jsonl-frame.ts';
import { appendQuarantine, quarantinePathOf, type QuarantineEntry } from './quarantine.ts';
import { acquireWriterLock, type StaleLock, type WriterLock } from '../../shared/writer-lock.ts';
import { WopkitError } from '../../shared/errors.ts';

export { frame, recover, scanFramedLog, type RecordGuard, type RecordSpan, type RecoveredLog, type ScannedLog, type SkippedLine, type SkipReason } from './jsonl-frame.ts';
export { readQuarantine, quarantinePathOf, type QuarantineEntry, type QuarantineHeader, type QuarantineContents } from './quarantine.ts';
export { LogLockedError, type LockHolder, type StaleLock } from '../../shared/writer-lock.ts';

export interface FramedJsonlOptions {
  /**
   * Sync every acknowledged write (default true). `false` is UNSAFE — appends acknowledged but not on disk can be
   * lost on a crash of the machine — and is meant for tests and benchmarks only.
   */
  readonly durable?: boolean;
  /** Where the one-line recovery and quarantine notices go (content-free). Default: console.warn. */
  readonly logger?: (message: string) => void;
  /** Clock for lock and quarantine timestamps. Default: Date.now. */
  readonly now?: () => number;
}

/** What recovery found when the log was opened. */
export interface RecoveryReport {
  /** Records recovered. */
  readonly records: number;
  /** Bytes up to and including the last newline. */
  readonly validBytes: number;
  /** Bytes after the last newline (a write torn by a crash): copied to the quarantine, then cut. 0 when clean. */
  readonly tornTailBytes: number;
  /** Complete lines that were not records; left in place until the next rewrite moves them to the quarantine. */
  readonly skipped: readonly SkippedLine[];
  /** The quarantine file (`<log>.quarantine`). */
  readonly quarantinePath: string;
  /** Set when the writer lock was taken over from a holder that no longer runs. */
  readonly staleLock?: StaleLock;
  /** Bytes of the temp file of a rewrite interrupted before its rename, removed (the log itself was whole). */
  readonly abandonedRewriteBytes: number;
}

export interface RewriteReport {
  readonly kept: number;
  readonly dropped: number;
  /** Damaged lines moved to the quarantine before the rewrite. */
  readonly quarantined: number;
  readonly quarantinePath: string;
}

const listSkipped = (skipped: readonly SkippedLine[]): string => {
  const shown = skipped.slice(0, 5).map((s) => `line ${s.line} at byte ${s.byteOffset}: ${s.reason}`);
  return shown.join(', ') + (skipped.length > shown.length ? `, and ${skipped.length - shown.length} more` : '');
};

/** The one recovery line (counts, offsets, reasons, file names — never record content); undefined when clean. */
export function describeRecovery(path: string, r: RecoveryReport): string | undefined {
  const notes: string[] = [];
  if (r.staleLock) notes.push('unreadable' in r.staleLock ? 'took over an unreadable lock file' : `took over the stale lock of pid ${r.staleLock.pid} on ${r.staleLock.host} (locked ${r.staleLock.lockedAt})`);
  if (r.abandonedRewriteBytes > 0) notes.push(`removed ${r.abandonedRewriteBytes} bytes of an interrupted rewrite (the log itself was whole)`);
  if (r.tornTailBytes > 0) notes.push(`cut a torn tail of ${r.tornTailBytes} bytes at byte ${r.validBytes}, copied first to ${r.quarantinePath}`);
  if (r.skipped.length > 0) notes.push(`skipped ${r.skipped.length} damaged line(s) (${listSkipped(r.skipped)}), left in place until the next rewrite moves them to ${r.quarantinePath}`);
  return notes.length === 0 ? undefined : `framed-jsonl ${path}: recovered ${r.records} record(s); ${notes.join('; ')}`;
}

/** An append whose JSON would not read back as a record of the log's kind: refused, nothing written. */
export class FramedRecordRefusedError extends WopkitError<'framed-record-refused'> {
  constructor(readonly path: string) {
    super('framed-record-refused', `${path}: refusing to append a record that would not read back as one of this log's records`);
  }
}

export class FramedJsonlLog<T> {
  readonly path: string;
  readonly quarantinePath: string;
  readonly durable: boolean;
  readonly recovery: RecoveryReport;
  readonly #tempPath: string;
  readonly #logger: (message: string) => void;
  readonly #now: () => number;
  readonly #lock: WriterLock;
  #fd: number | undefined;
  #closed = false;
  /** Bytes in the file: every append goes at this offset. */
  #size = 0;
  #records: T[] = [];
  readonly #isRecord: RecordGuard<T>;
  /** A write or sync that failed in a way that leaves the file's state unknown: no more writes until reopened. */
  #failure: unknown;

  /** Open (or create) the log at `path`, whose records are the values `isRecord` accepts. */
  constructor(path: string, isRecord: RecordGuard<T>, options: FramedJsonlOptions = {}) {
    this.path = path;
    this.#isRecord = isRecord;
    this.quarantinePath = quarantinePathOf(path);
    this.#tempPath = `${path}.rewrite`;
    this.durable = options.durable ?? true;
    this.#logger = options.logger ?? ((m) => console.warn(m));
    this.#now = options.now ?? Date.now;
    this.#lock = acquireWriterLock(path, this.#now);
    try {
      this.recovery = this.#open();
    } catch (e) {
      if (this.#fd !== undefined) closeSync(this.#fd);
      this.#lock.release();
      throw e;
    }
    const line = describeRecovery(path, this.recovery);
    if (line !== undefined) this.#logger(line);
  }

  #open(): RecoveryReport {
    let abandonedRewriteBytes = 0;
    if (existsSync(this.#tempPath)) {
      if (!existsSync(this.path)) throw new Error(`${this.path} is missing but ${this.#tempPath} (an interrupted rewrite) exists: inspect it and rename it by hand`);
      abandonedRewriteBytes = statSync(this.#tempPath).size;
      rmSync(this.#tempPath);
    }
    const fd = (this.#fd = openForAppend(this.path, this.durable));
    const bytes = readWhole(fd);
    const scan = scanFramedLog(bytes, this.#isRecord);
    if (scan.tornTailBytes > 0) {
      this.#quarantine([{ ...this.#entryHeader('torn-tail', scan.lines + 1, scan.validBytes, 'torn-tail'), bytes: scan.tornTailBytes, data: bytes.subarray(scan.validBytes) }]);
      ftruncateSync(fd, scan.validBytes);
      if (this.durable) fdatasyncSync(fd);
    }
    this.#size = scan.validBytes;
    this.#records = scan.spans.map((s) => s.value);
    return {
      records: this.#records.length,
      validBytes: scan.validBytes,
      tornTailBytes: scan.tornTailBytes,
      skipped: scan.skipped,
      quarantinePath: this.quarantinePath,
      ...(this.#lock.tookOver !== undefined ? { staleLock: this.#lock.tookOver } : {}),
      abandonedRewriteBytes,
    };
  }

  #entryHeader(kind: QuarantineEntry['kind'], line: number, byteOffset: number, reason: QuarantineEntry['reason']) {
    return { source: basename(this.path), kind, line, byteOffset, reason, at: new Date(this.#now()).toISOString() };
  }

  #quarantine(entries: readonly QuarantineEntry[]): void {
    appendQuarantine(this.quarantinePath, entries, this.durable);
  }

  #writable(): number {
    if (this.#closed) throw new Error(`${this.path}: the log is closed`);
    if (this.#failure !== undefined || this.#fd === undefined) throw new Error(`${this.path}: an earlier write or sync failed, so the file's state is unknown; reopen the log to recover`, { cause: this.#failure });
    return this.#fd;
  }

  /**
   * Append one record; returns (the stored copy, as a reopen would read it) only once the line is on disk. A record
   * whose JSON would not read back as a record (the guard refuses the copy) is refused before anything is written.
   */
  append(record: T): T {
    const fd = this.#writable();
    const json = recordJson(record);
    const stored: unknown = JSON.parse(json);
    if (!this.#isRecord(stored)) throw new FramedRecordRefusedError(this.path);
    const line = Buffer.from(frameJson(json));
    try {
      writeFully(fd, line);
    } catch (e) {
      try {
        ftruncateSync(fd, this.#size); // never leave a partial line for the next append to merge with
      } catch {
        this.#failure = e;
      }
      throw e;
    }
    if (this.durable) {
      try {
        fdatasyncSync(fd);
      } catch (e) {
        this.#failure = e;
        throw e;
      }
    }
    this.#size += line.length;
    this.#records.push(stored);
    return stored;
  }

  all(): readonly T[] {
    return this.#records;
  }

  /**
   * Keep only the records `keep` accepts (retention, erasure), atomically: damaged lines are first moved to the
   * quarantine, then a new file with the kept lines (byte for byte) is synced, renamed over the log, and the
   * directory synced. `keep` receives the objects `all()` holds.
   */
  rewrite(keep: (record: T) => boolean): RewriteReport {
    const fd = this.#writable();
    const verdicts = this.#records.map((r) => keep(r));
    const bytes = readWhole(fd);
    const scan = scanFramedLog(bytes, this.#isRecord);
    if (scan.spans.length !== this.#records.length || scan.validBytes !== this.#size || scan.tornTailBytes !== 0) {
      throw new Error(`${this.path} changed on disk behind its writer lock (expected ${this.#records.length} records in ${this.#size} bytes, found ${scan.spans.length} in ${bytes.length}); refusing to rewrite it`);
    }
    this.#quarantine(scan.skipped.map((s) => ({ ...this.#entryHeader('skipped-line', s.line, s.byteOffset, s.reason), bytes: s.bytes, data: bytes.subarray(s.byteOffset, s.byteOffset + s.bytes) })));
    const kept: T[] = [];
    const lines: Buffer[] = [];
    this.#records.forEach((record, i) => {
      const span = scan.spans[i];
      if (span === undefined || !verdicts[i]) return;
      kept.push(record);
      lines.push(bytes.subarray(span.byteOffset, span.byteOffset + span.bytes));
    });
    const data = Buffer.concat(lines);
    writeSyncedFile(this.#tempPath, data, fstatSync(fd).mode & 0o777, this.durable);
    renameSync(this.#tempPath, this.path);
    // From here the log is the new file: switch to it, and refuse further writes if that cannot be completed.
    closeSync(fd);
    this.#fd = undefined;
    try {
      this.#fd = openSync(this.path, 'a+');
      if (this.durable) syncDirectory(dirname(this.path));
    } catch (e) {
      this.#failure = e;
      throw e;
    }
    this.#size = data.length;
    this.#records = kept;
    if (scan.skipped.length > 0) this.#logger(`framed-jsonl ${this.path}: rewrite moved ${scan.skipped.length} damaged line(s) (${listSkipped(scan.skipped)}) to ${this.quarantinePath}`);
    return { kept: kept.length, dropped: scan.spans.length - kept.length, quarantined: scan.skipped.length, quarantinePath: this.quarantinePath };
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Close the file and release the writer lock (idempotent). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    this.#lock.release();
  }
}
