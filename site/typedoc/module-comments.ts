/**
 * Gives each module page the introduction its barrel states: the leading doc comment of `entry/<file>.ts`
 * (typedoc does not take a file's first comment as the module's when only re-exports follow it).
 */
import { readFileSync } from 'node:fs';
import { Comment, Converter, ReflectionKind, type Application, type Context } from 'typedoc';
import type { Subpath } from './subpaths.ts';

const LEADING_DOC = /^\s*\/\*\*([\s\S]*?)\*\//;

/** The text of a file's leading `/** … *\/` block, with the ` * ` margins removed; undefined when it has none. */
export function leadingDocComment(source: string): string | undefined {
  const m = LEADING_DOC.exec(source);
  if (m === null) return undefined;
  return m[1]!
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

export function installModuleComments(app: Application, subpaths: readonly Subpath[], readSource: (entry: string) => string): void {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context: Context) => {
    for (const m of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const entry = subpaths.find((s) => s.name === m.name)?.entry;
      if (entry === undefined || m.comment !== undefined) continue;
      // The barrel names itself first (`wopkit/guards` — …); the page's title already does.
      const text = leadingDocComment(readSource(entry))?.replace(new RegExp(`^\`${m.name}\` — `), '');
      if (text !== undefined) m.comment = new Comment([{ kind: 'text', text: text.charAt(0).toUpperCase() + text.slice(1) }]);
    }
  });
}

export const readFromRepo = (root: string) => (entry: string): string => readFileSync(`${root}/${entry}`, 'utf8');
