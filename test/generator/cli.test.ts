/** CLI behaviour: exit codes, messages naming file + pointer, no stack traces, gen --check detection, help, version, lazy imports. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { FIXTURE, REPO, run, scratchFixture } from './helpers.ts';
import { main } from '../../generator/cli.ts';

const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('wopkit CLI on a scratch copy of the fixture corpus', () => {
  let root = '';
  let cleanup = () => {};
  beforeEach(() => ({ root, cleanup } = scratchFixture()));
  afterEach(() => cleanup());

  const schemaPath = (name: string) => join(root, 'schemas/demo/v1', name);

  it('gen writes, then gen --check is clean (text and json)', async () => {
    expect((await run(['gen', '--all', '--root', root])).code).toBe(0);
    const text = await run(['gen', '--check', '--root', root]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/up to date/);
    const json = await run(['gen', '--check', '--root', root, '--format', 'json']);
    expect(JSON.parse(json.out)).toMatchObject({ ok: true, stale: [], missing: [], extra: [] });
  });

  it('gen --check detects a hand-edited, a deleted and an extra file', async () => {
    await run(['gen', '--all', '--root', root]);
    appendFileSync(join(root, 'generated/ts/config.ts'), '// hand edit\n');
    rmSync(join(root, 'generated/guards/index.ts'));
    writeFileSync(join(root, 'generated/ts/stray.ts'), 'export {};\n');
    mkdirSync(join(root, 'generated/site-data/demo'), { recursive: true });
    writeFileSync(join(root, 'generated/site-data/demo/old.json'), '{}\n');
    const r = await run(['gen', '--check', '--root', root, '--format', 'json']);
    expect(r.code).toBe(1);
    const body = JSON.parse(r.out);
    expect(body.stale).toEqual(['generated/ts/config.ts']);
    const lines = readFileSync(join(root, 'generated/ts/config.ts'), 'utf8').split('\n').length;
    expect(body.staleAt).toEqual({ 'generated/ts/config.ts': lines - 1 }); // the appended line
    expect(body.missing).toEqual(['generated/guards/index.ts']);
    expect(body.extra).toEqual(['generated/site-data/demo/old.json', 'generated/ts/stray.ts']);
    const t = await run(['gen', '--check', '--root', root]);
    expect(t.code).toBe(1);
    expect(t.out).toMatch(/stale: +generated\/ts\/config\.ts \(differs from line \d+\)/);
    expect(t.out).toMatch(/missing: generated\/guards\/index\.ts/);
    expect(t.out).toMatch(/extra: +generated\/ts\/stray\.ts/);
    // gen repairs all three
    expect((await run(['gen', '--all', '--root', root])).code).toBe(0);
    expect((await run(['gen', '--check', '--root', root])).code).toBe(0);
  });

  it('files outside the owned subtrees are not "extra"', async () => {
    await run(['gen', '--all', '--root', root]);
    mkdirSync(join(root, 'generated/hand-written-notes'), { recursive: true });
    writeFileSync(join(root, 'generated/hand-written-notes/x.md'), '');
    expect((await run(['gen', '--check', '--root', root])).code).toBe(0);
  });

  it('malformed schema JSON: exit 2, file + line/column, no stack (lint: one finding, exit 1)', async () => {
    writeFileSync(schemaPath('shared.schema.json'), '{\n  "title": "X",\n  oops\n}\n');
    for (const cmd of [['gen'], ['gen', '--check']]) {
      const r = await run([...cmd, '--root', root]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/schemas\/demo\/v1\/shared\.schema\.json: malformed JSON at line 3, column 3/);
      noStack(r.err);
    }
    // lint keeps going past a file that does not load: the file is one finding, the others are checked.
    const l = await run(['lint', '--root', root]);
    expect(l.code).toBe(1);
    expect(l.out).toMatch(/schemas\/demo\/v1\/shared\.schema\.json:3:3: malformed JSON at line 3, column 3/);
    noStack(l.out + l.err);
    const j = await run(['gen', '--root', root, '--format', 'json']);
    expect(JSON.parse(j.out).error.file).toBe('schemas/demo/v1/shared.schema.json');
  });

  it('dangling $ref: gen exits 2 naming file, line, column and pointer, with a did-you-mean; lint reports the same', async () => {
    const s = JSON.parse(readFileSync(schemaPath('config.schema.json'), 'utf8'));
    s.properties.label.$ref = './shared.schema.json#/$defs/Labl';
    writeFileSync(schemaPath('config.schema.json'), JSON.stringify(s, null, 2));
    const g = await run(['gen', '--root', root]);
    expect(g.code).toBe(2);
    expect(g.err.split('\n')).toEqual([
      'wopkit: error: schemas/demo/v1/config.schema.json:11:7: #/properties/label/$ref: "$ref" "./shared.schema.json#/$defs/Labl" does not resolve offline (did you mean "./shared.schema.json#/$defs/Label"?) [ref-resolves]',
      'wopkit: gen refused the corpus: 1 problem, nothing written',
    ]);
    noStack(g.err);
    const l = await run(['lint', '--root', root, '--format', 'json']);
    expect(l.code).toBe(1);
    expect(JSON.parse(l.out).findings).toContainEqual(
      expect.objectContaining({ file: 'schemas/demo/v1/config.schema.json', pointer: '/properties/label/$ref', rule: 'ref-resolves', message: expect.stringContaining('did you mean "./shared.schema.json#/$defs/Label"') }),
    );
    // a typo in the file part: the closest schema file, keeping the pointer when it resolves there
    s.properties.label.$ref = './shard.schema.json#/$defs/Label';
    writeFileSync(schemaPath('config.schema.json'), JSON.stringify(s, null, 2));
    expect((await run(['gen', '--root', root])).err).toContain('(did you mean "./shared.schema.json#/$defs/Label"?)');
    // nothing close: no suggestion
    s.properties.label.$ref = './elsewhere.schema.json#/$defs/Label';
    writeFileSync(schemaPath('config.schema.json'), JSON.stringify(s, null, 2));
    expect((await run(['gen', '--root', root])).err).toMatch(/does not resolve offline \[ref-resolves\]/);
  });

  it('gen reports every reason it refuses the corpus in one run, each with its line and column, JSON too', async () => {
    const config = JSON.parse(readFileSync(schemaPath('config.schema.json'), 'utf8'));
    config.properties.parts.minItems = 'one';
    config.properties.settings.$ref = './shared.schema.json#/$defs/Setings';
    writeFileSync(schemaPath('config.schema.json'), JSON.stringify(config, null, 2));
    const shared = JSON.parse(readFileSync(schemaPath('shared.schema.json'), 'utf8'));
    shared.$defs.Label.title = 'DemoSettings';
    writeFileSync(schemaPath('shared.schema.json'), JSON.stringify(shared, null, 2));
    const g = await run(['gen', '--root', root]);
    expect(g.code).toBe(2);
    const lines = g.err.split('\n');
    expect(lines.map((l) => /\[([a-z-]+)\]$/.exec(l)?.[1] ?? l)).toEqual(['meta-schema', 'title-unique', 'ref-resolves', 'wopkit: gen refused the corpus: 3 problems, nothing written']);
    for (const l of lines.slice(0, 3)) expect(l).toMatch(/^wopkit: error: schemas\/demo\/v1\/(config|shared)\.schema\.json:\d+:\d+: #\//);
    expect(lines[2]).toContain('did you mean "./shared.schema.json#/$defs/Settings"');
    const j = await run(['gen', '--root', root, '--format', 'json']);
    const body = JSON.parse(j.out);
    expect(body.ok).toBe(false);
    expect(body.problems.map((p: { rule: string; line?: number }) => [p.rule, typeof p.line])).toEqual([['meta-schema', 'number'], ['title-unique', 'number'], ['ref-resolves', 'number']]);
    expect(existsSync(join(root, 'generated'))).toBe(false);
  });

  it('a title gen cannot name types by (missing, duplicate, reserved): gen exits 2 naming file and pointer', async () => {
    const p = schemaPath('shared.schema.json');
    const original = readFileSync(p, 'utf8');
    for (const [title, pattern] of [
      [undefined, /shared\.schema\.json:\d+:\d+: #\/\$defs\/Label\/title: every root schema and \$defs entry needs a PascalCase "title".*\[title\]/],
      ['DemoSettings', /shared\.schema\.json:\d+:\d+: #\/\$defs\/(Label|Settings)\/title: title "DemoSettings" is already used by .*\[title-unique\]/],
      ['Map', /shared\.schema\.json:\d+:\d+: #\/\$defs\/Label\/title: title "Map" would collide .*\[title-reserved\]/],
    ] as const) {
      const s = JSON.parse(original);
      if (title === undefined) delete s.$defs.Label.title;
      else s.$defs.Label.title = title;
      writeFileSync(p, JSON.stringify(s));
      const g = await run(['gen', '--root', root]);
      expect(g.code, String(title)).toBe(2);
      expect(g.err).toMatch(pattern);
      noStack(g.err);
    }
  });

  it('unwritable output: exit 2 naming the file', async () => {
    await run(['gen', '--root', root]);
    rmSync(join(root, 'generated/guards'), { recursive: true });
    writeFileSync(join(root, 'generated/guards'), 'a file where gen needs a directory\n');
    const r = await run(['gen', '--root', root]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/wopkit: error: generated\/guards\/(index|failures)\.ts: cannot write file \(E[A-Z]+\)/);
    noStack(r.err);
  });

  it('unreadable schema file: exit 2 naming it', async () => {
    mkdirSync(schemaPath('broken.schema.json'));
    const r = await run(['gen', '--root', root]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/schemas\/demo\/v1\/broken\.schema\.json: cannot read file \(EISDIR\)/);
  });

  it('invalid-example wrapper without expect: exit 2 naming file + pointer', async () => {
    writeFileSync(join(root, 'schemas/demo/v1/examples/config/invalid/bad-label.json'), '{"description": "x", "instance": {}}');
    const r = await run(['check-examples', '--root', root]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('schemas/demo/v1/examples/config/invalid/bad-label.json#/expect');
  });

  it('validate: valid and invalid files, pointers and messages, json format', async () => {
    await run(['gen', '--root', root]);
    const good = join(root, 'good.json');
    const bad = join(root, 'bad.json');
    writeFileSync(good, JSON.stringify({ 'runtime/ref': 'ref:x' }));
    writeFileSync(bad, JSON.stringify({ 'runtime/ref': 'nope', extra: 1, mode: 'slow' }));
    const ok = await run(['validate', 'DemoSettings', good, '--root', root]);
    expect(ok.code).toBe(0);
    // the type may also be named by its $id (with a $defs fragment) or, for a root type, by its schema file
    expect((await run(['validate', 'https://wopkit.dev/schemas/demo/v1/shared.schema.json#/$defs/Settings', good, '--root', root])).code).toBe(0);
    const cfg = await run(['validate', 'schemas/demo/v1/config.schema.json', good, '--root', root, '--format', 'json']);
    expect(JSON.parse(cfg.out)).toMatchObject({ type: 'DemoConfig', ok: false });
    const r = await run(['validate', 'shared--Settings', good, bad, '--root', root]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/bad\.json#: must NOT have additional properties: "extra" \[additionalProperties\]/);
    expect(r.out).toMatch(/bad\.json#\/runtime~1ref: must match pattern/);
    expect(r.out).toMatch(/bad\.json#\/mode: must be equal to one of the allowed values: "fast", "careful" \[enum\]/);
    const j = await run(['validate', 'validateDemoSettings', bad, '--root', root, '--format', 'json']);
    const body = JSON.parse(j.out);
    expect(body.ok).toBe(false);
    expect(body.results[0].failures).toContainEqual({ instancePath: '/mode', keyword: 'enum', message: expect.stringContaining('allowed values') });
  });

  it('validate: unknown type, unreadable JSON, missing file → exit 2, clear message', async () => {
    await run(['gen', '--root', root]);
    const f = join(root, 'x.json');
    writeFileSync(f, '{"a": }');
    const unknown = await run(['validate', 'DemoSetting', f, '--root', root]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown type "DemoSetting" \(did you mean DemoSettings/);
    const malformed = await run(['validate', 'DemoSettings', f, '--root', root]);
    expect(malformed.code).toBe(2);
    expect(malformed.err).toMatch(/x\.json: malformed JSON at line 1, column 7/);
    const missing = await run(['validate', 'DemoSettings', join(root, 'nope.json'), '--root', root]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nope\.json: cannot read file \(ENOENT\)/);
    for (const r of [unknown, malformed, missing]) noStack(r.err);
    // one unreadable file among good ones: the others are still validated, the exit code is still 2
    const good = join(root, 'good.json');
    writeFileSync(good, JSON.stringify({ 'runtime/ref': 'ref:x' }));
    const mixed = await run(['validate', 'DemoSettings', good, f, '--root', root, '--format', 'json']);
    expect(mixed.code).toBe(2);
    expect(JSON.parse(mixed.out)).toMatchObject({
      ok: false,
      results: [
        { file: good, valid: true },
        { file: f, valid: false, error: { message: expect.stringMatching(/malformed JSON at line 1, column 7/) } },
      ],
    });
    const mixedText = await run(['validate', 'DemoSettings', good, f, '--root', root]);
    expect(mixedText.code).toBe(2);
    expect(mixedText.out).toMatch(/good\.json: valid/);
    expect(mixedText.out).toMatch(/validate: 1 valid, 0 invalid, 1 unreadable/);
    expect(mixedText.err).toMatch(/x\.json: malformed JSON/);
  });

  it('validate before gen: exit 2 telling to run gen', async () => {
    const r = await run(['validate', 'DemoSettings', 'x.json', '--root', root]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/run `npm run gen` first/);
  });

  it('bad flags and commands → exit 2 with usage hint', async () => {
    for (const argv of [['gen', '--bogus'], ['frobnicate'], [], ['lint', '--format', 'xml'], ['lint', '--check'], ['validate'], ['validate', 'DemoSettings'], ['lint', 'extra']]) {
      const r = await run([...argv, '--root', root]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(/^wopkit: error: /);
      noStack(r.err);
    }
    expect((await run(['--help'])).code).toBe(0);
    for (const argv of [['lint', '--format=json', '--bogus'], ['--format', 'json', 'frobnicate']]) {
      const r = await run([...argv, '--root', root]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(JSON.parse(r.out)).toMatchObject({ ok: false, error: { message: expect.any(String) } });
    }
  });

  it('lint and check-examples: clean fixture exits 0; a broken rule exits 1 with file + pointer', async () => {
    expect((await run(['lint', '--root', root])).code).toBe(0);
    expect((await run(['check-examples', '--root', root])).code).toBe(0);
    writeFileSync(join(root, 'schemas/demo/v1/examples/config/valid/wrong.json'), JSON.stringify({ label: 'secret', parts: [] }));
    const r = await run(['check-examples', '--root', root, '--format', 'json']);
    expect(r.code).toBe(1);
    const findings = JSON.parse(r.out).findings;
    expect(findings).toContainEqual(expect.objectContaining({ file: 'schemas/demo/v1/examples/config/valid/wrong.json', pointer: '/label', rule: 'example-valid' }));
  });

  it('the package bin runs end to end (spawned)', () => {
    const r = spawnSync(join(REPO, 'node_modules/.bin/node'), [join(REPO, 'generator/cli.ts'), 'lint', '--root', root, '--bogus'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown option "--bogus"/);
    noStack(r.stderr);
    const ok = spawnSync(join(REPO, 'node_modules/.bin/node'), [join(REPO, 'generator/cli.ts'), 'lint', '--root', root], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
  });

  it('runs when started through a symlink, as an npm bin link does', () => {
    const link = join(root, 'wopkit');
    symlinkSync(join(REPO, 'generator/cli.ts'), link);
    const r = spawnSync(join(REPO, 'node_modules/.bin/node'), [link, 'lint', '--root', root], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/lint: clean/);
  });
});

describe('wopkit CLI: structurally malformed schema', () => {
  it('gen exits 2 naming file and pointer; lint reports meta-schema', async () => {
    const { root, cleanup } = scratchFixture();
    try {
      const p = join(root, 'schemas/demo/v1/config.schema.json');
      const s = JSON.parse(readFileSync(p, 'utf8'));
      s.properties.parts.minItems = 'one';
      writeFileSync(p, JSON.stringify(s));
      const g = await run(['gen', '--root', root]);
      expect(g.code).toBe(2);
      expect(g.err).toContain('schemas/demo/v1/config.schema.json:1:');
      expect(g.err).toContain(': #/properties/parts/minItems: not a valid draft 2020-12 schema');
      noStack(g.err);
      const l = await run(['lint', '--root', root, '--format', 'json']);
      expect(l.code).toBe(1);
      expect(JSON.parse(l.out).findings).toContainEqual(expect.objectContaining({ rule: 'meta-schema', pointer: '/properties/parts/minItems' }));
    } finally {
      cleanup();
    }
  });
});

describe('wopkit validate on run events', () => {
  it('checks the payload of a known type through validateRunEvent', async () => {
    const { root, cleanup } = scratchFixture();
    try {
      await run(['gen', '--root', root]);
      const f = join(root, 'ev.json');
      writeFileSync(f, JSON.stringify({ eventId: 'e', type: 'demo.finished', payload: { ok: 'yes' } }));
      const r = await run(['validate', 'DemoRunEvent', f, '--root', root]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/ev\.json#\/payload\/ok: must be boolean \[type\]/);
      writeFileSync(f, JSON.stringify({ eventId: 'e', type: 'demo.unknown', payload: { ok: 'yes' } }));
      expect((await run(['validate', 'run-event', f, '--root', root])).code).toBe(0);
    } finally {
      cleanup();
    }
  });
});

/** The Node 24 the repository pins: the generator runs on its type stripping (npm run gen does), no loader. */
const NODE = join(REPO, 'node_modules/.bin/node');
/** Run a CLI entry file in a fresh process. */
const spawnCli = (cli: string, args: string[], opts: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}) =>
  spawnSync(NODE, [cli, ...args], { encoding: 'utf8', cwd: opts.cwd ?? REPO, input: opts.input ?? '', ...(opts.env ? { env: opts.env } : {}) });
