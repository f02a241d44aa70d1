/**
 * Lint findings as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), for code-scanning uploads and
 * editors: one run whose `tool.driver.rules` is the lint rule table (id, its doc line as description), and one result
 * per finding with the file (relative to `%SRCROOT%`), the line and column when known, and the JSON pointer as a
 * property (`properties.pointer`) and a logical location. Pure: findings in, a JSON-ready object out.
 */
import { pathToFileURL } from 'node:url';
import type { Finding } from './lint.ts';

/** The parts of SARIF 2.1.0 this writer uses (field names as the standard spells them). */
export interface SarifLog {
  readonly $schema: string;
  readonly version: '2.1.0';
  readonly runs: readonly SarifRun[];
}
interface SarifText {
  readonly text: string;
  readonly markdown?: string;
}
export interface SarifRule {
  readonly id: string;
  readonly name: string;
  readonly shortDescription: SarifText;
  readonly fullDescription: SarifText;
  readonly helpUri?: string;
  readonly defaultConfiguration: { readonly level: 'error' | 'warning' | 'note' };
}
export interface SarifResult {
  readonly ruleId: string;
  readonly ruleIndex?: number;
  readonly level: 'error';
  readonly message: SarifText;
  readonly locations: readonly {
    readonly physicalLocation: {
      readonly artifactLocation: { readonly uri: string; readonly uriBaseId: string };
      readonly region?: { readonly startLine: number; readonly startColumn?: number };
    };
    readonly logicalLocations?: readonly { readonly fullyQualifiedName: string; readonly kind: string }[];
  }[];
  readonly properties: { readonly pointer: string };
}
export interface SarifRun {
  readonly tool: { readonly driver: { readonly name: string; readonly version: string; readonly informationUri: string; readonly rules: readonly SarifRule[] } };
  readonly originalUriBaseIds?: Record<string, { readonly uri: string }>;
  readonly columnKind: 'utf16CodeUnits';
  readonly results: readonly SarifResult[];
}

/** The schema URI SARIF consumers recognise for version 2.1.0. */
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const SRCROOT = 'SRCROOT';

/** `meta-schema` → `MetaSchema` (SARIF's `name` is a readable identifier). */
const ruleName = (id: string): string => id.replace(/(^|-)([a-z0-9])/g, (_m, _d: string, c: string) => c.toUpperCase());

export interface SarifInput {
  readonly findings: readonly Finding[];
  /** Every rule the tool checks: id and its one-line doc (Markdown). */
  readonly rules: readonly { readonly id: string; readonly doc: string }[];
  /** Absolute repository root the finding paths are relative to. */
  readonly root: string;
  readonly version: string;
  /** Where the rules are documented. */
  readonly helpUri?: string;
}

/** Build the SARIF log of one lint run. */
export function toSarif({ findings, rules, root, version, helpUri }: SarifInput): SarifLog {
  const known = [...rules];
  // A finding of a rule outside the table (there should be none) still gets a rule entry, so ruleIndex stays valid.
  for (const f of findings) if (!known.some((r) => r.id === f.rule)) known.push({ id: f.rule, doc: f.rule });
  const index = new Map(known.map((r, i) => [r.id, i]));
  const plain = (md: string) => md.replace(/`/g, '');
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'wopkit',
            version,
            informationUri: 'https://wopkit.dev/',
            rules: known.map((r) => ({
              id: r.id,
              name: ruleName(r.id),
              shortDescription: { text: plain(r.doc), markdown: r.doc },
              fullDescription: { text: plain(r.doc), markdown: r.doc },
              ...(helpUri ? { helpUri } : {}),
              defaultConfiguration: { level: 'error' as const },
            })),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: `${pathToFileURL(root).href.replace(/\/?$/, '/')}` } },
        columnKind: 'utf16CodeUnits',
        results: findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: index.get(f.rule) as number,
          level: 'error' as const,
          message: { text: f.pointer ? `${f.message} (at ${f.pointer})` : f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: f.file, uriBaseId: SRCROOT },
                ...(f.line !== undefined ? { region: { startLine: f.line, ...(f.column !== undefined ? { startColumn: f.column } : {}) } } : {}),
              },
              ...(f.pointer ? { logicalLocations: [{ fullyQualifiedName: `${f.file}#${f.pointer}`, kind: 'element' }] } : {}),
            },
          ],
          properties: { pointer: f.pointer },
        })),
      },
    ],
  };
}
