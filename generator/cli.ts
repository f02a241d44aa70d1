#!/usr/bin/env -S npx tsx
/**
 * `wopkit` — the generator CLI. Subcommands: init [dir], gen [--check | --watch [--all]], lint, check-examples,
 * validate <type> <file…|->, compat [--base <git-ref|dir>]; each has --help, and the CLI has --version. Every subcommand
 * takes --format text|json (lint also sarif, compat also markdown), --root <dir> and --progress. Exit 0 clean,
 * 1 findings, 2 usage or I/O error. Errors are printed as one clear message naming file and pointer, never as a stack
 * trace. A subcommand's modules are imported only when it runs: `validate` loads the generated validators and the JSON
 * reader, never the code generators (json-schema-to-typescript, ts-morph, quicktype-core).
 */
import { realpathSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CorpusError, CorpusProblems, type ProblemAt } from './errors.ts';
import { UsageError, placeOf, where, type Format, type Invocation, type Io } from './commands/common.ts';
import { cliVersion } from './version.ts';
import { missingPackageMessage } from './peers.ts';

export { cliVersion };

export { UsageError };

interface OptionSpec {
  readonly flag: string;
  /** The option's value, as the help shows it; an option with one takes the next argument (or `--flag=value`). */
  readonly arg?: string;
  readonly help: string;
}

interface CommandSpec {
  readonly name: string;
  /** Positional arguments, as the synopsis shows them. */
  readonly args: string;
  /** One line for the command overview. */
  readonly summary: string;
  /** What the command does, for its --help. */
  readonly details: readonly string[];
  /** Options of this command only (the global ones are added to every help). */
  readonly options: readonly OptionSpec[];
  /** What exit 0 and exit 1 mean for this command (exit 2 is the same for all). */
  readonly exit: readonly [string, string];
  /** Whether the command takes positional arguments (it checks them itself). */
  readonly takesArgs: boolean;
  /** Output formats beyond text and json, each with its help line. */
  readonly moreFormats?: readonly { readonly format: Format; readonly help: string }[];
  /** Runs the command; imports what it needs only now. */
  readonly run: (p: Invocation, io: Io) => Promise<number>;
}

const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flag: '--format', arg: 'text|json', help: 'output format (default text)' },
  { flag: '--root', arg: '<dir>', help: 'repository root holding schemas/ and generated/ (default: the current directory)' },
  { flag: '--progress', help: 'a line per stage with its time on stderr (default: only when stderr is a terminal and the format is text)' },
  { flag: '-h, --help', help: 'this help' },
];
const FORMATS: readonly Format[] = ['text', 'json', 'sarif', 'markdown'];
const EXIT_2 = 'usage or I/O error: bad flag or argument, unreadable or malformed file, a corpus the command cannot process, a missing package';

