/**
 * Links each API entry generated from a schema (the type, its validator, its guards) back to the definition's place
 * in the schema reference, as a line appended to its comment. The pairs come from the site data the generator wrote
 * and the table in site/src/lib/api-links.ts that the schema pages use for the opposite direction.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Comment, Converter, ReflectionKind, type Application, type Context, type DeclarationReflection } from 'typedoc';
import type { SchemaDoc, SiteIndex } from '../../generator/site-data-format.ts';
import { DEFINITION_EXPORTS, moduleName, type ApiEntryKind } from '../src/lib/api-links.ts';
import { definitionUrl } from '../src/lib/urls.ts';

export interface SchemaTarget {
  kind: ApiEntryKind;
  title: string;
  fileName: string;
  /** The schema file, repository-relative (what the API page's edit link names). */
  path: string;
  url: string;
}

/** Module name → export name → the schema definition it was generated from. */
export type SchemaTargets = Map<string, Map<string, SchemaTarget>>;

export function readSchemaTargets(siteDataDir: string, pkg: string): SchemaTargets {
  const index = JSON.parse(readFileSync(join(siteDataDir, 'index.json'), 'utf8')) as SiteIndex;
  const out: SchemaTargets = new Map();
  for (const family of index.families) {
    for (const entry of family.schemas) {
      const doc = JSON.parse(readFileSync(join(siteDataDir, entry.data), 'utf8')) as SchemaDoc;
      for (const d of doc.definitions) {
        const target = { title: d.title, fileName: doc.fileName, path: doc.path, url: definitionUrl(doc.family, doc.stem, d.anchor) };
        for (const e of DEFINITION_EXPORTS) {
          const module = moduleName(pkg, e.subpath);
          let names = out.get(module);
          if (names === undefined) out.set(module, (names = new Map()));
          for (const name of e.names(d)) names.set(name, { kind: e.kind, ...target });
        }
      }
    }
  }
  return out;
}

const LEAD: Record<ApiEntryKind, string> = { type: 'Schema', validator: 'Validates', guard: 'Checks' };

/** The markdown line appended to an entry's comment. */
export const backlinkText = (t: SchemaTarget): string => `**${LEAD[t.kind]}:** [${t.title}](${t.url}) in \`${t.fileName}\` (schema reference).`;

/** Functions carry their comment on the signature; everything else on the declaration. */
function commentHolder(r: DeclarationReflection): { comment?: Comment | undefined } {
  const sig = r.signatures?.[0];
  return sig !== undefined && r.comment === undefined ? sig : r;
}

export function installSchemaBacklinks(app: Application, targets: SchemaTargets): void {
  app.converter.on(Converter.EVENT_RESOLVE_END, (context: Context) => {
    for (const m of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const names = targets.get(m.name);
      if (names === undefined) continue;
      for (const child of m.children ?? []) {
        const t = names.get(child.name);
        if (t === undefined) continue;
        const holder = commentHolder(child);
        holder.comment ??= new Comment();
        holder.comment.summary.push({ kind: 'text', text: `${holder.comment.summary.length > 0 ? '\n\n' : ''}${backlinkText(t)}` });
      }
    }
  });
}
