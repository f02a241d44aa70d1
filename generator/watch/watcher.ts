/**
 * The watch loop: node:fs `watch` (recursive) on schemas/, a debounce so that one save (editors write, rename and
 * touch) is one run, and a queue so that edits during a run lead to exactly one more run after it. Each run's report
 * goes to `onReport`; the loop survives anything a run throws (reported as a problem) and stops on `stop()`.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { CorpusError } from '../errors.ts';
import { join } from 'node:path';
import type { RunReport } from './session.ts';
import { WatchSession } from './session.ts';

/** Milliseconds of quiet after the last file event before a run starts. */
export const DEBOUNCE_MS = 40;

/** Whether a changed file name (relative to schemas/) can matter: JSON files, not editor temporaries. */
export const isRelevant = (name: string): boolean => name.endsWith('.json') && !/(^|[\\/])(\.#|#)|~$|\.sw[px]$/.test(name);

export interface WatcherOptions {
  readonly all?: boolean;
  readonly onReport: (report: RunReport) => void;
  /** Called with an error a run threw that is not a corpus problem (the loop keeps going). */
  readonly onError: (error: unknown) => void;
}

export class Watcher {
  readonly session: WatchSession;
  private fsWatcher: FSWatcher | undefined;
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
    this.fsWatcher = watch(schemas, { recursive: true }, (_event, name) => {
      if (name === null || isRelevant(String(name))) this.schedule();
    });
    this.fsWatcher.on('error', (e) => this.options.onError(e));
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
    this.fsWatcher?.close();
    await this.running;
    await this.session.close();
  }
}
