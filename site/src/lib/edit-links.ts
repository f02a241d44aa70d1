/**
 * "Edit this page" links, derived from package.json `repository` (so a fork that changes it gets links to its own
 * repository). Every link names a file that exists in the repository and is written by hand: a page rendered from a
 * schema links to the schema file, an API page to the source that declares it (to the schema for a type generated
 * from one), a page built from data to its page template — never to generated output.
 */
import pkg from '../../../package.json' with { type: 'json' };

/** The branch edits are proposed against. */
export const EDIT_BRANCH = 'main';

/** `git+https://github.com/o/r.git` (or `github:o/r`, `https://github.com/o/r`) → `https://github.com/o/r`. */
export function repositoryWebUrl(repository: string | { readonly url: string }): string {
  const url = typeof repository === 'string' ? repository : repository.url;
  const short = /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(url);
  if (short !== null) return `https://github.com/${short[1]}/${short[2]!.replace(/\.git$/, '')}`;
  const m = /^(?:git\+)?(?:https?|ssh|git):\/\/(?:[^@/]+@)?([^/:]+)[/:](.+?)(?:\.git)?\/?$/.exec(url);
  if (m === null) throw new Error(`package.json repository: cannot make a web URL of "${url}"`);
  return `https://${m[1]}/${m[2]}`;
}

const WEB = repositoryWebUrl(pkg.repository);

/** The edit link of a repository file (a repository-relative path). */
export const editUrl = (path: string): string => `${WEB}/edit/${EDIT_BRANCH}/${path.replace(/^\/+/, '')}`;

/** A repository file as the repository's web view shows it (a repository-relative path). */
export const blobUrl = (path: string): string => `${WEB}/blob/${EDIT_BRANCH}/${path.replace(/^\/+/, '')}`;

/** The base Starlight prefixes the docs collection's entries with (their paths are relative to the site root, site/). */
export const DOCS_EDIT_BASE = editUrl('site/');

/** The file an edit link names, back from the link (for the test that checks each exists and is hand-written). */
export const editedPath = (url: string): string | undefined => (url.startsWith(`${WEB}/edit/${EDIT_BRANCH}/`) ? url.slice(`${WEB}/edit/${EDIT_BRANCH}/`.length) : undefined);
