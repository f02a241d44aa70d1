/**
 * Reading the rows the database driver answers. A session answers untyped rows (`Row`: column name → whatever the
 * driver gave); every query reads its columns through these readers, each a `typeof` check on one value, so a column
 * that does not hold what the store wrote there is a `StoreCorruptError` naming its table and column — never a value
 * of the wrong type passed on under a type the query wished for.
 *
 * What the drivers give: `node:sqlite` answers number (integers within 2^53), string, null (and bigint or Uint8Array,
 * which no column of the store holds); `pg` answers string for text, number for int4 and for int8 (the pool parses
 * int8 as a number, `PG_TYPES`), and strings for types the store does not use (numeric). Booleans are kept as 0/1,
 * instants as epoch milliseconds, documents as JSON text.
 *
 * Loaded on the SQLite writer thread too (TypeScript Node can strip: no parameter properties, no enums).
 */
import type { MemoryEntry, RunEvent } from '../../../generated/ts/index.ts';
import { StoreCorruptError } from '../corrupt.ts';
import type { JsonDoc } from '../port.ts';
import type { Row } from './session.ts';

/** What a value is, for an error message (its type, never its content). */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing (no such column)';
  if (typeof v === 'number' && !Number.isSafeInteger(v)) return 'a number that is not a safe integer';
  if (typeof v === 'object') return v instanceof Uint8Array ? 'bytes' : 'an object';
  return `a ${typeof v}`;
}

/** A parsed JSON value is an object document (JSON.parse yields JSON values only, so an object is a JsonDoc). */
const isDocument = (v: unknown): v is JsonDoc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored memory entry has the members every MemoryEntry has (a typeof check per member, not a schema validation). */
const isEntryDoc = (d: JsonDoc): d is JsonDoc & MemoryEntry =>
  typeof d.id === 'string' && typeof d.content === 'string' && typeof d.createdAt === 'string' && Array.isArray(d.tags) && d.tags.every((t) => typeof t === 'string');

/** A stored run event has the members every RunEvent has (a typeof check per member, not a schema validation). */
const isEventDoc = (d: JsonDoc): d is JsonDoc & RunEvent =>
  typeof d.eventId === 'string' && typeof d.runId === 'string' && typeof d.type === 'string' && typeof d.timestamp === 'string' && typeof d.sequence === 'number' && isDocument(d.payload);

/** The column readers of one table (or query): each answers the column's value as its type, or throws `StoreCorruptError`. */
export interface Columns {
  /** The table the errors name. */
  readonly table: string;
  readonly text: (row: Row, column: string) => string;
  /** A text column that may be NULL: undefined for NULL. */
  readonly optText: (row: Row, column: string) => string | undefined;
  readonly textOrNull: (row: Row, column: string) => string | null;
  /** An integer column (a safe integer). */
  readonly int: (row: Row, column: string) => number;
  /** An integer column that may be NULL: undefined for NULL. */
  readonly optInt: (row: Row, column: string) => number | undefined;
  readonly intOrNull: (row: Row, column: string) => number | null;
  /** A boolean kept as 0/1. */
  readonly flag: (row: Row, column: string) => boolean;
  /** A key column (text or integer), as a statement parameter. */
  readonly key: (row: Row, column: string) => string | number;
  /** A JSON object document kept as text. */
  readonly doc: (row: Row, column: string) => JsonDoc;
  /** A JSON object document that may be NULL: undefined for NULL. */
  readonly optDoc: (row: Row, column: string) => JsonDoc | undefined;
  /** A stored memory entry (JSON text). */
  readonly entry: (row: Row, column: string) => MemoryEntry;
  /** A stored run event (JSON text). */
  readonly event: (row: Row, column: string) => RunEvent;
}

/** The column readers whose errors name `table`. */
export function columnsOf(table: string): Columns {
  const corrupt = (column: string, wanted: string, found: string): StoreCorruptError =>
    new StoreCorruptError(table, `column ${column} holds ${found} where the store keeps ${wanted}`);
  const text = (row: Row, column: string): string => {
    const v = row[column];
    if (typeof v !== 'string') throw corrupt(column, 'text', kindOf(v));
    return v;
  };
  const textOrNull = (row: Row, column: string): string | null => {
    const v = row[column];
    if (v === null) return null;
    if (typeof v !== 'string') throw corrupt(column, 'text or NULL', kindOf(v));
    return v;
  };
  const int = (row: Row, column: string): number => {
    const v = row[column];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw corrupt(column, 'an integer', kindOf(v));
    return v;
  };
  const intOrNull = (row: Row, column: string): number | null => {
    const v = row[column];
    if (v === null) return null;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw corrupt(column, 'an integer or NULL', kindOf(v));
    return v;
  };
  const parsed = (column: string, json: string): JsonDoc => {
    let v: unknown;
    try {
      v = JSON.parse(json);
    } catch {
      throw corrupt(column, 'a JSON document', 'text that is not JSON');
    }
    if (!isDocument(v)) throw corrupt(column, 'a JSON object document', Array.isArray(v) ? 'a JSON array' : `JSON ${kindOf(v)}`);
    return v;
  };
  const doc = (row: Row, column: string): JsonDoc => parsed(column, text(row, column));
  return Object.freeze({
    table,
    text,
    optText: (row: Row, column: string) => textOrNull(row, column) ?? undefined,
    textOrNull,
    int,
    optInt: (row: Row, column: string) => intOrNull(row, column) ?? undefined,
    intOrNull,
    flag: (row: Row, column: string) => {
      const v = int(row, column);
      if (v !== 0 && v !== 1) throw corrupt(column, 'a flag (0 or 1)', kindOf(v));
      return v === 1;
    },
    key: (row: Row, column: string) => {
      const v = row[column];
      if (typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v))) return v;
      throw corrupt(column, 'a key (text or an integer)', kindOf(v));
    },
    doc,
    optDoc: (row: Row, column: string) => {
      const t = textOrNull(row, column);
      return t === null ? undefined : parsed(column, t);
    },
    entry: (row: Row, column: string) => {
      const d = doc(row, column);
      if (!isEntryDoc(d)) throw corrupt(column, 'a memory entry', 'a document without the members of one');
      return d;
    },
    event: (row: Row, column: string) => {
      const d = doc(row, column);
      if (!isEventDoc(d)) throw corrupt(column, 'a run event', 'a document without the members of one');
      return d;
    },
  });
}
