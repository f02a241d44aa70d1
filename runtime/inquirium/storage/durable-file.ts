/**
 * The few file primitives the framed log needs to keep its durability contract: write a whole buffer, read a whole
 * file through an open descriptor, sync a file's data, sync a directory (so a created or renamed entry survives a
 * power loss), append durably to a side file, and write the complete new file of an atomic replace.
 *
 * Every sync is skipped when `durable` is false — an opt-out for tests and benchmarks only, never for real data.
 */
import { closeSync, existsSync, fdatasyncSync, fstatSync, fsyncSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Write all of `data` (a write may be partial). */
export function writeFully(fd: number, data: Buffer): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

/** Read the whole file behind an open descriptor, from byte 0, whatever the descriptor's position. */
export function readWhole(fd: number): Buffer {
  const size = fstatSync(fd).size;
  const out = Buffer.alloc(size);
  let done = 0;
  while (done < size) {
    const n = readSync(fd, out, done, size - done, done);
    if (n === 0) break;
    done += n;
  }
  return done === size ? out : out.subarray(0, done);
}

/** fsync a directory, so an entry created or renamed in it is on disk. (Windows cannot open a directory.) */
export function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Open `path` for append (and positional reads), creating it with mode 0600; a new entry's directory is synced. */
export function openForAppend(path: string, durable: boolean): number {
  const created = !existsSync(path);
  const fd = openSync(path, 'a+', 0o600);
  if (created && durable) {
    try {
      fsyncSync(fd);
      syncDirectory(dirname(path));
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }
  return fd;
}

/** Append `data` to a side file and, when durable, fdatasync it before returning (the directory too if new). */
export function appendDurably(path: string, data: Buffer, durable: boolean): void {
  const fd = openForAppend(path, durable);
  try {
    writeFully(fd, data);
    if (durable) fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Write a complete new file (mode `mode`) and sync it, for a later atomic rename over the file it replaces. On
 * failure the partial file is removed.
 */
export function writeSyncedFile(path: string, data: Buffer, mode: number, durable: boolean): void {
  const fd = openSync(path, 'w', mode);
  try {
    writeFully(fd, data);
    if (durable) fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw e;
  }
  closeSync(fd);
}
