#!/usr/bin/env node
/**
 * The `wopkit` bin: check the Node version, then load the CLI. Written so that any Node can parse it (no static
 * import, no syntax newer than ES2017) and run the check: on a Node older than the CLI needs, it prints one line and
 * exits 2 instead of a SyntaxError stack from a module that Node cannot parse. The CLI itself (cli.ts) is imported only
 * after the check. The generated validators do not need this: they run on Node 20.
 */
/** The oldest Node major the CLI runs on (package.json "engines"). */
export const CLI_NODE_MAJOR = 24;

const version = typeof process === 'object' && process.versions ? process.versions.node : '';
const major = Number(String(version).split('.')[0]);
if (!(major >= CLI_NODE_MAJOR)) {
  process.stderr.write(`wopkit: error: needs Node.js ${CLI_NODE_MAJOR} or later; this is Node.js ${version || 'unknown'} (the generated validators alone run on Node 20)\n`);
  process.exit(2);
} else {
  import('./cli.ts').then(
    (cli) => cli.runAsEntryPoint(),
    (e: unknown) => {
      process.stderr.write(`wopkit: error: cannot load the CLI: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(2);
    },
  );
}
