/**
 * The heavy test files: run by `npm run test:soak`, left out of `npm test`; CI runs both (.ci/run). One list of
 * patterns, so the split depends on no other file: a new crash campaign under test/storage/crash/ joins the soak set by
 * its folder, anything else by a line here.
 *
 * - test/storage/crash/: kill -9 crash campaigns (SQLite, PostgreSQL with one and three hosts), minutes each;
 * - test/storage/fleet-faults.test.ts: a host frozen for a minute mid-transaction, and one killed, in a fleet of three;
 * - test/storage/faults/pg-connection-faults.test.ts: a PostgreSQL host's busy connections terminated ×20 and the host
 *   frozen inside a write transaction for 12 s ×5, under 8 writers (about two minutes);
 * - test/package/consumer.test.ts: packs the packages and installs them into scratch projects (npm install, tsc);
 * - test/package/snippets-packed.test.ts: the code blocks of README.md and docs/*.md compiled and run from the packed
 *   tarballs installed in a scratch project (npm install, tsc, the strict conformance suite), sh blocks in a repository copy;
 * - test/site/site.test.ts: the browser sweep over every built page of the site (layout at two widths, diagrams, links);
 * - test/site/reader.test.ts: the reader's acceptance in Chromium (layout at two widths and themes, search ranking,
 *   the playground against the CLI on the corpus, axe on every tested page), over three minutes;
 * - test/host/openapi-fuzz-soak.test.ts: the OpenAPI-driven fuzz of the host, 6,000 requests over loopback;
 * - test/bench/smoke.test.ts: the library-API benchmarks run to the end at a tiny scale (their measuring rounds are
 *   fixed, so even tiny they take over a minute on two cores).
 */
export const SOAK_FILES: readonly string[] = ['test/storage/crash/**/*.test.ts', 'test/storage/fleet-faults.test.ts', 'test/storage/faults/pg-connection-faults.test.ts', 'test/package/consumer.test.ts', 'test/package/snippets-packed.test.ts', 'test/site/site.test.ts', 'test/site/reader.test.ts', 'test/host/openapi-fuzz-soak.test.ts', 'test/bench/smoke.test.ts'];
