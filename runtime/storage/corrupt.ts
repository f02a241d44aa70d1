/**
 * The error of a store whose data is corrupt, in a module of its own: the column readers raise it on the SQLite writer
 * thread too, which loads only TypeScript Node can strip (no parameter properties).
 */
import { WopkitError } from '../shared/errors.ts';

/** The store's data is corrupt: the process stops with one line (exit 2) rather than serve or write more. */
export class StoreCorruptError extends WopkitError<'store_corrupt'> {
  /** Where: the store's location, or the table whose row did not decode. */
  readonly location: string;
  /** What was found (a column holding what the store never writes there, an integrity check's report). */
  readonly detail: string;

  constructor(location: string, detail: string) {
    super('store_corrupt', `the store at ${location} is corrupt (${detail}); stop the host, restore the data directory from a backup, or move it aside and start empty`);
    this.location = location;
    this.detail = detail;
  }
}