const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'init',
    args: '[dir]',
    summary: 'start a corpus: settings, one schema, its examples and a compat baseline',
    details: [
      'Scaffold a corpus in <dir> (relative to --root; default: --root itself) that lint, check-examples, gen --all,',
      'validate and compat accept as created: the settings in package.json ("wopkit": $id base, families and majors,',
      'output names; added to an existing package.json), schemas/<family>/v1/note.schema.json with a valid and an',
      'invalid example of each kind, a README line, and the compat baseline of version 0.1.0. Refuses a folder that',
      'already holds schemas/ or settings. docs/generator.md ("Corpus settings") lists the settings.',
    ],
    options: [
      { flag: '--family', arg: '<name>', help: 'the family (folder under schemas/; default: the folder name in kebab-case)' },
      { flag: '--id-base', arg: '<url>', help: 'the $id base, ending with "/" (default: https://example.org/<family>/schemas/)' },
    ],
    exit: ['the corpus was written', '(not used)'],
    takesArgs: true,
    run: async (p, io) => (await import('./commands/init.ts')).init(p, io),
  },
  {
    name: 'gen',
    args: '',
    summary: 'write generated/ (with --check: compare only; exit 1 when out of date)',
    details: [
      'Load and resolve the corpus under schemas/, refuse one the emitters cannot name or resolve (a schema that is not',
      'valid draft 2020-12, a missing, reserved or duplicate title, a dangling $ref: every one is listed), run the',
      'emitters and write the files of generated/ that changed; a file under an emitter\'s paths that no emitter produced',
      'is removed. The other-language types (quicktype: seconds) are rendered with --all; without it they are written',
      'from the cache when it holds them for this corpus, else left as they are (gen says so). --check covers all.',
    ],
    options: [
      { flag: '--check', help: 'compare with disk instead of writing: list stale, missing and extra files (every emitter)' },
      { flag: '--all', help: 'also render the other-language types (slow); with --watch, on every change' },
      { flag: '--skip', arg: '<emitters>', help: 'leave these emitters out (comma-separated, e.g. other-languages when quicktype-core is not installed)' },
      { flag: '--watch', help: 'stay running: on every change under schemas/ regenerate, lint and check the examples (Ctrl-C stops)' },
    ],
    exit: ['wrote generated/ (with --check: it is up to date; with --watch: stopped by Ctrl-C)', 'with --check: generated/ is out of date'],
    takesArgs: false,
    run: async (p, io) => (await import('./commands/gen.ts')).gen(p, io),
  },
  {
    name: 'lint',
    args: '',
    summary: 'check the corpus rules (docs/generator.md lists them)',
    details: [
      'Check the corpus rules; each finding names its file, line, JSON pointer and rule. A file that does not load',
      '(malformed JSON) is one finding and the other files are still checked. --fix repairs the findings it can',
      '(example-schema: the $schema an example names for editors; id-base: a schema\'s $id), editing only those files,',
      'only there; what it writes is what lint asks for, so the rules it repairs are clean afterwards.',
    ],
    options: [{ flag: '--fix', help: 'repair what can be repaired (example-schema, id-base), then report what is left' }],
    exit: ['clean', 'findings'],
    takesArgs: false,
    moreFormats: [{ format: 'sarif', help: 'SARIF 2.1.0 (code-scanning upload, editors): rules with their docs, results with file, line and pointer' }],
    run: async (p, io) => (await import('./commands/lint.ts')).lint(p, io),
  },
  {
    name: 'check-examples',
    args: '',
    summary: 'every valid example validates, every invalid one fails as declared',
    details: ['Validate every example: a valid one must pass, an invalid one must fail with its declared instancePath and keyword.'],
    options: [],
    exit: ['every example behaves as declared', 'findings'],
    takesArgs: false,
    run: async (p, io) => (await import('./commands/lint.ts')).checkExamples(p, io),
  },
  {
    name: 'validate',
    args: '<type> <file...>',
    summary: 'validate JSON files (or - for standard input) with the generated validators',
    details: [
      'Validate JSON instances with the generated validators (run gen first). <type> is a title (MemoryEntry), an',
      'example target (memory-entry, capabilities--HostInfo), a validator name (validateMemoryEntry), a schema file',
      '(memory-entry.schema.json) or a $id, optionally with #/$defs/<Name>. A file "-" reads one instance from',
      'standard input. Run events are checked through validateRunEvent (envelope, then the payload of a known type).',
      'As in check-examples, a top-level "$schema" names the schema for editors and is not validated, and an invalid',
      'example (examples/<target>/invalid/*.json) is validated by its "instance": both commands agree on every example.',
      'With --profile upstream (type Capabilities), a discovery document is also checked against the MUSTs upstream',
      'OpenWOP\'s conformance suite asserts that need no running host (generator/upstream-profile.ts).',
      'Every major the corpus generates is searched: a title names one type in one major (MemoryEntryV2); a target,',
      'file or $id shared by two majors names the first major\'s type unless --major names another (--major v2).',
    ],
    options: [
      { flag: '--profile', arg: 'upstream', help: 'also check upstream OpenWOP\'s discovery MUSTs (type Capabilities only)' },
      { flag: '--major', arg: '<vN>', help: 'look the type up in this major\'s generated validators first (default: the first major)' },
    ],
    exit: ['every instance is valid', 'an instance is invalid'],
    takesArgs: true,
    run: async (p, io) => (await import('./commands/validate.ts')).validate(p, io),
  },
  {
    name: 'compat',
    args: '',
    summary: 'classify every schema change since a baseline as additive, breaking or neutral',
    details: [
      'Compare the corpus with a baseline and classify every change per type and JSON pointer as additive, breaking or',
      'neutral, by the direction of the shape (x-direction: request, response or both; docs/generator.md has the rules).',
      'A breaking change must be acknowledged: an RFC whose front matter `affects` the schema says',
      '`compatibility: breaking`, or a CHANGELOG entry under a new major version names the type and the field.',
    ],
    options: [
      {
        flag: '--base',
        arg: '<git-ref|dir>',
        help: 'the baseline: a git ref (read with git archive, offline) or a directory holding schemas/; default: the last v* release tag, else the newest compat/baseline/<version>/',
      },
      { flag: '--snapshot', arg: '<version>', help: 'instead of comparing: write the current schemas as the committed baseline compat/baseline/<version>/ (a release without tags)' },
      { flag: '--majors', help: 'instead of comparing with a baseline: every change of the types two majors share (openwop v1 → v2), classified the same way; exit 0' },
    ],
    exit: ['no breaking change, or every one is acknowledged', 'a breaking change is not acknowledged'],
    takesArgs: false,
    moreFormats: [{ format: 'markdown', help: 'a Markdown report (for a pull-request comment)' }],
    run: async (p, io) => (await import('./commands/compat.ts')).compat(p, io),
  },
  {
    name: 'certify',
    args: '[keygen|verify <bundle>|matrix-row <bundle>]',
    summary: 'run the conformance suite against a host and write a signed OpenWOP bundle v3; verify one',
    details: [
      'Without a subcommand: run the conformance suite against --base-url (as `npm run conformance` does), capture the',
      'host\'s discovery document, and write upstream OpenWOP\'s certification bundle v3 to --out (default',
      'conformance/bundles/): the OpenWOP requirement rows keyed by id, claimedProfiles derived from the discovery',
      'document, witnessSha256, assertionCount, and an Ed25519 signature by --key. It prints the INTEROP-MATRIX row.',
      '`certify keygen` writes a new key file (mode 0600) and prints the signingKeys[] entry a host publishes;',
      '`certify verify <bundle>` resolves the key from the host\'s signingKeys[] (--discovery, else the bundle\'s',
      'discovery.url) and checks the signature and every predicate that applies to one bundle, naming each failure;',
      '`certify matrix-row <bundle>` prints the matrix row. docs/certify.md has the details.',
    ],
    options: [
      { flag: '--base-url', arg: '<url>', help: 'the host to certify (default OPENWOP_BASE_URL)' },
      { flag: '--api-key', arg: '<key>', help: 'the suite\'s bearer key (default OPENWOP_API_KEY)' },
      { flag: '--strict', help: 'strict mode: a missing seam or unadvertised behaviour fails (OPENWOP_REQUIRE_BEHAVIOR)' },
      { flag: '--key', arg: '<file>', help: 'the Ed25519 private key file that signs the bundle' },
      { flag: '--build', arg: '<kind:id>', help: 'the host build the bundle attributes to (image-digest|commit|artifact-sha256; default: discovery host.build)' },
      { flag: '--evidence-tier', arg: 'self|independent', help: 'default self; independent needs --verifier-key distinct from --key' },
      { flag: '--verifier-key', arg: '<file>', help: 'a verifier\'s key file, for evidenceTier independent' },
      { flag: '--out', arg: '<path>', help: 'keygen: the key file (default wopkit-signing-key.pem); certify: the bundle folder' },
      { flag: '--discovery', arg: '<url|file>', help: 'verify: where the host\'s signingKeys[] are read (default: the bundle\'s discovery.url)' },
    ],
    exit: ['done (verify: the bundle verifies)', 'verify: a predicate failed; certify: the run had failures (the bundle is written)'],
    takesArgs: true,
    run: async (p, io) => {
      const { certify } = await import('../conformance/certify/cli.ts');
      return certify({ args: p.args, values: p.values ?? new Map(), flags: p.flags, format: p.format === 'json' ? 'json' : 'text' }, { out: io.out, err: io.err, env: process.env });
    },
  },
];

