/**
 * Where `npm start` gets its API keys (docs/host.md, "Credentials"), checked before the host listens:
 *
 * - `--credentials <file.json>` (or `--credentials=<file.json>`) / `WOPKIT_CREDENTIALS_FILE`: the credentials file;
 * - `WOPKIT_API_KEYS`: more keys, `<key>=<tenant>:tenant,<key>=*:operator`;
 * - `OPENWOP_HOST_TOKEN`: the development token, an operator key.
 *
 * Development (the default): the sources add up; with none, a random operator token is generated and printed.
 * Production (`NODE_ENV=production` or `--production`): a credentials file is required and the development token
 * is refused. Any problem is a `CredentialsError` whose message names the source and entry, never a key.
 */
import { randomBytes } from 'node:crypto';
import { Credentials, CredentialsError, devTokenEntry, parseApiKeysEnv, parseCredentialsFile, type CredentialEntry } from './auth.ts';

export interface StartInput {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Read a file as UTF-8 (throws when it cannot). */
  readonly readFile: (path: string) => string;
}

export interface StartCredentials {
  readonly credentials: Credentials;
  readonly production: boolean;
  /** The development token when one is in use (from the environment, or generated): printed for conformance runs. */
  readonly devToken?: string;
  /** The credentials file read, when one was given (its other keys are read by host-keys.ts). */
  readonly file?: { readonly path: string; readonly text: string };
}

interface StartArgs {
  readonly credentialsFile?: string;
  readonly production: boolean;
}

function parseArgs(argv: readonly string[]): StartArgs {
  let credentialsFile: string | undefined;
  let production = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--production') production = true;
    else if (a === '--credentials') {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new CredentialsError('--credentials needs a file path');
      credentialsFile = next;
    } else if (a.startsWith('--credentials=')) credentialsFile = a.slice('--credentials='.length);
    else throw new CredentialsError(`unknown argument ${JSON.stringify(a.slice(0, 60))} (the credential flags are --credentials <file.json> and --production; npm start -- --help lists every flag)`);
  }
  return { ...(credentialsFile !== undefined ? { credentialsFile } : {}), production };
}

/** The credentials `npm start` runs with, or a CredentialsError saying why it must not start. */
export function startCredentials({ argv, env, readFile }: StartInput): StartCredentials {
  const args = parseArgs(argv);
  const production = args.production || env.NODE_ENV === 'production';
  const file = args.credentialsFile ?? (env.WOPKIT_CREDENTIALS_FILE || undefined);
  const token = env.OPENWOP_HOST_TOKEN || undefined;
  if (production && file === undefined) {
    throw new CredentialsError('production mode (NODE_ENV=production or --production) needs a credentials file: --credentials <file.json> or WOPKIT_CREDENTIALS_FILE');
  }
  if (production && token !== undefined) {
    throw new CredentialsError('OPENWOP_HOST_TOKEN is a development token and is refused in production mode; put an operator key in the credentials file');
  }
  const entries: CredentialEntry[] = [];
  let text: string | undefined;
  if (file !== undefined) {
    try {
      text = readFile(file);
    } catch (err) {
      throw new CredentialsError(`cannot read the credentials file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'read failed'}`);
    }
    entries.push(...parseCredentialsFile(text, file));
  }
  if (env.WOPKIT_API_KEYS !== undefined && env.WOPKIT_API_KEYS !== '') entries.push(...parseApiKeysEnv(env.WOPKIT_API_KEYS));
  const devToken = token ?? (entries.length === 0 ? randomBytes(24).toString('base64url') : undefined);
  if (devToken !== undefined) entries.push(devTokenEntry(devToken));
  return { credentials: new Credentials(entries), production, ...(devToken !== undefined ? { devToken } : {}), ...(file !== undefined && text !== undefined ? { file: { path: file, text } } : {}) };
}
