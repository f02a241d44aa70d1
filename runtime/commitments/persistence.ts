/**
 * What the commitment engine tells a durable store, injected as `CommitmentEngineOptions.persistence` (absent: the
 * engine keeps everything in memory, as before). The engine calls `armed` / `disarmed` after it changed its armed
 * set, and asks `claimFire` before a fire takes effect: only the caller the store answers `true` to fires, so an
 * instance fires once even across a restart or several host processes sharing one store.
 *
 * `restoring` is how a host re-arms what the store holds at start without writing it back.
 */
import type { Commitment } from './inference.ts';

export interface CommitmentPersistence {
  /** A commitment was armed (tenant bound). */
  armed(c: Commitment): void;
  /**
   * A predicate commitment's edge state changed (last value, rising edges so far): stored so that after a restart
   * its next rising edge gets the next instance number instead of one the ledger already holds.
   */
  predicateChanged(c: Commitment, state: { readonly last: boolean; readonly transitions: number }): void;
  /** A commitment was cancelled. */
  disarmed(c: Commitment): void;
  /**
   * Claim one condition instance; resolves true for exactly one caller ever. A time commitment's claim also
   * removes it from the durable armed set (it has one instance).
   */
  claimFire(c: Commitment, instance: string, firedAt: number): Promise<boolean>;
}
