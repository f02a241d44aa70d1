/** An error the CLI reports as a clear message (exit 2), never as a stack trace. */
export class CorpusError extends Error {
  readonly file: string;
  readonly pointer: string;
  /** Where in the file, when known (1-based): a JSON syntax error's position, or the line of the pointer. */
  readonly position?: { readonly line: number; readonly column: number };

  constructor(message: string, file: string, pointer = '', position?: { readonly line: number; readonly column: number }) {
    super(message);
    this.name = 'CorpusError';
    this.file = file;
    this.pointer = pointer;
    if (position !== undefined) this.position = position;
  }
}

/** Escape one JSON-pointer segment. */
export const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
/** Unescape one JSON-pointer segment. */
export const unescapePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');
