/**
 * The environment for a build or tool a test spawns. Vitest exports its mode into `process.env` (NODE_ENV=test,
 * MODE, DEV=1, PROD, SSR, BASE_URL, TEST, VITEST*); a Vite-based child (Astro) would read them and build a dev
 * site (no search index), and npm would see NODE_ENV. Drop them, and add `extra`.
 */
const VITEST_KEYS = new Set(['NODE_ENV', 'MODE', 'DEV', 'PROD', 'SSR', 'BASE_URL', 'TEST']);

export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!VITEST_KEYS.has(k) && !k.startsWith('VITEST')) env[k] = v;
  return { ...env, ...extra };
}
