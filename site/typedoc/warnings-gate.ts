/**
 * typedoc's `treatWarningsAsErrors` is enforced by its CLI only; starlight-typedoc drives the Application itself and
 * merely logs warnings (and typedoc logs, rather than rethrows, anything thrown while an output is written). This
 * gate gives the site build the CLI's rule. Before any output is written it validates the project (broken
 * `{@link}`s and the other checks the `validation` option enables) and throws if conversion or validation logged
 * a warning; after the outputs are written it throws if rendering did. Either throw fails the site build.
 */
import { Application } from 'typedoc';

export class TypedocWarningsError extends Error {
  constructor(stage: string, warnings: number, errors: number) {
    super(`typedoc logged ${warnings} warning(s) and ${errors} error(s) ${stage}, and treatWarningsAsErrors is set; see the messages above`);
    this.name = 'TypedocWarningsError';
  }
}

export function installWarningsGate(app: Application): void {
  const check = (stage: string): void => {
    const { warningCount, errorCount } = app.logger;
    if (app.options.getValue('treatWarningsAsErrors') && warningCount + errorCount > 0) throw new TypedocWarningsError(stage, warningCount, errorCount);
  };
  app.on(Application.EVENT_GENERATE_OUTPUTS_BEGIN, (project) => {
    check('while converting');
    app.validate(project);
    check('while validating');
  });
  app.on(Application.EVENT_GENERATE_OUTPUTS_END, () => check('while rendering'));
}
