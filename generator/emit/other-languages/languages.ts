/**
 * The other-language targets, one table: quicktype language id, output file, renderer options, the comment
 * syntax for the header, and the information each target loses (stated in the header and on the site). File names,
 * packages and namespaces come from the corpus settings (`output` in corpus-config.ts): {@link languagesFor}.
 */
import type { OutputNames } from '../../corpus-config.ts';

export interface LanguageTarget {
  readonly id: string;
  readonly name: string;
  readonly lang: 'python' | 'go' | 'rust' | 'csharp' | 'kotlin' | 'swift';
  readonly file: string;
  readonly options: Record<string, string>;
  readonly comment: (lines: readonly string[]) => string;
  readonly losses: readonly string[];
  /** How this project compiles and round-trips it (or why it does not). */
  readonly tested: string;
  /** Post-processing of quicktype's output for this target (fixes a loss where the target allows it). */
  readonly post?: (code: string) => string;
}

/**
 * Go: `omitempty` on a slice or map drops an empty array/object on the way back ([] and {} vanish). Slices and
 * maps are nil when absent, so without omitempty an absent field writes `null` and a present empty one `[]`/`{}` —
 * the distinction the JSON had survives.
 */
export const keepEmptyGoCollections = (code: string): string =>
  code.replace(/^(\t\w+\s+(?:\[\]|map\[)[^`]*`json:"[^",]+),omitempty"/gm, '$1"');

const slashes = (lines: readonly string[]) => lines.map((l) => `// ${l}`.trimEnd()).join('\n');
const hashes = (lines: readonly string[]) => lines.map((l) => `# ${l}`.trimEnd()).join('\n');

const COMMON_LOSSES = [
  'Discriminated unions (oneOf of const-tagged objects) are flattened into one type whose variant fields are all optional; the discriminator value is not enforced.',
  'Formats, patterns, lengths and numeric ranges are not checked; validate with the JSON Schemas or the TypeScript validators at the boundary.',
  'Fields a schema leaves open (additionalProperties: true) are dropped on deserialisation: extension data does not survive a round trip.',
  'if/then rules (e.g. "trigger is required when supported is true") and x-runtime-rules are not represented.',
];

/** A target whose file and options depend on the corpus's output names. */
type LanguageRow = Omit<LanguageTarget, 'file' | 'options'> & {
  readonly file: (n: OutputNames) => string;
  readonly options: (n: OutputNames) => Record<string, string>;
};

const LANGUAGE_ROWS: readonly LanguageRow[] = [
  {
    id: 'python', name: 'Python (dataclasses)', lang: 'python', file: (n) => `python/${n.pythonModule}.py`,
    options: () => ({ 'python-version': '3.7', 'just-types': 'false' }), comment: hashes,
    losses: [...COMMON_LOSSES, 'Date-times become datetime objects and are written back in isoformat (offset +00:00 instead of Z, microsecond precision).'],
    tested: 'Imported by python3 (Debian python3-dateutil); every valid example of each top-level type is read with `<type>_from_dict` and written back with `<type>_to_dict`.',
  },
  {
    id: 'go', name: 'Go', lang: 'go', file: (n) => `go/${n.goPackage}/types.go`,
    options: (n) => ({ package: n.goPackage, 'just-types-and-package': 'false' }), comment: slashes,
    losses: [...COMMON_LOSSES, 'Optional scalar fields use pointers with omitempty; absent optional arrays and objects are written back as null (post-processing keeps empty [] and {} instead of dropping them).'],
    post: keepEmptyGoCollections,
    tested: 'Formatted with gofmt and compiled with Debian golang-go; every valid example is read with `Unmarshal<Type>` and written back with `Marshal`.',
  },
  {
    id: 'rust', name: 'Rust (serde)', lang: 'rust', file: (n) => `rust/${n.rustModule}.rs`,
    options: () => ({ density: 'normal', visibility: 'public', 'derive-debug': 'true' }), comment: slashes,
    losses: [...COMMON_LOSSES],
    tested: 'Built with cargo offline against Debian\'s serde crates (a directory source at /usr/share/cargo/registry); every valid example is read with `serde_json::from_str` and written back with `serde_json::to_value`.',
  },
  {
    id: 'csharp', name: 'C# (Newtonsoft.Json)', lang: 'csharp', file: (n) => `csharp/${n.csharpFile}.cs`,
    options: (n) => ({ namespace: n.csharpNamespace, framework: 'NewtonSoft', 'csharp-version': '6' }), comment: slashes,
    losses: [...COMMON_LOSSES, 'C# 6 syntax (no nullable reference annotations) so that Mono mcs compiles it.', 'A field typed "code or null" cannot read an explicit null: the generated Newtonsoft converter throws (e.g. diagnostics with "error/code": null).'],
    tested: 'Compiled with Mono `mcs` against Debian Newtonsoft.Json; every valid example is read with `FromJson` and written back with `ToJson` — all except the few carrying an explicit null in a nullable union (a listed loss).',
  },
  {
    id: 'kotlin', name: 'Kotlin (types only)', lang: 'kotlin', file: (n) => `kotlin/${n.kotlinFile}.kt`,
    options: (n) => ({ 'just-types': 'true', package: n.kotlinPackage }), comment: slashes,
    losses: [...COMMON_LOSSES, 'Types only: no (de)serialiser is generated (Debian\'s Kotlin compiles only the just-types output), so nothing is round-tripped.'],
    tested: 'Compiled with Debian `kotlinc` (types only; there is no serialiser to round-trip through).',
  },
  {
    id: 'swift', name: 'Swift (Codable)', lang: 'swift', file: (n) => `swift/${n.swiftFile}.swift`,
    options: () => ({}), comment: slashes,
    losses: [...COMMON_LOSSES],
    tested: 'Emitted only: no Swift compiler is available on this machine or in CI.',
  },
];

/** The targets with the file names, packages and namespaces of a corpus's output names, in table order. */
export const languagesFor = (names: OutputNames): LanguageTarget[] => LANGUAGE_ROWS.map((row) => ({ ...row, file: row.file(names), options: row.options(names) }));
