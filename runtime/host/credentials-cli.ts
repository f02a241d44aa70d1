#!/usr/bin/env -S npx tsx
/**
 * `npm run credentials -- <command>`: the fleet's credentials on a PostgreSQL database (fleet-credentials.ts,
 * docs/host.md "Rotating the fleet's credentials"). The database is WOPKIT_DATABASE_URL's.
 *
 *   status [--credentials FILE]   the fingerprints the fleet accepts (and FILE's, when given)
 *   begin  --credentials FILE     accept FILE's credentials beside the current ones (then restart the hosts with FILE)
 *   finish --credentials FILE     reseal every live secret registry with FILE's first secret key, then accept FILE only
 *
 * Prints what it did on one line; any refusal is one line on stderr and exit 2.
 */
import { readFileSync } from 'node:fs';
import { WopkitError } from '../shared/errors.ts';
import { openStore, type StoragePort } from '../storage/index.ts';
import { Credentials, parseCredentialsFile } from './auth.ts';
import { beginRotation, finishRotation, fingerprint, fleetCredentials, short, type HostCredentials } from './fleet-credentials.ts';
import { hostKeys } from './host-keys.ts';

const USAGE = 'usage: npm run credentials -- status [--credentials FILE] | begin --credentials FILE | finish --credentials FILE';

/** A command line the credentials CLI cannot act on (printed with the usage line). */
class UsageError extends WopkitError<'credentials_cli_usage'> {
  constructor(message: string) {
    super('credentials_cli_usage', message);
  }
}

/** The host credentials a file describes (it must carry its secret keys and cursor key). */
export function credentialsOfFile(path: string, text: string): HostCredentials {
  const credentials = new Credentials(parseCredentialsFile(text, path));
  const keys = hostKeys({ env: {}, file: { path, text }, production: false, store: 'postgres' });
  return { credentials, secretKeys: keys.secretKeys!, cursorKey: keys.cursorKey! };
}

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readFile: (path: string) => string;
  readonly now: () => number;
  readonly out: (line: string) => void;
  /** Opens the fleet's store (default: PostgreSQL at WOPKIT_DATABASE_URL). */
  readonly open?: () => Promise<StoragePort>;
}

/** Run one command; the exit code (0 done, 2 refused: `err` got one line). */
export async function credentialsCli(argv: readonly string[], io: CliIo, err: (line: string) => void): Promise<number> {
  let store: StoragePort | undefined;
  try {
    const [command, ...rest] = argv;
    let file: string | undefined;
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i]!;
      if (a === '--credentials' && rest[i + 1] !== undefined && !rest[i + 1]!.startsWith('--')) file = rest[++i];
      else if (a.startsWith('--credentials=')) file = a.slice('--credentials='.length);
      else throw new UsageError(`unknown argument ${JSON.stringify(a.slice(0, 60))}`);
    }
    if (command !== 'status' && command !== 'begin' && command !== 'finish') throw new UsageError(command === undefined ? 'a command is needed' : `unknown command ${JSON.stringify(command.slice(0, 40))}`);
    if (command !== 'status' && file === undefined) throw new UsageError(`${command} needs --credentials FILE`);
    let host: HostCredentials | undefined;
    if (file !== undefined) {
      let text: string;
      try {
        text = io.readFile(file);
      } catch (e) {
        throw new UsageError(`cannot read the credentials file ${file}: ${(e as NodeJS.ErrnoException).code ?? 'read failed'}`);
      }
      host = credentialsOfFile(file, text);
    }
    const url = io.env.WOPKIT_DATABASE_URL;
    if (io.open === undefined && (url === undefined || url === '')) throw new UsageError('WOPKIT_DATABASE_URL must name the fleet\'s PostgreSQL database');
    store = await (io.open ?? (() => openStore({ kind: 'postgres', url: url! })))();
    if (command === 'status') {
      const fleet = await fleetCredentials(store);
      const mine = host === undefined ? '' : `; ${file}: ${short(fingerprint(host))} (${fleet?.accepted.includes(fingerprint(host)) ? 'accepted' : 'not accepted'})`;
      io.out(`accepted: ${fleet === undefined ? 'none recorded yet (the first host records its own)' : `${fleet.accepted.map(short).join(', ')} since ${fleet.changedAt}`}${mine}`);
    } else if (command === 'begin') {
      const accepted = await beginRotation(store, fingerprint(host!), io.now());
      io.out(`rotation begun: the fleet accepts ${accepted.map(short).join(' and ')}; restart the hosts one at a time with ${file}, then run finish`);
    } else {
      const done = await finishRotation(store, host!, io.now());
      io.out(`rotation finished: ${done.resealed} secret registr${done.resealed === 1 ? 'y' : 'ies'} resealed with key ${host!.secretKeys.active.id}; the fleet accepts ${done.accepted.map(short).join('')} only (hosts with other credentials stop)`);
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError) err(`wopkit credentials: ${e.message} (${USAGE})`);
    else if (e instanceof WopkitError || e instanceof Error) err(`wopkit credentials: ${e.message.replace(/\s+/g, ' ')}`);
    else throw e;
    return 2;
  } finally {
    await store?.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await credentialsCli(process.argv.slice(2), {
    env: process.env, readFile: (p) => readFileSync(p, 'utf8'), now: Date.now, out: (line) => process.stdout.write(`${line}\n`),
  }, (line) => process.stderr.write(`${line}\n`));
}
