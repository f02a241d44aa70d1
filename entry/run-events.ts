/**
 * `wopkit/run-events` — run-event validation: the envelope first, then the payload through the type → payload
 * index in O(1); unknown event types are tolerated (envelope only), as the spec requires.
 */
export * from '../generated/run-events/index.ts';
