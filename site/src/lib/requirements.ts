/**
 * The requirement page of this site: the requirement tables and the latest results files of conformance/results/,
 * through requirements-model.ts.
 */
import openwop from '../../../conformance/requirements/openwop-memory.json';
import inquirium from '../../../conformance/requirements/inquirium.json';
import type { RequirementTable } from '../../../conformance/requirements.ts';
import { requirementsView, type RequirementResultsFile } from './requirements-model.ts';

const files = import.meta.glob<RequirementResultsFile>('../../../conformance/results/*.latest.json', { eager: true, import: 'default' });
const latest = Object.entries(files).map(([path, r]) => ({ ...r, file: path.split('/').pop()! }));

export const requirementTables: readonly RequirementTable[] = [openwop as RequirementTable, inquirium as RequirementTable];
export const requirements = requirementsView(requirementTables, latest);

/** The rows of one restatement (`RFCs/<file>`), for its page: each rule shows its requirement id. */
export const rowsOfDocument = (document: string) => requirements.groups.flatMap((g) => g.rows).filter((r) => r.section.document === document && r.rule !== undefined);
