/**
 * Horizontal bar charts as inline SVG strings, drawn at build time (the page ships no script). Colours come from
 * CSS classes (`.bar`, `.bar.met`, `.bar.missed`, `.goal`), text uses currentColor, so charts follow the theme.
 */

export interface Bar {
  label: string;
  value: number;
  /** A goal marker drawn across the bar's row. */
  goal?: number;
  /** Colours the bar: true = goal met, false = missed, undefined = no goal. */
  met?: boolean | null;
}

export interface BarChart {
  title: string;
  /** Appended to each value label, e.g. `×`. */
  unit?: string;
  bars: Bar[];
}

/** Each row: its label on one line, the bar under it (narrow enough to stay readable on a phone). */
const W = 420;
const VALUE_W = 64;
const ROW_H = 34;
const TOP = 2;
const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const fmt = (v: number): string => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : String(Number(v.toPrecision(3))));

/** Logarithmic when the values (and goals) span more than a factor of 50 and are all positive. */
function scaleOf(values: number[]): { log: boolean; x: (v: number) => number } {
  const max = Math.max(...values, 0);
  const positive = values.filter((v) => v > 0);
  const min = Math.min(...positive);
  const span = W - VALUE_W;
  if (positive.length === values.length && positive.length > 0 && max / min > 50) {
    const lo = Math.log10(min) - 0.3;
    const hi = Math.log10(max);
    return { log: true, x: (v) => Math.max(2, ((Math.log10(Math.max(v, min)) - lo) / (hi - lo)) * span) };
  }
  return { log: false, x: (v) => (max === 0 ? 0 : (Math.max(v, 0) / max) * span) };
}

/** The chart's caption: its title, and whether the axis is logarithmic. */
export const chartCaption = (c: BarChart): string => `${c.title}${scaleOf(values(c)).log ? ' (log scale)' : ''}`;
const values = (c: BarChart): number[] => c.bars.flatMap((b) => (b.goal === undefined ? [b.value] : [b.value, b.goal]));

export function barChartSvg(c: BarChart): string {
  const { log, x } = scaleOf(values(c));
  const h = TOP + c.bars.length * ROW_H + 4;
  const rows = c.bars.map((b, i) => {
    const y = TOP + i * ROW_H;
    const cls = b.met === true ? 'bar met' : b.met === false ? 'bar missed' : 'bar';
    const goal = b.goal === undefined ? '' : `<line class="goal" x1="${x(b.goal)}" x2="${x(b.goal)}" y1="${y + 15}" y2="${y + 31}"><title>goal ${fmt(b.goal)}${c.unit ?? ''}</title></line>`;
    return [
      `<text x="0" y="${y + 11}">${escapeXml(clip(b.label, 64))}<title>${escapeXml(b.label)}</title></text>`,
      `<rect class="${cls}" x="0" y="${y + 17}" width="${x(b.value).toFixed(1)}" height="12" rx="2"><title>${escapeXml(b.label)}: ${fmt(b.value)}${c.unit ?? ''}</title></rect>`,
      goal,
      `<text class="value" x="${x(b.value) + 4}" y="${y + 27}">${fmt(b.value)}${escapeXml(c.unit ?? '')}</text>`,
    ].join('');
  });
  return [
    `<svg class="bar-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" role="img" aria-label="${escapeXml(c.title)}">`,
    `<title>${escapeXml(c.title)}${log ? ' (log scale)' : ''}</title>`,
    ...rows,
    '</svg>',
  ].join('');
}
