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
import type { SchemaTargets } from './schema-backlinks.ts';
import { API_DIR } from '../src/lib/urls.ts';

/** The emitter that writes each generated/ folder: where an API page of generated code not made from one schema is edited. */
const GENERATED_SOURCES: readonly (readonly [string, string])[] = [
  ['generated/ts/', 'generator/emit/types.ts'],
  ['generated/validators/', 'generator/emit/validators.ts'],
  ['generated/guards/', 'generator/emit/guards.ts'],
  ['generated/run-events/', 'generator/emit/run-events.ts'],
  ['generated/routes/', 'generator/emit/routes.ts'],
];

/** The repository file an API entry's page is edited in: its declaring source, or for generated code its schema or emitter. */
export function editSource(declaredIn: string, schema: string | undefined): string {
  if (!declaredIn.startsWith('generated/')) return declaredIn;
  if (schema !== undefined) return schema;
  const emitter = GENERATED_SOURCES.find(([dir]) => declaredIn.startsWith(dir));
  if (emitter === undefined) throw new Error(`API reference: no source to edit for ${declaredIn} (add its emitter to GENERATED_SOURCES)`);
  return emitter[1];
}

/** `wopkit/interfaces/MemoryEntry.md` → `/api/wopkit/interfaces/memoryentry/`; `wopkit/guards/index.md#ismemoryentry` → `/api/wopkit/guards/#ismemoryentry`. */
export function siteUrlOfTypedocFile(fileUrl: string): string {
  const [path = '', anchor] = fileUrl.split('#');
  const segments = path.replace(/\.md$/, '').split('/').filter((s) => s !== '');
  if (segments.at(-1) === 'index') segments.pop();
  const route = [API_DIR, ...segments.map((s) => slug(s))].join('/');
  return `/${route}/${anchor === undefined || anchor === '' ? '' : `#${anchor}`}`;
}

export function installApiIndex(app: Application, file: string, targets: SchemaTargets): void {
  app.renderer.on(RendererEvent.END, (event) => {
    const router = app.renderer.router;
    if (router === undefined) return;
    const index: ApiIndex = { formatVersion: 1, modules: {}, sources: {} };
    const kinds = kindPages(event.project, router);
    const declaredIn = (r: Parameters<typeof event.project.getSymbolIdFromReflection>[0]): string => {
      const id = event.project.getSymbolIdFromReflection(r);
      if (id === undefined) throw new Error(`API reference: typedoc knows no source file of ${r.getFullName()}`);
      return id.packagePath;
    };
    for (const m of event.project.getChildrenByKind(ReflectionKind.Module)) {
      const exports: Record<string, string> = {};
      const entry = declaredIn(m);
      for (const child of m.children ?? []) {
        if (!router.hasUrl(child)) continue;
        const url = siteUrlOfTypedocFile(router.getFullUrl(child));
        exports[child.name] = url;
        if (router.hasOwnDocument(child)) index.sources[url] = editSource(declaredIn(child), targets.get(m.name)?.get(child.name)?.path);
        // A namespace's members have pages of their own (e.g. StandardSchemaV1.Issue): each names its declaring file too.
        if (child.kindOf(ReflectionKind.Namespace)) {
          for (const member of child.children ?? []) {
            if (router.hasUrl(member) && router.hasOwnDocument(member)) index.sources[siteUrlOfTypedocFile(router.getFullUrl(member))] = editSource(declaredIn(member), undefined);
          }
        }
      }
      const pages = kinds.filter((k) => k.module === m).map((k) => ({ title: k.title, url: siteUrlOfTypedocFile(k.file), count: k.count }));
      const url = siteUrlOfTypedocFile(router.getFullUrl(m));
      index.modules[m.name] = { url, kindPages: pages, exports };
      for (const page of [url, ...pages.map((p) => p.url)]) index.sources[page] = entry;
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(index, null, 2)}\n`);
  });
}
