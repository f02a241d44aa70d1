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

export const requirements = requirementsView([openwop as RequirementTable, inquirium as RequirementTable], latest);
