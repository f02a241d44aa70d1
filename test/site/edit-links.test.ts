/**
 * "Edit page" links (site/src/lib/edit-links.ts): derived from package.json `repository`; on every built page that
 * has one it names a file that exists in the repository and is written by hand — a schema, an RFC, a page's own
 * source or template, the source that declares an API entry — never generated output.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlFiles } from '../../scripts/check-links.ts';
import { editedPath, editUrl, repositoryWebUrl } from '../../site/src/lib/edit-links.ts';

const DIST = 'site/dist';
/** The page's edit link (Starlight's footer link, "Edit page"). */
const editLinkOf = (html: string): string | undefined => /<a href="([^"]+)"[^>]*>(?:(?!<\/a>)[^])*Edit page/.exec(html)?.[1];
const pageEdit = (path: string) => editedPath(editLinkOf(readFileSync(`${DIST}${path}index.html`, 'utf8')) ?? '');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { repository: { url: string } };

describe('edit links', () => {
  it('come from package.json repository, in the forms npm accepts', () => {
    expect(repositoryWebUrl(pkg.repository)).toBe('https://github.com/wopkit/wopkit');
    expect(repositoryWebUrl('github:o/r')).toBe('https://github.com/o/r');
    expect(repositoryWebUrl('o/r')).toBe('https://github.com/o/r');
    expect(repositoryWebUrl({ url: 'git+ssh://git@gitlab.example.org/group/proj.git' })).toBe('https://gitlab.example.org/group/proj');
    expect(repositoryWebUrl('https://github.com/o/r/')).toBe('https://github.com/o/r');
    expect(() => repositoryWebUrl('not a url')).toThrow(/cannot make a web URL of "not a url"/);
    expect(editedPath(editUrl('schemas/openwop/v1/memory-entry.schema.json'))).toBe('schemas/openwop/v1/memory-entry.schema.json');
  });

  it('on every built page but the splash and 404 pages, name a hand-written file that exists', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of htmlFiles(DIST)) {
      const page = `/${relative(DIST, file)}`;
      if (page === '/index.html' || page === '/404.html') continue;
      const html = readFileSync(file, 'utf8');
      const url = editLinkOf(html);
      if (url === undefined) {
        problems.push(`${page}: no edit link`);
        continue;
      }
      const path = editedPath(url);
      checked++;
      if (path === undefined) problems.push(`${page}: ${url} is not an edit link of this repository`);
      else if (!existsSync(path)) problems.push(`${page}: ${path} does not exist`);
      else if (/^(generated\/|site\/generated\/|site\/src\/content\/docs\/api\/|dist\/)/.test(path)) problems.push(`${page}: ${path} is generated`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(600);
  });

  it('name the right file for each kind of page', () => {
    expect(pageEdit('/spec/inquirium/')).toBe('site/src/content/docs/spec/inquirium.mdx');
    expect(pageEdit('/rfcs/p066/')).toBe('RFCs/P066-inquirium-assistant-channel.md');
    expect(pageEdit('/schemas/openwop/memory-entry/')).toBe('schemas/openwop/v1/memory-entry.schema.json');
    expect(pageEdit('/api/wopkit/interfaces/memoryentry/')).toBe('schemas/openwop/v1/memory-entry.schema.json');
    expect(pageEdit('/api/wopkit/runtime/classes/compactor/')).toBe('runtime/compaction/compactor.ts');
    expect(pageEdit('/api/wopkit/host/')).toBe('entry/host.ts');
    expect(pageEdit('/api/')).toBe('site/typedoc/overview.md');
    expect(pageEdit('/interop/')).toBe('site/src/pages/interop/index.astro');
    expect(pageEdit('/widgets/')).toBe('site/src/pages/widgets/index.astro');
  });
});