const optionLines = (options: readonly OptionSpec[]): string[] => {
  const label = (o: OptionSpec) => (o.arg ? `${o.flag} ${o.arg}` : o.flag);
  const width = Math.max(...options.map((o) => label(o).length)) + 2;
  return options.map((o) => `  ${label(o).padEnd(width)}${o.help}`);
};

/** The --help of one command: usage, what it does, options, exit codes. */
function commandHelp(c: CommandSpec): string {
  const own = c.options.map((o) => ` [${o.arg ? `${o.flag} ${o.arg}` : o.flag}]`).join('');
  const formats = ['text', 'json', ...(c.moreFormats ?? []).map((f) => f.format)].join('|');
  return [
    `usage: wopkit ${c.name}${c.args ? ` ${c.args}` : ''}${own} [--format ${formats}] [--root <dir>]`,
    '',
    ...c.details,
    '',
    'options:',
    ...optionLines([...c.options, ...(c.moreFormats ?? []).map((f) => ({ flag: '--format', arg: f.format, help: f.help })), ...GLOBAL_OPTIONS]),
    '',
    'exit codes:',
    `  0  ${c.exit[0]}`,
    `  1  ${c.exit[1]}`,
    `  2  ${EXIT_2}`,
  ].join('\n');
}

/** The overview: every command, the global options, where to read more. */
function overviewHelp(): string {
  const synopsis = (c: CommandSpec) => `${c.name}${c.args ? ` ${c.args}` : ''}${c.options.map((o) => ` [${o.flag}]`).join('')}`;
  const width = Math.max(...COMMANDS.map((c) => synopsis(c).length)) + 2;
  return [
    'usage: wopkit <command> [options]',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${synopsis(c).padEnd(width)}${c.summary}`),
    '',
    'options:',
    ...optionLines([...GLOBAL_OPTIONS, { flag: '--version', help: 'print the version' }]),
    '',
    'Run `wopkit <command> --help` for a command\'s options and exit codes.',
    'Exit codes: 0 clean, 1 findings, 2 usage or I/O error.',
  ].join('\n');
}

type Parsed = { kind: 'run'; spec: CommandSpec; invocation: Invocation } | { kind: 'help'; text: string } | { kind: 'version' };

const commandNamed = (name: string): CommandSpec => {
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec) throw new UsageError(`unknown command "${name}"`);
  return spec;
};

export function parseArgs(argv: readonly string[]): Parsed {
  let format: Format = 'text';
  let root = process.cwd();
  let help = false;
  let version = false;
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const rest: string[] = [];
  const commandOptions = new Map(COMMANDS.flatMap((c) => c.options.map((o) => [o.flag, o] as const)));
  /** The value of an option given as `--flag value` or `--flag=value`. */
  const valueOf = (a: string, i: number): [string | undefined, number] => (a.includes('=') ? [a.slice(a.indexOf('=') + 1), i] : [argv[i + 1], i + 1]);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const flag = a.startsWith('--') && a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (flag === '--format') {
      const [v, next] = valueOf(a, i);
      i = next;
      if (!FORMATS.includes(v as Format))
        throw new UsageError(`--format must be "text" or "json" (lint also "sarif", compat also "markdown")${v === undefined ? '' : `, not "${v}"`}`);
      format = v as Format;
    } else if (flag === '--root') {
      const [v, next] = valueOf(a, i);
      i = next;
      if (!v) throw new UsageError('--root needs a directory');
      root = resolve(v);
    } else if (a === '-h' || a === '--help') help = true;
    else if (a === '--version') version = true;
    else if (a === '--progress') flags.add(a);
    else if (commandOptions.get(flag)?.arg !== undefined) {
      const [v, next] = valueOf(a, i);
      i = next;
      if (!v || v.startsWith('--')) throw new UsageError(`${flag} needs a value (${commandOptions.get(flag)?.arg})`);
      values.set(flag, v);
      flags.add(flag);
    } else if (commandOptions.has(a)) flags.add(a);
    else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option "${a}"`);
    else rest.push(a);
  }
  if (version) return { kind: 'version' };
  let name = rest.shift();
  if (name === 'help') {
    help = true;
    name = rest.shift();
  }
  if (help) return { kind: 'help', text: name === undefined ? overviewHelp() : commandHelp(commandNamed(name)) };
  if (name === undefined) throw new UsageError('no command given');
  const spec = commandNamed(name);
  for (const flag of flags)
    if (flag !== '--progress' && !spec.options.some((o) => o.flag === flag))
      throw new UsageError(`${flag} only applies to ${COMMANDS.filter((c) => c.options.some((o) => o.flag === flag)).map((c) => c.name).join(', ')}`);
  const formats = ['text', 'json', ...(spec.moreFormats ?? []).map((f) => f.format)];
  if (!formats.includes(format)) throw new UsageError(`--format must be ${formats.map((f) => `"${f}"`).join(', ').replace(/, ([^,]+)$/, ' or $1')} for ${name}, not "${format}"`);
  if (!spec.takesArgs && rest.length) throw new UsageError(`unexpected argument "${rest[0]}" for ${name}`);
  return { kind: 'run', spec, invocation: { command: name, args: rest, format, root, flags, values } };
}

