/** The compat report as a text table (terminal) and as Markdown (a pull-request comment). */
import type { CompatChange, CompatReport } from './report.ts';

const place = (c: CompatChange): string => `${c.file}#${c.pointer}`;

/** `3 changes since v0.2.0: 1 breaking (1 not acknowledged), 1 additive, 1 neutral`. */
export function headline(r: CompatReport): string {
  const { breaking, additive, neutral, unacknowledged } = r.summary;
  const n = r.changes.length;
  if (!n) return `no schema changes since ${r.base.label}`;
  return `${n} change${n === 1 ? '' : 's'} since ${r.base.label}: ${breaking} breaking${breaking ? ` (${unacknowledged} not acknowledged)` : ''}, ${additive} additive, ${neutral} neutral`;
}

/** A plain-text table, then the unacknowledged breaks with what to update. */
export function renderText(r: CompatReport): string {
  const rows = r.changes.map((c) => [c.classification, c.direction ?? '-', c.type || '-', place(c), c.acknowledgedBy ? `${c.detail} [acknowledged: ${c.acknowledgedBy}]` : c.detail]);
  const header = ['CLASS', 'DIRECTION', 'TYPE', 'WHERE', 'CHANGE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] as number))).join('  ');
  const out = rows.length ? [line(header), ...rows.map(line)] : [];
  const open = r.changes.filter((c) => c.action);
  if (open.length) out.push('', `breaking changes not acknowledged (${open.length}):`, ...open.map((c) => `  ${c.action}`));
  out.push(`compat: ${headline(r)}`);
  return out.join('\n');
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A Markdown section: summary, a table of every change, and the unacknowledged breaks with what to update. */
export function renderMarkdown(r: CompatReport): string {
  const out = [`### Schema compatibility since \`${r.base.label}\``, '', headline(r).replace(/^\d+ changes?/, (m) => `**${m}**`) + '.'];
  if (r.changes.length) {
    out.push('', '| Class | Type | Where | Direction | Change | Acknowledged by |', '|---|---|---|---|---|---|');
    for (const c of r.changes)
      out.push(`| ${c.classification === 'breaking' ? '**breaking**' : c.classification} | ${c.type ? `\`${cell(c.type)}\`` : ''} | \`${cell(place(c))}\` | ${c.direction ?? ''} | ${cell(c.detail)} | ${cell(c.acknowledgedBy ?? (c.action ? 'not acknowledged' : ''))} |`);
  }
  const open = r.changes.filter((c) => c.action);
  if (open.length) out.push('', '#### Breaking changes not acknowledged', '', ...open.map((c) => `- ${cell(c.action as string)}`));
  return out.join('\n');
}
