/**
 * TEST ONLY: a SQLite writer thread module that cannot load, as on a Node without `node:sqlite` (its import of a
 * built-in module that does not exist fails before any of its code runs).
 */
// @ts-expect-error no such built-in module: loading this file must fail
import 'node:sqlite_unavailable_in_this_test';
