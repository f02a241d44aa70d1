/**
 * A store's health as every back-end keeps it (GET /readyz), and its two ends:
 *
 * - Writable or not: the first write refused for want of space or server turns the store unwritable at once, and it
 *   stays so until a write succeeds *and* the back-end's `recovered` check agrees (SQLite: the filesystem has room
 *   again) — a small write that happened to fit in a full disk's last free pages does not make the host ready.
 * - Halted: the store found something that no retry mends (its files replaced or removed under it): it takes no
 *   more writes (every commit 503), stays unwritable, and says why once, in one line on stderr.
 * - Fatal: corrupt data met; the store takes nothing more and its listeners are told once (the host stops).
 */
import { CORRUPT_REASON, StoreCorruptError, StoreUnavailableError, type StoreHealth } from './port.ts';

export class StoreFaults {
  readonly #location: string;
  readonly #listeners: ((err: StoreCorruptError) => void)[] = [];
  readonly #recovered: () => boolean;
  #health: StoreHealth = { writable: true };
  #fatal: StoreCorruptError | undefined;
  #halted: StoreUnavailableError | undefined;

  /** `recovered`: whether the cause of a refused write has gone (asked before a success makes the store writable again). */
  constructor(location: string, recovered: () => boolean = () => true) {
    this.#location = location;
    this.#recovered = recovered;
  }

  get health(): StoreHealth {
    return this.#health;
  }

  /** The fatal error, once raised. */
  get fatal(): StoreCorruptError | undefined {
    return this.#fatal;
  }

  /** What every commit meets once the store halted. */
  get halted(): StoreUnavailableError | undefined {
    return this.#halted;
  }

  /** A write succeeded (writable) or failed for want of space or the server (`reason`, one line). */
  writable(ok: true): void;
  writable(ok: false, reason: string): void;
  writable(ok: boolean, reason?: string): void {
    if (this.#fatal !== undefined || this.#halted !== undefined) return;
    if (!ok) this.#health = { writable: false, reason: (reason ?? 'unknown').slice(0, 300) };
    else if (!this.#health.writable && this.#recovered()) this.#health = { writable: true };
  }

  /** Stop taking writes for good (`reason`, one line): said once on stderr; every commit then fails with the returned error. */
  halt(reason: string): StoreUnavailableError {
    if (this.#fatal !== undefined) return new StoreUnavailableError(CORRUPT_REASON);
    if (this.#halted === undefined) {
      const line = reason.replace(/\s+/g, ' ').trim().slice(0, 300);
      this.#halted = new StoreUnavailableError(line);
      this.#health = { writable: false, reason: line };
      process.stderr.write(`wopkit store at ${this.#location}: not acknowledging writes any more: ${line}\n`);
    }
    return this.#halted;
  }

  /** Corrupt data met: the store is done; every listener is told, once. */
  raiseFatal(message: string): StoreCorruptError {
    if (this.#fatal === undefined) {
      this.#fatal = new StoreCorruptError(this.#location, message.slice(0, 300));
      this.#health = { writable: false, reason: CORRUPT_REASON };
      for (const l of this.#listeners) l(this.#fatal);
    }
    return this.#fatal;
  }

  onFatal(listener: (err: StoreCorruptError) => void): void {
    this.#listeners.push(listener);
    if (this.#fatal !== undefined) listener(this.#fatal);
  }
}
