/**
 * Link checker over a built static site: every internal href/src (absolute-path or relative) must resolve to a
 * file in the build, and every #fragment must name an element id on the target page.
 * Usage: tsx scripts/check-links.ts site/dist   (exit 1 and a list of broken links when any)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';

export interface BrokenLink {
  readonly page: string;
  readonly href: string;
  readonly reason: string;
}

/** Every HTML file under `dir`, recursively. */
export function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...htmlFiles(p));
    else if (name.endsWith('.html')) out.push(p);
  }
  return out;
}

const ATTR = /\s(?:href|src)="([^"]*)"/g;
const ID = /\sid="([^"]*)"/g;
const decode = (s: string) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

export function checkLinks(root: string): { pages: number; links: number; broken: BrokenLink[] } {
  const files = htmlFiles(root);
  const ids = new Map<string, Set<string>>();
  const idsOf = (file: string): Set<string> => {
    let s = ids.get(file);
    if (s === undefined) {
      s = new Set([...readFileSync(file, 'utf8').matchAll(ID)].map((m) => decode(m[1]!)));
      ids.set(file, s);
    }
    return s;
  };
  const resolveTarget = (pathname: string): string | undefined => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    const p = join(root, decoded);
    if (existsSync(p) && statSync(p).isFile()) return p;
    if (existsSync(join(p, 'index.html'))) return join(p, 'index.html');
    if (existsSync(`${p}.html`)) return `${p}.html`;
    return undefined;
  };
  const broken: BrokenLink[] = [];
  let links = 0;
  for (const file of files) {
    const page = `/${relative(root, file).split('\\').join('/')}`;
    for (const m of readFileSync(file, 'utf8').matchAll(ATTR)) {
      const raw = decode(m[1]!);
      if (raw === '' || /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(raw)) continue; // external, mailto:, data:, javascript:
      links++;
      const hash = raw.indexOf('#');
      const pathPart = hash === -1 ? raw : raw.slice(0, hash);
      const fragment = hash === -1 ? undefined : raw.slice(hash + 1);
      const pathOnly = pathPart.split('?')[0]!;
      const absolute = pathOnly.startsWith('/') ? pathOnly : posix.join(posix.dirname(page), pathOnly);
      const target = pathOnly === '' ? file : resolveTarget(absolute);
      if (target === undefined) {
        broken.push({ page, href: raw, reason: 'no such file' });
        continue;
      }
      if (fragment !== undefined && fragment !== '' && target.endsWith('.html')) {
        let f = fragment;
        try {
          f = decodeURIComponent(fragment);
        } catch {
          /* keep raw */
        }
        if (!idsOf(target).has(f)) broken.push({ page, href: raw, reason: `no element with id "${fragment}"` });
      }
    }
  }
  return { pages: files.length, links, broken };
}

if (process.argv[1]?.endsWith('check-links.ts')) {
  const root = process.argv[2] ?? 'site/dist';
  if (!existsSync(root)) {
    process.stderr.write(`check-links: ${root} does not exist; build the site first (npm run site:build)\n`);
    process.exit(2);
  }
  const r = checkLinks(root);
  for (const b of r.broken) process.stdout.write(`BROKEN ${b.page} → ${b.href} (${b.reason})\n`);
  process.stdout.write(`${r.pages} pages, ${r.links} internal links, ${r.broken.length} broken\n`);
  process.exit(r.broken.length > 0 ? 1 : 0);
}
