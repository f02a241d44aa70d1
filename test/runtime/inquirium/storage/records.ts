/** Records of the crash tests and their child process: each is fully determined by its id, so "intact" is checkable. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface CrashRecord {
  readonly id: number;
  readonly pad: string;
  readonly tail: number[];
}

export const recordFor = (id: number): CrashRecord => ({ id, pad: 'é'.repeat(id % 61) + '\u2028"\\', tail: [id, id * 31, id % 7] });

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Spawn the helper with this Node and tsx; stdout arrives line by line through `onLine`. */
export function spawnChild(args: readonly string[], onLine: (line: string) => void = () => {}): ChildProcess & { readonly exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', TSX, CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      onLine(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
    }
  });
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return Object.assign(child, { exited });
}

/** Spawn the helper and resolve with its first stdout line matching `test` (reject if it exits first). */
export function firstLine(args: readonly string[], test: (line: string) => boolean): { child: ReturnType<typeof spawnChild>; line: Promise<string> } {
  let found: (line: string) => void = () => {};
  const child = spawnChild(args, (l) => {
    if (test(l)) found(l);
  });
  const line = new Promise<string>((resolve, reject) => {
    found = resolve;
    void child.exited.then((code) => reject(new Error(`child exited (${code}) before the expected line`)));
  });
  return { child, line };
}
