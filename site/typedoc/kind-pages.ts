/**
 * A page per kind of a subpath whose entries have pages of their own (`/api/wopkit/runtime/interfaces/`: the
 * runtime's interfaces, each linked with its summary). The API sidebar links these instead of listing every entry
 * in every page of the site, and a reader who trims an entry's URL lands on a page instead of a 404. The table is
 * the module page's own section for that kind, copied from the Markdown typedoc just wrote.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { ReflectionKind, RendererEvent, type Application, type DeclarationReflection, type ProjectReflection, type Router } from 'typedoc';

export interface KindPage {
  module: DeclarationReflection;
  title: string;
  /** typedoc's file for the page, relative to the output directory: `wopkit/runtime/interfaces/index.md`. */
  file: string;
  count: number;
}

/** The kinds of each module whose every entry has its own page, and where their index pages go. */
export function kindPages(project: ProjectReflection, router: Router): KindPage[] {
  return project.getChildrenByKind(ReflectionKind.Module).flatMap((m) =>
    (m.groups ?? [])
      .filter((g) => g.children.length > 0 && g.children.every((c) => router.hasOwnDocument(c)))
      .map((g) => ({ module: m, title: g.title, file: posix.join(posix.dirname(router.getFullUrl(g.children[0]!)), 'index.md'), count: g.children.length })),
  );
}

/** The `## <title>` section of a Markdown page, without its heading. */
export function section(markdown: string, title: string): string | undefined {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start === -1) return undefined;
  const body = markdown.slice(start + title.length + 5);
  const end = body.indexOf('\n## ');
  return (end === -1 ? body : body.slice(0, end)).trim();
}

export function installKindPages(app: Application): void {
  app.renderer.on(RendererEvent.END, (event) => {
    const router = app.renderer.router;
    if (router === undefined) return;
    for (const p of kindPages(event.project, router)) {
      const modulePage = readFileSync(join(event.outputDirectory, router.getFullUrl(p.module).split('#')[0]!), 'utf8');
      const table = section(modulePage, p.title);
      if (table === undefined) {
        app.logger.warn(`${p.module.name}: no "${p.title}" section on its page to copy into ${p.file}`);
        continue;
      }
      const front = ['---', `title: ${JSON.stringify(`${p.module.name}: ${p.title}`)}`, 'editUrl: false', 'next: false', 'prev: false', '---', ''];
      writeFileSync(join(event.outputDirectory, p.file), `${front.join('\n')}\n${p.count} ${p.title.toLowerCase()} exported by \`${p.module.name}\`.\n\n${table}\n`);
    }
  });
}
