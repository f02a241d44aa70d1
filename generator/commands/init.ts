/**
 * `wopkit init [dir] [--family <name>] [--id-base <url>]`: scaffold a corpus that every command accepts as created —
 * the settings (in package.json, added to an existing one), one schema with descriptions, a valid and an invalid
 * example, a README line, and the compat baseline of its first version (so `compat` has something to compare with).
 * Nothing it writes names this toolkit except the settings key; `gen` then writes generated/ under the corpus's names.
 * Refuses a folder that already holds `schemas/` or settings.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { CorpusError } from '../errors.ts';
import { isObject, readJsonFile } from '../json.ts';
import { FAMILY, SETTINGS_FILE, SETTINGS_KEY, parseCorpusConfig } from '../corpus-config.ts';
import { SCHEMAS_DIR, SCHEMA_SUFFIX, exampleSchemaRef, examplePath, schemaId, schemaPath } from '../naming.ts';
import { writeSnapshot } from '../compat/baseline.ts';
import { UsageError, type Invocation, type Io } from './common.ts';

/** The first major of a new corpus, and the version its compat baseline records. */
const FIRST_MAJOR = 'v1';
const FIRST_VERSION = '0.1.0';
/** The one schema a new corpus starts with. */
const STEM = 'note';

/** Lowercase words joined by `-`, from any name (a folder name); undefined when nothing is left. */
function kebab(name: string): string | undefined {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const k = words.join('-');
  return k && FAMILY.test(k) ? k : undefined;
}

/** The starting schema: one closed object, every property described, a rule JSON Schema expresses. */
function noteSchema(id: string): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id,
    title: 'Note',
    description: 'A short note: the first shape of this corpus. Rename it, or add schemas beside it.',
    'x-direction': 'both',
    type: 'object',
    additionalProperties: false,
    required: ['id', 'text'],
    properties: {
      id: { description: 'Identifier of the note, unique within its author.', type: 'string', minLength: 1 },
      text: { description: 'What the note says.', type: 'string', minLength: 1, maxLength: 2000 },
      tags: { description: 'Labels to find the note by; each at most once.', type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    },
  };
}

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

export function init(p: Invocation, io: Io): number {
  if (p.args.length > 1) throw new UsageError(`init takes one folder, not ${p.args.length}`);
  const root = p.args[0] === undefined ? p.root : resolve(p.root, p.args[0]);
  const name = kebab(basename(root)) ?? 'corpus';
  const family = p.values?.get('--family') ?? name;
  if (!FAMILY.test(family)) throw new UsageError(`--family must be lowercase words joined by "-" (e.g. "acme"), not "${family}"`);
  const idBase = p.values?.get('--id-base') ?? `https://example.org/${family}/schemas/`;
  if (existsSync(join(root, SCHEMAS_DIR))) throw new CorpusError(`${SCHEMAS_DIR}/ exists already; init starts a new corpus in an empty folder`, relative(process.cwd(), join(root, SCHEMAS_DIR)) || SCHEMAS_DIR);

  // The settings: added to the folder's package.json (kept as it is otherwise), or a new one.
  const manifestPath = join(root, SETTINGS_FILE);
  const manifest: Record<string, unknown> = existsSync(manifestPath) ? (() => {
    const m = readJsonFile(manifestPath, SETTINGS_FILE);
    if (!isObject(m)) throw new CorpusError('package.json must hold a JSON object', SETTINGS_FILE);
    if (SETTINGS_KEY in m) throw new CorpusError(`the corpus settings exist already`, SETTINGS_FILE, `/${SETTINGS_KEY}`);
    return m;
  })() : { name, version: FIRST_VERSION, private: true, type: 'module' };
  const settings = { idBase, families: { [family]: [FIRST_MAJOR] }, output: { name } };
  try {
    parseCorpusConfig(settings); // the settings init writes are settings the commands accept (an --id-base, for one)
  } catch (e) {
    throw e instanceof CorpusError ? new UsageError(`--id-base: ${e.message}`) : e;
  }

  const folder = { family, major: FIRST_MAJOR };
  const fileName = `${STEM}${SCHEMA_SUFFIX}`;
  const id = schemaId(idBase, folder, fileName);
  const ref = exampleSchemaRef(id, '');
  const files: [string, string][] = [
    [SETTINGS_FILE, json({ ...manifest, [SETTINGS_KEY]: settings })],
    [schemaPath(folder, fileName), json(noteSchema(id))],
    [examplePath(folder, STEM, 'valid', 'tagged.json'), json({ $schema: ref, id: 'n-1', text: 'Buy milk.', tags: ['errand'] })],
    [examplePath(folder, STEM, 'valid', 'minimal.json'), json({ $schema: ref, id: 'n-2', text: 'Call back.' })],
    [examplePath(folder, STEM, 'invalid', 'no-text.json'), json({ description: 'A note must say something: "text" is required.', expect: { instancePath: '', keyword: 'required' }, instance: { $schema: ref, id: 'n-3' } })],
    [examplePath(folder, STEM, 'invalid', 'extra-member.json'), json({ description: 'A note is closed: a member it does not declare is refused.', expect: { instancePath: '', keyword: 'additionalProperties' }, instance: { $schema: ref, id: 'n-4', text: 'x', colour: 'red' } })],
  ];
  if (!existsSync(join(root, 'README.md')))
    files.push(['README.md', `# ${name}\n\nJSON Schemas under \`${SCHEMAS_DIR}/${family}/${FIRST_MAJOR}/\` (\`$id\` base ${idBase}), with valid and invalid examples; the generator's \`gen\` command produces types, validators and more from them.\n`]);
  for (const [path, text] of files) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const baseline = writeSnapshot(root, FIRST_VERSION, [schemaPath(folder, fileName)]);
  const written = [...files.map(([path]) => path), ...baseline];
  if (p.format === 'json') io.out(JSON.stringify({ command: 'init', ok: true, root, family, idBase, written }, null, 2));
  else {
    io.out(`init: a corpus in ${relative(process.cwd(), root) || '.'} (family ${family}, $id base ${idBase}): ${written.length} files`);
    for (const path of written) io.out(`  ${path}`);
    io.out('next: gen (or gen --all), lint, check-examples, validate Note <file>, compat');
  }
  return 0;
}