/** The package named by a failed import ("Cannot find package 'x'"), if that is what failed. */
export function missingPackage(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const message = e instanceof Error ? e.message : '';
  if (code === 'ERR_MODULE_NOT_FOUND') return /Cannot find package '([^']+)'/.exec(message)?.[1];
  if (code === 'MODULE_NOT_FOUND') {
    const spec = /Cannot find module '([^'./][^']*)'/.exec(message)?.[1];
    return spec?.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
  }
  return undefined;
}

const defaultIo: Io = { out: (s) => console.log(s), err: (s) => console.error(s), errIsTerminal: process.stderr.isTTY === true };

/** Run the CLI; returns the exit code. Never throws. */
export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  // The requested format, known before parsing so that a usage error is reported in it too.
  let format: Format = argv.some((a, i) => a === '--format=json' || a === '--format=sarif' || (a === '--format' && (argv[i + 1] === 'json' || argv[i + 1] === 'sarif'))) ? 'json' : 'text';
  let command = 'wopkit';
  const fail = (message: string, file?: string, pointer?: string): number => {
    if (format === 'json') io.out(JSON.stringify({ ok: false, error: { message, ...(file ? { file } : {}), ...(pointer !== undefined && file ? { pointer } : {}) } }, null, 2));
    else io.err(`wopkit: error: ${file ? `${where(file, pointer ?? '')}: ` : ''}${message}`);
    return 2;
  };
  /** Every reason the corpus was refused: one line each (file:line:column: #pointer: message [rule]), then how many. */
  const refused = (problems: readonly ProblemAt[]): number => {
    const first = problems[0]!;
    if (format === 'json') io.out(JSON.stringify({ ok: false, error: { message: first.message, file: first.file, pointer: first.pointer }, problems }, null, 2));
    else {
      for (const p of problems) io.err(`wopkit: error: ${placeOf(p)}: ${p.message} [${p.rule}]`);
      io.err(`wopkit: ${command} refused the corpus: ${problems.length} problem${problems.length === 1 ? '' : 's'}, nothing written`);
    }
    return 2;
  };
  try {
    const p = parseArgs(argv);
    if (p.kind === 'version') {
      io.out(format === 'json' ? JSON.stringify({ name: 'wopkit', version: cliVersion() }) : `wopkit ${cliVersion()}`);
      return 0;
    }
    if (p.kind === 'help') {
      io.out(p.text);
      return 0;
    }
    format = p.invocation.format;
    command = p.invocation.command;
    return await p.spec.run(p.invocation, io);
  } catch (e) {
    try {
      if (e instanceof UsageError) {
        const code = fail(e.message);
        if (format === 'text') io.err('run `wopkit --help` for usage');
        return code;
      }
      if (e instanceof CorpusProblems) return refused(e.problems);
      if (e instanceof CorpusError) return fail(e.message, e.file, e.pointer);
      const pkg = missingPackage(e);
      if (pkg !== undefined) return fail(missingPackageMessage(command, pkg));
      return fail(`unexpected failure: ${e instanceof Error ? e.message : String(e)}`);
    } catch {
      return 2; // the error channel itself failed; nothing left to print to
    }
  }
}

/** True when this file is the entry point, also when started through a symlink (an npm `bin` link). */
function isEntryPoint(): boolean {
  const arg = process.argv[1];
  if (arg === undefined) return false;
  try {
    return realpathSync(resolve(arg)) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * Run the CLI as the process: the compile cache, one line and exit 2 for whatever escapes, the exit code of `main`.
 * The bin (bin.ts, after its Node version check) calls this; so does this module when it is started directly.
 */
export function runAsEntryPoint(argv: readonly string[] = process.argv.slice(2)): void {
  // Node keeps the compiled code of the modules loaded from here on (the commands load theirs on demand), keyed by
  // their contents: a fresh process starts some 100 ms sooner. A cache that cannot be used only costs that time.
  enableCompileCache?.();
  // The last line of defence: whatever escapes (an error thrown after main returned, in a callback) is one line, exit 2.
  const last = (e: unknown) => {
    process.stderr.write(`wopkit: error: unexpected failure: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  };
  process.on('uncaughtException', last);
  process.on('unhandledRejection', last);
  main(argv).then((code) => (process.exitCode = code), last);
}

if (isEntryPoint()) runAsEntryPoint();
