/** JSON values as the generator reads and writes them. Pure types: also imported by the site-data format. */

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };
