/** The interop matrix input: every `conformance/results/*.latest.json` (format: conformance/result.schema.json). */
export interface ScenarioRow { id: string; title: string; rfc: string; profile: string; outcome: 'pass' | 'fail' | 'skip'; skipClass?: string; reason?: string; assertions: number }
export interface HostResults {
  file: string;
  suite: { name: string; version: string };
  host: { name: string; version: string; baseUrl: string };
  finishedAt: string;
  strict: boolean;
  summary: { pass: number; fail: number; skip: number };
  scenarios: ScenarioRow[];
}
const files = import.meta.glob<Omit<HostResults, 'file'>>('../../../conformance/results/*.latest.json', { eager: true, import: 'default' });
export const hostResults: HostResults[] = Object.entries(files)
  .map(([path, r]) => ({ ...r, file: path.split('/').pop()! }))
  .sort((a, b) => a.host.name.localeCompare(b.host.name));
/** Union of scenarios across hosts, in first-seen order. */
export const scenarioRows: { id: string; title: string; rfc: string }[] = [];
for (const h of hostResults) for (const s of h.scenarios) if (!scenarioRows.some((r) => r.id === s.id)) scenarioRows.push({ id: s.id, title: s.title, rfc: s.rfc });
