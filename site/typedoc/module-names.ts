/**
 * Names each documented module after the import specifier readers use (`wopkit`, `wopkit/validators`, …) instead of
 * the barrel's file name (`index`, `validators`, …). An entry point package.json does not export is reported as a
 * warning, which the warnings gate turns into a failed build.
 */
import { Converter, ReflectionKind, type Application, type Context } from 'typedoc';
import { typedocModuleName, type Subpath } from './subpaths.ts';

export function installModuleNames(app: Application, subpaths: readonly Subpath[]): void {
  const byFile = new Map(subpaths.map((s) => [typedocModuleName(s.entry), s.name]));
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context: Context) => {
    for (const m of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const name = byFile.get(m.name);
      if (name === undefined) app.logger.warn(`typedoc entry point "${m.name}" is not a subpath of package.json exports`);
      else m.name = name;
    }
  });
}
