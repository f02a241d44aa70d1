/**
 * Text measurement for the diagrams, without a browser: every label is sized from a fixed table of advance widths,
 * so a layout is the same on every machine (byte-identical SVG) and a box is never narrower than its text.
 *
 * The widths are those of DejaVu Sans (what `system-ui` / `sans-serif` resolve to on Debian, where the site is built
 * and tested), measured once in Chromium at 100 px and stored per em. DejaVu Sans is among the widest sans-serif
 * faces, so on a reader's machine (San Francisco, Segoe UI, Roboto) the same text is narrower and still fits.
 */

/** Size of every text in a diagram, in CSS pixels: drawn 1:1, never scaled (a wide drawing scrolls instead). */
export const FONT_SIZE = 13;
/** Distance between the baselines of two lines of one label. */
export const LINE_HEIGHT = 17;

/** Advance widths of printable ASCII (code 32 → 126), in em. */
const ASCII_EM = [
  0.32, 0.4, 0.46, 0.84, 0.64, 0.95, 0.78, 0.27, 0.39, 0.39, 0.5, 0.84, 0.32, 0.36, 0.32, 0.34, // space ! " # $ % & ' ( ) * + , - . /
  0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.64, // 0-9
  0.34, 0.34, 0.84, 0.84, 0.84, 0.53, 1, // : ; < = > ? @
  0.68, 0.69, 0.7, 0.77, 0.63, 0.58, 0.77, 0.75, 0.29, 0.29, 0.66, 0.56, 0.86, 0.75, 0.79, 0.6, 0.79, 0.69, 0.63, 0.61, 0.73, 0.68, 0.99, 0.69, 0.61, 0.69, // A-Z
  0.39, 0.34, 0.39, 0.84, 0.5, 0.5, // [ \ ] ^ _ `
  0.61, 0.63, 0.55, 0.63, 0.62, 0.35, 0.63, 0.63, 0.28, 0.28, 0.58, 0.28, 0.97, 0.63, 0.61, 0.63, 0.63, 0.41, 0.52, 0.39, 0.63, 0.59, 0.82, 0.59, 0.59, 0.52, // a-z
  0.64, 0.34, 0.64, 0.84, // { | } ~
] as const;
/** Anything outside ASCII (arrows, dashes, ellipses): as wide as the widest ASCII glyph. */
const OTHER_EM = 1;

/** Width of one line of text at `size` px, rounded up to a tenth of a pixel. */
export function textWidth(s: string, size: number = FONT_SIZE): number {
  let em = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    em += c >= 32 && c <= 126 ? ASCII_EM[c - 32]! : OTHER_EM;
  }
  return Math.ceil(em * size * 10) / 10;
}

/**
 * Break a label into lines of at most `maxWidth` px at spaces (a single word longer than that keeps its own line);
 * explicit `\n` breaks are kept.
 */
export function wrapText(s: string, maxWidth: number, size: number = FONT_SIZE): string[] {
  return s.split('\n').flatMap((para) => {
    const lines: string[] = [];
    let line = '';
    for (const word of para.split(' ')) {
      const next = line === '' ? word : `${line} ${word}`;
      if (line !== '' && textWidth(next, size) > maxWidth) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    lines.push(line);
    return lines;
  });
}
