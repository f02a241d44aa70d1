import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { FramedJsonlLog, frame, readQuarantine } from '../../../../runtime/inquirium/storage/framed-jsonl.ts';
import { recordFor, spawnChild } from './records.ts';
import { scratchLogs } from './scratch.ts';
import { anyRecord, isCrashRecord, isIdV } from './guards.ts';

const logIn = scratchLogs('crash');
const quiet = { logger: () => {} };

type Op = { readonly append: unknown } | { readonly deleteMask: number };
const op: fc.Arbitrary<Op> = fc.oneof({ arbitrary: fc.record({ append: fc.jsonValue() }), weight: 4 }, { arbitrary: fc.record({ deleteMask: fc.nat() }), weight: 1 });

describe('JSONL crash safety', () => {
  it('appends and deletes, then a crash at any byte: reopening yields exactly the acknowledged prefix, byte-identical, no torn record (property)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), fc.nat(), (ops, cutSeed) => {
        const p = logIn();
        const log = new FramedJsonlLog(p, isIdV, { ...quiet, durable: false });
        // the model: acknowledged records still live, with the exact line each was written as
        let live: { record: unknown; line: Buffer }[] = [];
        let id = 0;
        for (const o of ops) {
          if ('append' in o) {
            const record = { id: id++, v: o.append };
            log.append(record);
            live.push({ record: JSON.parse(JSON.stringify(record)), line: Buffer.from(frame(record)) });
          } else {
            const dropped = (n: number) => (Math.imul(n, 2654435761) + o.deleteMask) % 3 === 0;
            log.rewrite((r) => !dropped(r.id));
            live = live.filter((l) => !dropped((l.record as { id: number }).id));
          }
        }
        log.close();
        const file = readFileSync(p);
        expect(file).toEqual(Buffer.concat(live.map((l) => l.line)));

        // crash: the file as it might be found after power loss mid-append, cut at any byte (on a copy)
        const cut = cutSeed % (file.length + 1);
        const copy = logIn();
        writeFileSync(copy, file.subarray(0, cut));
        let end = 0;
        const survivors = live.filter((l) => (end += l.line.length) <= cut);
        const whole = Buffer.concat(survivors.map((l) => l.line));
        const reopened = new FramedJsonlLog(copy, anyRecord, quiet);
        expect(reopened.all()).toEqual(survivors.map((l) => l.record));
        expect(readFileSync(copy)).toEqual(whole);
        expect(reopened.recovery).toMatchObject({ records: survivors.length, tornTailBytes: cut - whole.length, skipped: [] });
        if (cut > whole.length) expect(readQuarantine(`${copy}.quarantine`).entries.map((e) => e.data)).toEqual([file.subarray(whole.length, cut)]);
        reopened.close();
      }),
      { numRuns: 120 },
    );
  });

  it('kill -9 at random moments while a child process appends: every acknowledged record is present and intact', { timeout: 120_000 }, async () => {
    const ROUNDS = 20;
    const seed = Date.now() >>> 0;
    const delays = fc.sample(fc.integer({ min: 0, max: 120 }), { numRuns: ROUNDS, seed });
    const p = logIn();
    let next = 0;
    let acknowledged = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const why = `seed ${seed}, round ${round}`;
      const acked: number[] = [];
      let ready = false;
      let onReady: () => void = () => {};
      const isReady = new Promise<void>((resolve) => (onReady = resolve));
      const child = spawnChild(['append', p, String(next)], (line) => {
        if (line === 'ready') {
          ready = true;
          onReady();
        } else acked.push(Number(line));
      });
      // every fifth round is killed at a random moment of start-up and recovery, the others while appending
      if (round % 5 !== 4) await Promise.race([isReady, child.exited]);
      await sleep(delays[round]!);
      child.kill('SIGKILL');
      await child.exited;

      const log = new FramedJsonlLog(p, isCrashRecord, quiet);
      const ids = log.all().map((r) => r.id);
      expect(ids, why).toEqual(Array.from({ length: ids.length }, (_, i) => i)); // in order, none lost, none twice
      for (const r of log.all()) expect(r, why).toEqual(recordFor(r.id)); // intact
      const lastAcked = acked.at(-1) ?? next - 1;
      expect(ids.length, why).toBeGreaterThanOrEqual(lastAcked + 1); // every acknowledged id is there
      expect(ids.length, why).toBeLessThanOrEqual(lastAcked + 2); // at most the one record written but not yet acknowledged
      expect(log.recovery.skipped, why).toEqual([]);
      if (ready) expect(log.recovery.staleLock, why).toMatchObject({ pid: child.pid });
      acknowledged += acked.length;
      next = ids.length;
      log.close();
    }
    expect(acknowledged).toBeGreaterThan(ROUNDS); // the kills did land among appends
  });
});
