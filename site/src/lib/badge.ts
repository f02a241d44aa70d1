/**
 * A shields-style badge as an SVG string, drawn at build time (no external service). Text widths are estimated
 * from a per-character table for 11 px Verdana and pinned with `textLength`, so the text always fits its box.
 */

const COLORS = { green: '#2e7d32', red: '#c62828', yellow: '#a26a00', grey: '#616161', label: '#555' } as const;
export type BadgeColor = Exclude<keyof typeof COLORS, 'label'>;

/** Approximate advance widths of 11 px Verdana, in px. */
function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    if ('il.,:;|!\''.includes(ch)) w += 3.4;
    else if ('fjrt()[] '.includes(ch)) w += 4.6;
    else if ('mwMW%'.includes(ch)) w += 10.2;
    else if (/[A-Z0-9]/.test(ch)) w += 7.6;
    else w += 6.9;
  }
  return Math.ceil(w);
}

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function badgeSvg(label: string, message: string, color: BadgeColor): string {
  const pad = 6;
  const lw = textWidth(label) + 2 * pad;
  const mw = textWidth(message) + 2 * pad;
  const w = lw + mw;
  const [l, m] = [escapeXml(label), escapeXml(message)];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${l}: ${m}">`,
    `<title>${l}: ${m}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="${COLORS.label}"/><rect x="${lw}" width="${mw}" height="20" fill="${COLORS[color]}"/><rect width="${w}" height="20" fill="url(#s)"/></g>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">',
    `<text x="${lw / 2}" y="14" textLength="${lw - 2 * pad}" lengthAdjust="spacingAndGlyphs">${l}</text>`,
    `<text x="${lw + mw / 2}" y="14" textLength="${mw - 2 * pad}" lengthAdjust="spacingAndGlyphs">${m}</text>`,
    '</g></svg>',
    '',
  ].join('');
}
