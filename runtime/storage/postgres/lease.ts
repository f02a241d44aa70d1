/**
 * One pooled connection checked out for one transaction, with its faults handled.
 *
 * `pg` emits `'error'` on a client whose connection fails — the server ended the session (57P01 from
 * `pg_terminate_backend`, 25P03 after `idle_in_transaction_session_timeout`, a shutdown), or the socket closed
 * ("Connection terminated unexpectedly") — and the pool listens only on the clients it holds idle. A checked-out
 * client with no listener turns that event into an uncaught exception: the process dies with every request it was
 * answering. A lease listens for the whole time it holds the client, remembers the first such fault (`lost`), and
 * on release destroys a client that was lost or left in an unknown state instead of handing it back to the pool:
 * the next request gets a fresh connection.
 */
import type pg from 'pg';

export class Lease {
  readonly client: pg.PoolClient;
  #lost: Error | undefined;
  #released = false;
  readonly #onError = (err: Error): void => {
    this.#lost ??= err;
  };

  private constructor(client: pg.PoolClient) {
    this.client = client;
    client.on('error', this.#onError);
  }

  /** Check a client out of `pool`, listening for its faults at once. */
  static async take(pool: pg.Pool): Promise<Lease> {
    return new Lease(await pool.connect());
  }

  /** The fault that ended this connection, if one did. */
  get lost(): Error | undefined {
    return this.#lost;
  }

  /**
   * Give the client back: to the pool when it is sound (`broken` false and no fault heard), otherwise destroyed.
   * Idempotent.
   */
  release(broken: boolean): void {
    if (this.#released) return;
    this.#released = true;
    const destroy = broken || this.#lost !== undefined;
    // The pool puts its own idle listener back on a client it keeps; a destroyed client may still emit as its
    // socket closes, so it keeps a listener that swallows that.
    if (!destroy) this.client.removeListener('error', this.#onError);
    this.client.release(destroy ? (this.#lost ?? new Error('connection left in an unknown state')) : undefined);
  }
}
