/**
 * Writes the API index (site/src/lib/api-links.ts, `ApiIndex`) after rendering: the site URL of every top-level
 * export of every module, so a schema page can link to its type, validator and guards. The URL of a page follows
 * from typedoc's file name the way Starlight derives routes from the docs collection (each path segment slugged,
 * `index` dropped) — the same rule starlight-typedoc uses for its sidebar links.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { slug } from 'github-slugger';
import { ReflectionKind, RendererEvent, type Application } from 'typedoc';
import type { ApiIndex } from '../src/lib/api-links.ts';
import { kindPages } from './kind-pages.ts';
import { API_DIR } from '../src/lib/urls.ts';

/** `wopkit/interfaces/MemoryEntry.md` → `/api/wopkit/interfaces/memoryentry/`; `wopkit/guards/index.md#ismemoryentry` → `/api/wopkit/guards/#ismemoryentry`. */
export function siteUrlOfTypedocFile(fileUrl: string): string {
  const [path = '', anchor] = fileUrl.split('#');
  const segments = path.replace(/\.md$/, '').split('/').filter((s) => s !== '');
  if (segments.at(-1) === 'index') segments.pop();
  const route = [API_DIR, ...segments.map((s) => slug(s))].join('/');
  return `/${route}/${anchor === undefined || anchor === '' ? '' : `#${anchor}`}`;
}

export function installApiIndex(app: Application, file: string): void {
  app.renderer.on(RendererEvent.END, (event) => {
    const router = app.renderer.router;
    if (router === undefined) return;
    const index: ApiIndex = { formatVersion: 1, modules: {} };
    const kinds = kindPages(event.project, router);
    for (const m of event.project.getChildrenByKind(ReflectionKind.Module)) {
      const exports: Record<string, string> = {};
      for (const child of m.children ?? []) if (router.hasUrl(child)) exports[child.name] = siteUrlOfTypedocFile(router.getFullUrl(child));
      const pages = kinds.filter((k) => k.module === m).map((k) => ({ title: k.title, url: siteUrlOfTypedocFile(k.file), count: k.count }));
      index.modules[m.name] = { url: siteUrlOfTypedocFile(router.getFullUrl(m)), kindPages: pages, exports };
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(index, null, 2)}\n`);
  });
}
