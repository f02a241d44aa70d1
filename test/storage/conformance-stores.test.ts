/**
 * The strict conformance suite passes on every storage back-end (scripts/conformance-stores.ts, which also writes
 * the results files the interop matrix shows as one column per back-end). PostgreSQL is an optional toolchain.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeResults } from '../../conformance/cli.ts';
import { SCENARIOS } from '../../conformance/scenarios/index.ts';
import type { StoreKind } from '../../runtime/storage/port.ts';
import { conformanceOnStore, STORE_LABELS } from '../../scripts/conformance-stores.ts';
import { toolchain } from '../support/toolchains.ts';

const pg = toolchain('postgres');
const out = mkdtempSync(join(tmpdir(), 'wopkit-conformance-stores-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('conformance suite (strict) on every storage back-end', () => {
  for (const kind of Object.keys(STORE_LABELS) as StoreKind[]) {
    const skip = kind === 'postgres' && pg.skip;
    it.skipIf(skip)(`${STORE_LABELS[kind]}: every scenario passes, none skipped; the results name the back-end`, async () => {
      if (kind === 'postgres') pg.assert();
      const results = await conformanceOnStore(kind);
      const notPassed = results.scenarios.filter((s) => s.outcome !== 'pass').map((s) => `${s.id}: ${s.reason}`);
      expect(notPassed).toEqual([]);
      expect(results.summary).toEqual({ pass: SCENARIOS.length, fail: 0, skip: 0 });
      expect(results.strict).toBe(true);
      expect(results.host.name).toBe(`wopkit-reference-host (${STORE_LABELS[kind]})`);
      writeResults(out, results);
      expect(readdirSync(out)).toContain(`wopkit-reference-host-${STORE_LABELS[kind]}.latest.json`);
    }, 120_000);
  }
});
