/**
 * The watch loop: a {@link DirectoryWatch} on schemas/ (every directory, not every file: a save that replaces the file
 * — write a temporary file and rename it over, as vim, `sed -i` and safe-write editors do — is an event in its
 * directory, while a watch on the file itself would stay on the replaced inode and hear nothing more), a debounce so
 * that one save (editors write, rename and touch) is one run, and a queue so that edits during a run lead to exactly
 * one more run after it. Each run reads every file afresh, so it sees each file's final content whatever the editor
 * did in between. Each run's report goes to `onReport`; the loop survives anything a run throws (reported as a
 * problem) and stops on `stop()`.
 */
import { existsSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import { CorpusError } from '../errors.ts';
import { join } from 'node:path';
import type { RunReport } from './session.ts';
import { WatchSession } from './session.ts';

/** Milliseconds of quiet after the last file event before a run starts. */
export const DEBOUNCE_MS = 40;

/** Whether a changed file name (relative to schemas/) can matter: JSON files, not editor temporaries. */
export const isRelevant = (name: string): boolean => name.endsWith('.json') && !/(^|[\\/])(\.#|#)|~$|\.sw[px]$/.test(name);

/** Every directory under `root` (itself included), absolute paths. */
function directoriesUnder(root: string): string[] {
  const out = [root];
  try {
    for (const d of readdirSync(root, { recursive: true, withFileTypes: true })) if (d.isDirectory()) out.push(join(d.parentPath, d.name));
  } catch {
    // the tree changes while it is read (a folder removed): the next event syncs again
  }
  return out;
}

/**
 * One `fs.watch` per directory under a root (Node's recursive watch on Linux watches files by inode and goes deaf to a
 * file replaced by a rename). Any event whose name is not a relevant file may be a folder that came or went: the set
 * of watched directories is synced with the tree, and when it changed `onChange` is called (a new folder's files,
 * written before its watch was in place, are read by the run it causes); an editor temporary causes no run.
 */
export class DirectoryWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  readonly root: string;
  private readonly onChange: () => void;
  private readonly onError: (e: unknown) => void;

  constructor(root: string, onChange: () => void, onError: (e: unknown) => void) {
    this.root = root;
    this.onChange = onChange;
    this.onError = onError;
    this.sync();
  }

  /** The directories watched now. */
  get directories(): string[] {
    return [...this.watchers.keys()].sort();
  }

  /** Watch every directory of the tree, and no directory that is gone; whether any came or went. */
  sync(): boolean {
    if (this.closed) return false;
    const now = new Set(existsSync(this.root) ? directoriesUnder(this.root) : []);
    let changed = false;
    for (const [dir, w] of this.watchers)
      if (!now.has(dir)) {
        w.close();
        this.watchers.delete(dir);
        changed = true;
      }
    for (const dir of now) if (!this.watchers.has(dir)) changed = this.add(dir) || changed;
    return changed;
  }

  private add(dir: string): boolean {
    let w: FSWatcher;
    try {
      w = watch(dir, (_event, name) => this.event(name === null ? null : String(name)));
    } catch {
      return false; // gone before it could be watched: the event that removed it syncs again
    }
    // A watched directory removed (or its watch failing) is not the loop's failure: sync with the tree and run.
    w.on('error', () => {
      this.watchers.get(dir)?.close();
      this.watchers.delete(dir);
      this.event(null);
    });
    this.watchers.set(dir, w);
    return true;
  }

  private event(name: string | null): void {
    if (this.closed) return;
    if (name !== null && isRelevant(name)) return this.onChange();
    // Not a corpus file: an editor temporary (no run), or a folder that came or went (a run: files written into a
    // new folder before its watch was in place, or gone with a removed one, are read by it).
    let changed = name === null;
    try {
      changed = this.sync() || changed;
    } catch (e) {
      this.onError(e);
    }
    if (changed) this.onChange();
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}

export interface WatcherOptions {
  readonly all?: boolean;
  readonly onReport: (report: RunReport) => void;
  /** Called with an error a run threw that is not a corpus problem (the loop keeps going). */
  readonly onError: (error: unknown) => void;
}

export class Watcher {
  readonly session: WatchSession;
  private dirWatch: DirectoryWatch | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  readonly root: string;
  private readonly options: WatcherOptions;

  constructor(root: string, options: WatcherOptions) {
    this.root = root;
    this.options = options;
    this.session = new WatchSession(root, options.all ? { all: true } : {});
  }

  /** Run once, then watch. Resolves when the first run has been reported. */
  async start(): Promise<void> {
    const schemas = join(this.root, 'schemas');
    if (!existsSync(schemas)) throw new CorpusError('directory not found (the corpus root given by --root must contain schemas/)', schemas);
    this.dirWatch = new DirectoryWatch(schemas, () => this.schedule(), (e) => this.options.onError(e));
    await this.runNow();
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.runNow(), DEBOUNCE_MS);
  }

  /** Run now, or once more after the run in progress. */
  private async runNow(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          const report = await this.session.run();
          if (!this.stopped) this.options.onReport(report);
        } catch (e) {
          if (!this.stopped) this.options.onError(e);
        }
      } while (this.again && !this.stopped);
    })();
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /** Stop watching; waits for a run in progress to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.dirWatch?.close();
    await this.running;
    await this.session.close();
  }
}
