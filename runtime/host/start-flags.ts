/**
 * Every setting `npm start` reads, in one table: each command-line flag with the environment variable that sets the
 * same thing, and the settings read from the environment only. `npm start -- --help` prints this table (and the limit
 * variables of limits.ts); the flag parser refuses an unknown flag with the list of every flag; a test scans the
 * runtime's sources for environment reads and fails when one is not in the help.
 *
 * The flags are parsed here once: the storage flags then go to store-args.ts, the credential flags to
 * auth-config.ts, and `--port` / `--host` decide where the host listens.
 */
import { LIMIT_NAMES, LIMITS } from './limits.ts';
import { WopkitError } from '../shared/errors.ts';

/** What a setting configures; `npm start -- --help` groups them so. */
export type SettingGroup = 'listen' | 'storage' | 'credentials' | 'behaviour';

export interface StartSetting {
  /** The command-line flag (`--name`), when there is one. */
  readonly flag?: `--${string}`;
  /** The value a flag takes (`DIR`, `FILE`); absent for a switch. */
  readonly value?: string;
  /** The environment variable that sets the same thing (a flag wins over it). */
  readonly env?: string;
  /** The default, as the help shows it. */
  readonly default?: string;
  readonly group: SettingGroup;
  readonly description: string;
}

export const START_SETTINGS = [
  { flag: '--port', value: 'PORT', env: 'PORT', default: '8787', group: 'listen', description: 'TCP port to listen on (0: any free port).' },
  { flag: '--host', value: 'ADDRESS', env: 'HOST', default: '127.0.0.1', group: 'listen', description: 'Address to listen on (0.0.0.0: every interface).' },
  { flag: '--store', value: 'memory|sqlite|postgres', default: 'sqlite', group: 'storage', description: 'Where state lives (docs/storage.md).' },
  { flag: '--data-dir', value: 'DIR', default: './.wopkit-data', group: 'storage', description: 'The SQLite data directory (one host process per directory).' },
  { env: 'WOPKIT_DATABASE_URL', group: 'storage', description: 'postgres://user:password@host:port/database, for --store postgres.' },
  { env: 'WOPKIT_PG_POOL_SIZE', default: '10', group: 'storage', description: 'PostgreSQL connections of this host (1-100); the hosts of a fleet together stay under the server\'s max_connections.' },
  { env: 'WOPKIT_PG_LISTEN', default: 'on', group: 'storage', description: 'off behind a pooler in transaction mode (LISTEN cannot work there): new work of other hosts is then found within a second.' },
  { flag: '--credentials', value: 'FILE', env: 'WOPKIT_CREDENTIALS_FILE', group: 'credentials', description: 'The credentials file (docs/host.md, "Credentials").' },
  { flag: '--production', env: 'NODE_ENV', default: 'off (NODE_ENV=production turns it on)', group: 'credentials', description: 'Require a credentials file and refuse the development token.' },
  { env: 'WOPKIT_API_KEYS', group: 'credentials', description: 'More keys: <key>=<tenant>:tenant,<key>=*:operator (comma-separated).' },
  { env: 'OPENWOP_HOST_TOKEN', group: 'credentials', description: 'The development operator token (a random one is printed when no key is configured).' },
  { env: 'WOPKIT_SECRET_KEYS', group: 'credentials', description: 'id:base64,… — the keys SR-1 secret registries are sealed with (or "secretKeys" in the credentials file; the first seals).' },
  { env: 'WOPKIT_CURSOR_KEY', group: 'credentials', description: 'base64 of at least 16 bytes — the key list cursors are signed with (or "cursorKey" in the credentials file).' },
  { env: 'WOPKIT_DRAIN_DELAY_MS', default: '0', group: 'behaviour', description: 'On SIGTERM, how long the host keeps serving with /readyz at 503 before it stops accepting connections (time for a load balancer to notice).' },
  { env: 'WOPKIT_DRAIN_GRACE_MS', default: '10000', group: 'behaviour', description: 'On SIGTERM, the longest the host then waits for requests in flight; past it, it exits 1 with one line.' },
  { env: 'OPENWOP_CONFORMANCE_SEED', default: 'false', group: 'behaviour', description: 'true: seed the conformance fixture workflows upstream\'s suite runs.' },
  { env: 'WOPKIT_MEMORY_ATTRIBUTION', default: 'on', group: 'behaviour', description: 'off: no RFC 0057 memory.written events and no memory.attribution in discovery (a host without write attribution).' },
  { env: 'LOG_LEVEL', default: 'info', group: 'behaviour', description: 'pino log level (fatal, error, warn, info, debug, trace, silent).' },
  { flag: '--help', group: 'behaviour', description: 'Print this help and exit.' },
] as const satisfies readonly StartSetting[];

export type StartFlag = Extract<(typeof START_SETTINGS)[number], { readonly flag: string }>['flag'];

