/**
 * The interop matrix of this site: every `conformance/results/*.latest.json` (one host and suite each) and every
 * timestamped results file beside them (the history), computed by interop-model.ts.
 */
import { matrixOfDirectory, type ResultsDocument } from './interop-model';

const { latest, matrix } = matrixOfDirectory(import.meta.glob<ResultsDocument>('../../../conformance/results/*.json', { eager: true, import: 'default' }));

/** The latest results files: each is published as evidence at /interop/evidence/<file>. */
export const latestResults = latest;
export { matrix };
