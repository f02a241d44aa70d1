/**
 * The packages the build assembles, one table (docs/package.md says why this split). The source tree does not move:
 * tsc compiles it once into a staging tree (dist/.tsc/, the source layout), and each package is a subset of that tree
 * with its own manifest, written to its folder under dist/ (wopkit: dist/ itself; @wopkit/validators: dist/validators/).
 * A relative import from one package's files into another's is rewritten to that package's bare specifier
 * (SPECIFIERS), so at run time the two resolve through node_modules like any packages.
 */
import { posix } from 'node:path';

/** The root package.json, as far as the layout reads it. */
export interface RootManifest {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly keywords: readonly string[];
  readonly license: string;
  readonly repository: unknown;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

export interface PackageLayout {
  /** The npm name. */
  readonly name: string;
  /** Its folder under dist/ (`''`: dist/ itself). */
  readonly dir: string;
  /** The manifest's description. */
  readonly description: (root: RootManifest) => string;
  /** What it takes of the staging tree: files, or folders ending with `/`. */
  readonly takes: readonly string[];
  /** Folders (ending with `/`) under what it takes that it leaves to another package (a later major's subfolders). */
  readonly leaves?: readonly string[];
  /**
   * The `<family>/<major>` folders of schemas/ it ships (absent: every folder the corpus settings load): a validators
   * package ships the schemas its validators were generated from, and those they reference.
   */
  readonly schemas?: readonly string[];
  /** Subpath → the compiled module (its `.d.ts` sits beside it); `./schemas/*` and `./package.json` are added to every package. */
  readonly exports: Readonly<Record<string, string>>;
  /** Packages it needs at run time; versions come from the root manifest (a sibling package: the same version, exact). */
  readonly dependencies: readonly string[];
  /** Packages only some of its entry points need: optional peers, named by a one-line error when missing. */
  readonly optionalPeers: readonly string[];
  readonly bin?: Readonly<Record<string, string>>;
  /** The oldest Node it runs on (and is tested on: test/package/consumer). */
  readonly node: string;
  /** The README it ships (relative to the repository root). */
  readonly readme: string;
}

export const VALIDATORS_PACKAGE = '@wopkit/validators';
/** OpenWOP v2's validators: the same layout as @wopkit/validators, from the v2 subfolders of generated/. */
export const VALIDATORS_V2_PACKAGE = '@wopkit/validators-v2';
/** The later-major subfolders of the generated folders a validators package is made of (generator/naming.ts majorLayout). */
const V2_FOLDERS = ['generated/validators/v2/', 'generated/guards/v2/', 'generated/run-events/v2/', 'generated/ts/v2/'];

/** The README figure that states a package's own packed size (scripts/figures.ts writes it). */
export const sizeFigureOf = (p: Pick<PackageLayout, 'dir'>): string => `package.${p.dir || 'wopkit'}`;

/** What a shipped README says where its source states the package's own size (see shippedReadme in build.ts). */
export const OWN_SIZE_IN_SHIPPED_README = "(its size: see the repository's README)";

/**
 * The README a package ships: its source README, with the figure of that package's own size replaced by
 * OWN_SIZE_IN_SHIPPED_README. Packing the README changes the size it states, so a package README stating its own size
 * has no fixed point (687.7 kB written packs to 687.8 kB, and 687.8 kB packs to 687.7 kB).
 */
export function shippedReadme(p: Pick<PackageLayout, 'dir'>, source: string): string {
  const own = sizeFigureOf(p);
  return source.replace(new RegExp(`<!-- figure:${own.replaceAll('.', '\\.')} -->[\\s\\S]*?<!-- /figure -->`, 'g'), OWN_SIZE_IN_SHIPPED_README);
}

export const PACKAGES: readonly PackageLayout[] = [
  {
    name: VALIDATORS_PACKAGE,
    dir: 'validators',
    description: () => 'Generated TypeScript types, standalone validators, is*/assert* guards and run-event dispatch for the OpenWOP agent-memory slice and Orbiplex Inquirium (P066) schemas. No dependencies; runs in Node and in browsers.',
    takes: ['generated/validators/', 'generated/guards/', 'generated/run-events/', 'generated/ts/'],
    leaves: V2_FOLDERS,
    schemas: ['openwop/v1', 'inquirium/v1'],
    exports: {
      '.': 'generated/validators/validators.js',
      // One validator per subpath (`@wopkit/validators/validate/MemoryEntry`): its module and the shared runtime only.
      './validate/*': 'generated/validators/by-type/*.js',
      './types': 'generated/ts/index.js',
      './guards': 'generated/guards/index.js',
      './run-events': 'generated/run-events/index.js',
    },
    dependencies: [],
    optionalPeers: [],
    node: '20',
    readme: 'entry/validators-package.md',
  },
  {
    name: VALIDATORS_V2_PACKAGE,
    dir: 'validators-v2',
    description: () => 'Generated TypeScript types, standalone validators, is*/assert* guards and run-event dispatch for the OpenWOP v2 form of the agent-memory slice (the v2 names of events, the v2 discovery document, tenant-bound ids). No dependencies; runs in Node and in browsers.',
    // its own folders, and the first major's type declarations its types import (shapes written once, in v1)
    takes: [...V2_FOLDERS, 'generated/ts/', 'generated/majors/'],
    schemas: ['openwop/v2', 'openwop/v1'],
    exports: {
      '.': 'generated/validators/v2/validators.js',
      './validate/*': 'generated/validators/v2/by-type/*.js',
      './types': 'generated/ts/v2/index.js',
      './guards': 'generated/guards/v2/index.js',
      './run-events': 'generated/run-events/v2/index.js',
      // the generated translation between the majors (event names, error codes and statuses)
      './majors': 'generated/majors/openwop.js',
    },
    dependencies: [],
    optionalPeers: [],
    node: '20',
    readme: 'entry/validators-v2-package.md',
  },
  {
    name: 'wopkit',
    // dist/ itself: the repository's package.json exports point into it (self-reference inside the repository, and
    // the site's API reference reads the subpaths from there); its `files` leave dist/validators/ out.
    dir: '',
    description: (root) => root.description,
    // generated/openapi/: the host serves the OpenAPI document (GET /v1/openapi.json) from its own copy.
    // generated/routes/: the route table the host and the conformance suite read (runtime/host/seam-catalogue.ts).
    takes: ['entry/', 'runtime/', 'conformance/', 'generator/', 'generated/openapi/', 'generated/routes/'],
    exports: {
      '.': 'entry/index.js',
      './validators': 'entry/validators.js',
      // One validator per subpath, re-exported from @wopkit/validators/validate/* (scripts/build.ts writes the modules).
      './validators/*': 'entry/validators/*.js',
      './guards': 'entry/guards.js',
      './run-events': 'entry/run-events.js',
      // OpenWOP v2 beside v1: the same subpaths under ./v2/ (from @wopkit/validators-v2); docs/package.md.
      // (entry files named v2-*: the API reference tells its modules apart by file name)
      './v2': 'entry/v2.js',
      './v2/validators': 'entry/v2-validators.js',
      './v2/validators/*': 'entry/v2/validators/*.js',
      './v2/guards': 'entry/v2-guards.js',
      './v2/run-events': 'entry/v2-run-events.js',
      './runtime': 'entry/runtime.js',
      './host': 'entry/host.js',
      './conformance': 'entry/conformance.js',
    },
    dependencies: [VALIDATORS_PACKAGE, VALIDATORS_V2_PACKAGE, 'ajv', 'ajv-formats', 'fastify'],
    optionalPeers: ['pg', 'json-schema-to-typescript', 'quicktype-core'],
    bin: { wopkit: 'generator/bin.js' },
    node: '24',
    readme: 'README.md',
  },
];

/**
 * Relative imports into the validators package's files, from the other packages: the compiled module (under the
 * staging tree) → the bare specifier that reaches it. Anything else under generated/ imported from outside fails the
 * build (a package must not reach into another's files).
 */
export const SPECIFIERS: readonly { readonly module: RegExp; readonly bare: string }[] = [
  { module: /^generated\/validators\/v2\/validators\.js$/, bare: VALIDATORS_V2_PACKAGE },
  { module: /^generated\/guards\/v2\/index\.js$/, bare: `${VALIDATORS_V2_PACKAGE}/guards` },
  { module: /^generated\/run-events\/v2\/index\.js$/, bare: `${VALIDATORS_V2_PACKAGE}/run-events` },
  { module: /^generated\/ts\/v2\/[^/]+\.js$/, bare: `${VALIDATORS_V2_PACKAGE}/types` },
  { module: /^generated\/validators\/validators\.js$/, bare: VALIDATORS_PACKAGE },
  { module: /^generated\/guards\/index\.js$/, bare: `${VALIDATORS_PACKAGE}/guards` },
  { module: /^generated\/run-events\/index\.js$/, bare: `${VALIDATORS_PACKAGE}/run-events` },
  { module: /^generated\/ts\/[^/]+\.js$/, bare: `${VALIDATORS_PACKAGE}/types` },
];

/** Whether package `p` holds a staging-tree path: one of its `takes` covers it and none of its `leaves` does. */
export const holds = (p: PackageLayout, path: string): boolean =>
  p.takes.some((t) => (t.endsWith('/') ? path.startsWith(t) : path === t)) && !(p.leaves ?? []).some((l) => path.startsWith(l));

/** The `<family>/<major>` folders of schemas/ package `p` ships, of those the corpus settings load (family → majors). */
export const schemaFoldersOf = (p: Pick<PackageLayout, 'schemas'>, families: Readonly<Record<string, readonly string[]>>): string[] =>
  Object.entries(families).flatMap(([family, majors]) => majors.map((m) => `${family}/${m}`)).filter((f) => p.schemas === undefined || p.schemas.includes(f));

/**
 * The package owning a staging-tree path (the first that holds it), if any: what an import from another package
 * reaches it through. A path may be held by more packages (the first major's type declarations ship in both validators
 * packages); a package's own copy serves its own imports.
 */
export const packageOf = (path: string): PackageLayout | undefined => PACKAGES.find((p) => holds(p, path));

/** The version range of a dependency: a sibling package's exact version, else the root manifest's range. */
export function dependencyVersion(root: RootManifest, name: string): string {
  if (PACKAGES.some((p) => p.name === name)) return root.version;
  const range = root.dependencies[name] ?? root.devDependencies[name];
  if (range === undefined) throw new Error(`package layout: ${name} is not a dependency of the repository (add it to package.json)`);
  return range;
}

/** The package.json of one package. */
export function manifestOf(p: PackageLayout, root: RootManifest): Record<string, unknown> {
  const entry = (js: string) => ({ types: `./${js.replace(/\.js$/, '.d.ts')}`, default: `./${js}` });
  const main = p.exports['.']!;
  const versions = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, dependencyVersion(root, n)]));
  return {
    name: p.name,
    version: root.version,
    description: p.description(root),
    keywords: root.keywords,
    license: root.license,
    repository: root.repository,
    type: 'module',
    sideEffects: false,
    main: `./${main}`,
    types: `./${main.replace(/\.js$/, '.d.ts')}`,
    exports: {
      ...Object.fromEntries(Object.entries(p.exports).map(([sub, js]) => [sub, entry(js)])),
      './schemas/*': './schemas/*',
      './package.json': './package.json',
    },
    ...(p.bin ? { bin: p.bin } : {}),
    files: [...p.takes, 'schemas/', '!**/*.d.ts.map', 'NOTICE', 'CHANGELOG.md'],
    engines: { node: `>=${p.node}` },
    ...(p.dependencies.length ? { dependencies: versions(p.dependencies) } : {}),
    ...(p.optionalPeers.length
      ? { peerDependencies: versions(p.optionalPeers), peerDependenciesMeta: Object.fromEntries(p.optionalPeers.map((n) => [n, { optional: true }])) }
      : {}),
  };
}

/** The repository's own `exports`: the wopkit package's, as paths from the repository root (self-reference). */
export function repositoryExports(root: RootManifest): Record<string, unknown> {
  const wopkit = PACKAGES.find((p) => p.name === root.name);
  if (wopkit === undefined) throw new Error(`package layout: no package named ${root.name}`);
  const prefix = `./${posix.join('dist', wopkit.dir)}/`;
  const manifest = manifestOf(wopkit, root);
  const relocate = (v: unknown): unknown =>
    typeof v === 'string' ? (v === './package.json' ? v : v.replace(/^\.\//, prefix)) : Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, relocate(x)]));
  return relocate(manifest['exports']) as Record<string, unknown>;
}
