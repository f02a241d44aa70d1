/**
 * Emitter: what describes generated/ itself: `generated/README.md`, `generated/tsdoc.json` (declares the JSDoc tags the
 * generated types use) and `generated/package.json` (`"type": "module"`: the generated modules are ESM, also in a
 * corpus whose own package.json does not say so, where Node would otherwise warn on every import).
 */
import type { EmittedFile } from '../model.ts';
import type { Resolved } from '../resolve.ts';
import { GENERATED } from '../naming.ts';
import { outputNames } from '../corpus-config.ts';

/** The widest line of the README's prose: a longer line is broken at its last space that fits. */
const WIDTH = 115;
const wrapLine = (line: string): string[] => {
  if (line.length <= WIDTH) return [line];
  const at = line.lastIndexOf(' ', WIDTH);
  return at <= 0 ? [line] : [line.slice(0, at), ...wrapLine(line.slice(at + 1))];
};

/** Rows for what a corpus of several majors adds: each later major's subfolders, and the translation between majors. */
function laterMajors(r: Resolved): string {
  const rows = r.majors
    .filter((m) => m !== r.firstMajor)
    .map((m) => `| \`ts/${m}/\`, \`validators/${m}/\`, \`guards/${m}/\`, \`run-events/${m}/\` | the same for major ${m} (the first major, ${r.firstMajor}, is at the folders themselves) |`);
  const families = [...new Set((r.corpus.majorTables ?? []).map((t) => t.family))].sort();
  if (families.length) rows.push(`| \`majors/\` | the translation between majors (event names, error codes and statuses): ${families.map((f) => `\`majors/${f}.ts\``).join(', ')} |`);
  return rows.map((row) => `${row}\n`).join('');
}

export function emitReadme(r: Resolved): readonly EmittedFile[] {
  const families = [...new Set(r.corpus.schemas.map((s) => s.family))].sort();
  const names = outputNames(r.corpus.config);
  // An npm script passes its options on after `--`.
  const check = `${names.command}${/^npm run /.test(names.command) ? ' --' : ''} --check`;
  const prose = [
    `Everything here is produced from \`schemas/\` (${families.join(', ')}) by the generator. Do not edit these files by`,
    `hand: change the schemas (or the generator) and run \`${names.command}\` (\`--all\` also renders the other-language types).`,
    `\`${check}\` fails when this directory is out of date.${names.docs === undefined ? '' : ` Layout and the site-data format: ${names.docs}.`}`,
  ].flatMap(wrapLine);
  const text = `# generated/ — generated, do not edit

${prose.join('\n')}

| Path | Contents |
| --- | --- |
| \`ts/\` | TypeScript types, one module per schema, \`ts/index.ts\` re-exports all |
| \`validators/\` | generated ESM validators (\`validate<Title>\`, fast path + Ajv-compatible \`errors\`, see docs/validators.md) + \`.d.ts\` |
| \`guards/\` | \`is<Title>\` / \`assert<Title>\` and \`ValidationError\` |
| \`run-events/\` | run-event type → payload map and \`validateRunEvent\` |
| \`site-data/\` | JSON the site renders (schemas, fields, rules, examples, TS text) |
| \`other-languages/\` | types in other languages (its own emitter) |
${laterMajors(r)}`;
  // json-schema-to-typescript writes @minItems/@maxItems; declare them so typedoc/tsdoc accept them (@default is standard).
  const tsdoc = {
    $schema: 'https://developer.microsoft.com/json-schemas/tsdoc/v0/tsdoc.schema.json',
    extends: ['typedoc/tsdoc.json'],
    noStandardTags: false,
    tagDefinitions: [
      { tagName: '@minItems', syntaxKind: 'block' },
      { tagName: '@maxItems', syntaxKind: 'block' },
    ],
  };
  return [
    { path: GENERATED.readme, contents: text },
    { path: GENERATED.tsdoc, contents: JSON.stringify(tsdoc, null, 2) + '\n' },
    { path: GENERATED.packageJson, contents: `${JSON.stringify({ type: 'module' }, null, 2)}\n` },
  ];
}