const oneLine = (s: string) => expect(s.trimEnd().split('\n')).toHaveLength(1);

describe('wopkit CLI: help and version (spawned)', () => {
  const cli = join(REPO, 'generator/cli.ts');

  it('--version prints the version of the nearest package.json', () => {
    const r = spawnCli(cli, ['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(`wopkit ${JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version}`);
  });

  it('every subcommand has --help (usage, options, exit codes); `help <command>` says the same', () => {
    for (const command of ['gen', 'lint', 'check-examples', 'validate']) {
      const r = spawnCli(cli, [command, '--help']);
      expect(r.status, command).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^usage: wopkit ${command}\\b`));
      expect(r.stdout).toMatch(/\noptions:\n(.*\n)*  --format text\|json .*\n(.*\n)*  --root <dir> /);
      expect(r.stdout).toMatch(/\nexit codes:\n  0  .+\n  1  .+\n  2  usage or I\/O error/);
      expect(spawnCli(cli, ['help', command]).stdout).toBe(r.stdout);
    }
    expect(spawnCli(cli, ['gen', '--help']).stdout).toMatch(/  --check +compare with disk/);
    const overview = spawnCli(cli, ['--help']);
    expect(overview.status).toBe(0);
    expect(overview.stdout).toMatch(/--version/);
  });
});

/**
 * An install without the code generators, laid out as a compiled package would be: the CLI under dist/generator/,
 * the package.json one level up (a version-less one in dist/, as a build may write), and only ajv + ajv-formats in
 * node_modules. Corpus root (generated by the full CLI) beside them, so the generated validators resolve their imports.
 */
describe('wopkit CLI in an install without the code generators (spawned)', () => {
  let dir = '';
  let cli = '';
  let root = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wopkit-lean-'));
    cpSync(join(REPO, 'generator'), join(dir, 'dist/generator'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'lean', version: '9.9.9-test' }));
    writeFileSync(join(dir, 'dist/package.json'), JSON.stringify({ type: 'module' }));
    mkdirSync(join(dir, 'node_modules'));
    for (const pkg of ['ajv', 'ajv-formats']) symlinkSync(join(REPO, 'node_modules', pkg), join(dir, 'node_modules', pkg));
    root = join(dir, 'corpus');
    cpSync(join(FIXTURE, 'schemas'), join(root, 'schemas'), { recursive: true });
    expect((await run(['gen', '--root', root])).code).toBe(0);
    cli = join(dir, 'dist/generator/cli.ts');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--version walks up from dist/generator/ to the nearest package.json with a version', () => {
    const r = spawnCli(cli, ['--version'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('wopkit 9.9.9-test');
  });

  it('validate loads only the generated validators: it runs without json-schema-to-typescript, ts-morph, quicktype-core and typedoc', () => {
    writeFileSync(join(root, 'good.json'), JSON.stringify({ 'runtime/ref': 'ref:x' }));
    const r = spawnCli(cli, ['validate', 'DemoSettings', join(root, 'good.json'), '--root', root], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(spawnCli(cli, ['lint', '--root', root], { cwd: dir }).status).toBe(0);
  });

  it('validate - reads one instance from standard input', () => {
    const ok = spawnCli(cli, ['validate', 'DemoSettings', '-', '--root', root], { cwd: dir, input: JSON.stringify({ 'runtime/ref': 'ref:x' }) });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^<stdin>: valid$/m);
    const bad = spawnCli(cli, ['validate', 'DemoRunEvent', '-', '--root', root, '--format', 'json'], { cwd: dir, input: JSON.stringify({ eventId: 'e', type: 'demo.finished', payload: { ok: 'yes' } }) });
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).results).toEqual([{ file: '<stdin>', valid: false, failures: [expect.objectContaining({ instancePath: '/payload/ok', keyword: 'type' })] }]);
    const malformed = spawnCli(cli, ['validate', 'DemoSettings', '-', '--root', root], { cwd: dir, input: '{"a": ' });
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toMatch(/^wopkit: error: <stdin>: malformed JSON at line 1, column 7: unexpected end of input$/m);
    const twice = spawnCli(cli, ['validate', 'DemoSettings', '-', '-', '--root', root], { cwd: dir });
    expect(twice.status).toBe(2);
    expect(twice.stderr).toMatch(/standard input \("-"\) once/);
  });

  it('gen without its packages: one line naming the missing package and the npm i command, exit 2, no stack trace', () => {
    const r = spawnCli(cli, ['gen', '--root', root], { cwd: dir, env: { ...process.env, WOPKIT_GEN_CACHE: '0' } });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('gen › '))).toEqual(['wopkit: error: gen needs the package "json-schema-to-typescript" for the TypeScript types, which is not installed: npm i -D json-schema-to-typescript']);
  });

  it('gen --all and gen --check without quicktype-core name it and how to leave the other languages out; --skip other-languages does', () => {
    const jstt = join(dir, 'node_modules/json-schema-to-typescript');
    symlinkSync(join(REPO, 'node_modules/json-schema-to-typescript'), jstt);
    try {
      const env = { ...process.env, WOPKIT_GEN_CACHE: '0' };
      for (const args of [['gen', '--all'], ['gen', '--check']]) {
        const r = spawnCli(cli, [...args, '--root', root], { cwd: dir, env });
        expect(r.status, args.join(' ')).toBe(2);
        // a run that takes more than a second prints progress lines on a pipe; the error is the one other line
        expect(r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('gen › '))).toEqual(['wopkit: error: gen needs the package "quicktype-core" for the other-language types, which is not installed: npm i -D quicktype-core (or leave them out: --skip other-languages)']);
      }
      expect(spawnCli(cli, ['gen', '--check', '--skip', 'other-languages', '--root', root], { cwd: dir, env }).status).toBe(0);
      const plain = spawnCli(cli, ['gen', '--root', root], { cwd: dir, env });
      expect(plain.status).toBe(0);
      expect(plain.stdout).toMatch(/^gen: other-languages left as they were/m);
    } finally {
      rmSync(jstt);
    }
  });

  it('any other failure: one line, exit 2, no stack trace (a corrupted generated module)', () => {
    const validators = join(root, 'generated/validators/validators.js');
    const original = readFileSync(validators, 'utf8');
    try {
      writeFileSync(validators, 'export const = ;\n');
      const r = spawnCli(cli, ['validate', 'DemoSettings', join(root, 'good.json'), '--root', root], { cwd: dir });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^wopkit: error: unexpected failure: /);
      oneLine(r.stderr);
      noStack(r.stderr);
    } finally {
      writeFileSync(validators, original);
    }
  });
});

describe('wopkit CLI: the top-level handler', () => {
  it('an error thrown while reporting is still exit 2 with one message, never a throw', async () => {
    const err: string[] = [];
    const code = await main(['--help'], {
      out: () => {
        throw new TypeError('stdout closed');
      },
      err: (s) => err.push(s),
    });
    expect(code).toBe(2);
    expect(err).toEqual(['wopkit: error: unexpected failure: stdout closed']);
  });
});
