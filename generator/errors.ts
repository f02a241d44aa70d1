/** An error the CLI reports as a clear message (exit 2), never as a stack trace. */
export class CorpusError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly pointer: string = '',
  ) {
    super(message);
    this.name = 'CorpusError';
  }
}

/** Escape one JSON-pointer segment. */
export const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
/** Unescape one JSON-pointer segment. */
export const unescapePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');
