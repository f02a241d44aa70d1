/**
 * `wopkit/v2/run-events` — OpenWOP v2 run-event validation: the v2 envelope first, then the payload through the v2
 * type → payload index (v2 event names) in O(1); unknown event types are tolerated (envelope only).
 */
export * from '../generated/run-events/v2/index.ts';