/** A command line `npm start` refuses (exit 2 before anything starts); the message names the argument and lists every flag. */
export class StartFlagError extends WopkitError<'invalid_start_flag'> {
  constructor(message: string) {
    super('invalid_start_flag', message);
  }
}

const FLAGS = START_SETTINGS.filter((s): s is Extract<(typeof START_SETTINGS)[number], { readonly flag: string }> => 'flag' in s);
const flagList = (): string => FLAGS.map((s) => ('value' in s ? `${s.flag} ${s.value}` : s.flag)).join(', ');

/** The flags given, by flag (a switch maps to `true`); each flag at most once, each value-taking flag with a value. */
export function parseStartFlags(argv: readonly string[]): ReadonlyMap<StartFlag, string | true> {
  const out = new Map<StartFlag, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const setting = FLAGS.find((s) => a === s.flag || ('value' in s && a.startsWith(`${s.flag}=`)));
    if (setting === undefined) throw new StartFlagError(`unknown argument ${JSON.stringify(a.slice(0, 60))}; the flags are ${flagList()} (npm start -- --help)`);
    if (out.has(setting.flag)) throw new StartFlagError(`${setting.flag} given twice`);
    if (!('value' in setting)) {
      out.set(setting.flag, true);
      continue;
    }
    const value = a === setting.flag ? argv[++i] : a.slice(setting.flag.length + 1);
    if (value === undefined || value === '' || (a === setting.flag && value.startsWith('--'))) throw new StartFlagError(`${setting.flag} needs a value (${setting.value})`);
    out.set(setting.flag, value);
  }
  return out;
}

/** The flags back as arguments, for the parsers of one group (store-args.ts, auth-config.ts). */
export function argsOf(flags: ReadonlyMap<StartFlag, string | true>, group: SettingGroup): string[] {
  return FLAGS.filter((s) => s.group === group && flags.has(s.flag)).flatMap((s) => {
    const v = flags.get(s.flag)!;
    return v === true ? [s.flag] : [`${s.flag}=${v}`];
  });
}

/** Where to listen: `--port`/`PORT` (an integer 0–65535) and `--host`/`HOST`, flags first. */
export function listenOf(flags: ReadonlyMap<StartFlag, string | true>, env: Readonly<Record<string, string | undefined>>): { port: number; host: string } {
  const rawPort = flags.get('--port') ?? env.PORT ?? '8787';
  const port = typeof rawPort === 'string' && /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new StartFlagError(`--port / PORT must be an integer from 0 to 65535 (got ${JSON.stringify(String(rawPort).slice(0, 40))})`);
  const host = flags.get('--host') ?? env.HOST ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '' || /\s/.test(host)) throw new StartFlagError('--host / HOST must be an address such as 127.0.0.1 or 0.0.0.0');
  return { port, host };
}

/** How a stop drains (main.ts): the delay before the host stops accepting, and the grace for requests in flight. */
export function drainOf(env: Readonly<Record<string, string | undefined>>): { delayMs: number; graceMs: number } {
  const ms = (name: string, fallback: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= 0 && n <= max)) throw new StartFlagError(`${name} must be an integer number of milliseconds from 0 to ${max} (got ${JSON.stringify(raw.slice(0, 40))})`);
    return n;
  };
  return { delayMs: ms('WOPKIT_DRAIN_DELAY_MS', 0, 600_000), graceMs: ms('WOPKIT_DRAIN_GRACE_MS', 10_000, 3_600_000) };
}

const GROUP_TITLES: Readonly<Record<SettingGroup, string>> = { listen: 'Listening', storage: 'Storage', credentials: 'Credentials', behaviour: 'Behaviour' };

/** The text of `npm start -- --help`: every setting of the table, then every limit variable of limits.ts. */
export function startHelp(): string {
  const lines = ['Usage: npm start -- [flags]', '', 'The wopkit reference host. Each flag has an environment variable that sets the same thing (the flag wins).', ''];
  for (const group of Object.keys(GROUP_TITLES) as SettingGroup[]) {
    lines.push(`${GROUP_TITLES[group]}:`);
    for (const s of START_SETTINGS.filter((x) => x.group === group) as readonly StartSetting[]) {
      const name = s.flag === undefined ? `${s.env} (environment only)` : `${s.flag}${s.value !== undefined ? ` ${s.value}` : ''}${s.env !== undefined ? `  [${s.env}]` : ''}`;
      lines.push(`  ${name}`, `      ${s.description}${s.default !== undefined ? ` Default: ${s.default}.` : ''}`);
    }
    lines.push('');
  }
  lines.push('Limits (environment only; docs/security.md, "Request handling limits"):');
  for (const name of LIMIT_NAMES) {
    const l = LIMITS[name];
    lines.push(`  ${l.env}`, `      ${l.bounds} (${l.unit}). Default: ${l.default}.`);
  }
  return `${lines.join('\n')}\n`;
}
