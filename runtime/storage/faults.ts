/**
 * A store's health as every back-end keeps it: whether the last write succeeded (GET /readyz), and the one fatal
 * error — corrupt data — after which the store takes nothing more and its listeners are told once (the host stops).
 */
import { CORRUPT_REASON, StoreCorruptError, type StoreHealth } from './port.ts';

export class StoreFaults {
  readonly #location: string;
  readonly #listeners: ((err: StoreCorruptError) => void)[] = [];
  #health: StoreHealth = { writable: true };
  #fatal: StoreCorruptError | undefined;

  constructor(location: string) {
    this.#location = location;
  }

  get health(): StoreHealth {
    return this.#health;
  }

  /** The fatal error, once raised. */
  get fatal(): StoreCorruptError | undefined {
    return this.#fatal;
  }

  /** A write succeeded (writable) or failed for want of space or the server (`reason`, one line). */
  writable(ok: true): void;
  writable(ok: false, reason: string): void;
  writable(ok: boolean, reason?: string): void {
    if (this.#fatal !== undefined) return;
    this.#health = ok ? { writable: true } : { writable: false, reason: (reason ?? 'unknown').slice(0, 300) };
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
