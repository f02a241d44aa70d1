/** Settings of the bare Fastify peer (bare-host.ts) its launchers share, kept apart so importing them starts nothing. */

/** A SQLite store the runtime created: the bare peer then commits each seed's entry row into it (the durable ceiling). */
export const BARE_DURABLE_ENV = 'BARE_DURABLE_FILE';
