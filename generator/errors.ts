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

/** One reason a command refuses the corpus, where it is (line and column when known). */
export interface ProblemAt {
  readonly file: string;
  readonly pointer: string;
  readonly rule: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * Every reason `gen` refuses the corpus, found in one pass (the CLI prints each as one line). Its own message, file and
 * pointer are the first problem's, so code that reports a single CorpusError still says something true.
 */
export class CorpusProblems extends CorpusError {
  readonly problems: readonly ProblemAt[];

  constructor(problems: readonly ProblemAt[]) {
    const first = problems[0];
    if (first === undefined) throw new Error('CorpusProblems needs at least one problem');
    super(`${first.message} [${first.rule}]`, first.file, first.pointer, first.line === undefined ? undefined : { line: first.line, column: first.column ?? 1 });
    this.name = 'CorpusProblems';
    this.problems = problems;
  }
}
