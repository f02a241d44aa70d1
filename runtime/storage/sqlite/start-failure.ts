/**
 * Why the SQLite writer thread could not start, in one line — never "corrupt" unless the file fails its check
 * (`quickCheck`): a store that is fine must not send its operator to a backup.
 */
import { accessSync, constants } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { WopkitError } from '../../shared/errors.ts';
import { sqliteCode } from './session.ts';

/** The writer thread of a SQLite store could not start; the message says why, in one line. */
export class StoreWriterStartError extends WopkitError<'store_writer_start'> {
  constructor(readonly file: string, reason: string) {
    super('store_writer_start', `the SQLite store ${file} cannot take writes: its writer thread could not start (${reason.replace(/\s+/g, ' ').trim().slice(0, 300)})`);
  }
}

/** Why the file cannot be opened for writing, as the filesystem says it (undefined when it can). */
function accessProblem(file: string): string | undefined {
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    return ({ EACCES: 'permission denied', EPERM: 'permission denied', EROFS: 'read-only filesystem', ENOENT: 'no such file' } as Record<string, string>)[code] ?? code;
  }
}

/** One line for a failure the writer thread met while starting (opening the file, setting its pragmas, loading its module). */
export function startFailureReason(file: string, err: { readonly message: string; readonly code?: unknown; readonly errcode?: unknown }): string {
  const message = err.message.replace(/\s+/g, ' ').trim();
  if (err.code === 'ERR_UNKNOWN_BUILTIN_MODULE' || /node:sqlite/.test(message)) return `node:sqlite is unavailable in this Node (${process.version}); run the host through npm (npm start), which uses the project's Node`;
  switch (sqliteCode(err)) {
    case 5:
      return `the database is locked by another connection: ${message}`;
    case 8:
      return `cannot open ${file} for writing: read-only (${accessProblem(file) ?? message})`;
    case 14:
      return `cannot open ${file}: ${accessProblem(file) ?? message}`;
    default:
      return message;
  }
}

/** `PRAGMA quick_check` on an open connection: the problems it reports (none for a sound file). */
export function quickCheck(db: DatabaseSync): string[] {
  try {
    return db.prepare('PRAGMA quick_check(5)').all().map((r) => String(r.quick_check).replace(/\s+/g, ' ').trim()).filter((v) => v !== 'ok');
  } catch (err) {
    return sqliteCode(err) === 11 || sqliteCode(err) === 26 ? [(err as Error).message] : [];
  }
}
