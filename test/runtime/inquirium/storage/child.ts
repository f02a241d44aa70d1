/**
 * A second process for the JSONL store's lock and crash tests (spawned with `node --import tsx`):
 *   hold <log>            open the log, print `locked`, keep it open until killed
 *   try <log>             try to open the log, print one JSON line {ok, name?, message?, holderPid?}, exit
 *   append <log> <first>  open the log, print `ready`, then append records first, first+1, … forever, printing each
 *                         id on its own line only after append returned (acknowledged)
 */
import { writeSync } from 'node:fs';
import { FramedJsonlLog, LogLockedError } from '../../../../runtime/inquirium/storage/framed-jsonl.ts';
import { anyRecord, isCrashRecord } from './guards.ts';
import { recordFor } from './records.ts';

const say = (line: string): void => void writeSync(1, `${line}\n`);
const [mode, path, first] = process.argv.slice(2);
if (path === undefined) throw new Error('usage: child.ts hold|try|append <log> [first]');
const logger = (m: string): void => void writeSync(2, `${m}\n`);

if (mode === 'hold') {
  new FramedJsonlLog(path, anyRecord, { logger });
  say('locked');
  setInterval(() => {}, 60_000);
} else if (mode === 'try') {
  try {
    new FramedJsonlLog(path, anyRecord, { logger }).close();
    say(JSON.stringify({ ok: true }));
  } catch (e) {
    const err = e as Error;
    say(JSON.stringify({ ok: false, name: err.name, message: err.message, ...(e instanceof LogLockedError ? { holderPid: e.holder.pid } : {}) }));
  }
} else if (mode === 'append') {
  const log = new FramedJsonlLog(path, isCrashRecord, { logger });
  say('ready');
  for (let id = Number(first); ; id++) {
    log.append(recordFor(id));
    say(String(id));
  }
} else throw new Error(`unknown mode ${mode}`);
