import type { TextRead } from './marks.js';

/** Colours of a line's box and label: yellow edged in black, seen on a light screen and a dark one. */
const BRIGHT = '#ffd400';
const DARK = '#000';

/**
 * The screen with every line of text read on it, as an SVG: the screen's PNG, and over it each line boxed where it
 * was read, its text as read written on a dark label just above the box (below it for a line at the top), and as
 * its title (shown on hover where the SVG is opened alone). An SVG, because the labels need a font: the browser
 * that shows the report draws them, where drawing them into the PNG would need a font rasteriser here. Sizes grow
 * with the screen, as {@link markScreen}'s do: on a 1080-wide screen, labels 32 px high and boxes drawn 3 px wide,
 * read at a glance where the report shows the screen a third of its size.
 * @param png the screen, as attached (its marks drawn)
 * @param size the screen's size in pixels: the SVG's own
 * @param texts the lines read, in screen pixels
 */
export function textsSvg(png: Buffer, size: { width: number; height: number }, texts: readonly TextRead[]): string {
  const { width, height } = size;
  const side = Math.min(width, height);
  const line = Math.max(2, Math.round(side / 360));
  const font = Math.max(12, Math.round(side / 34));
  const style = [
    `.edge{fill:none;stroke:${DARK};stroke-width:${3 * line}px}`,
    `.line{fill:none;stroke:${BRIGHT};stroke-width:${line}px}`,
    `.tag{fill:${DARK};fill-opacity:.75}`,
    `text{font:600 ${font}px sans-serif;fill:${BRIGHT}}`,
  ].join('');
  const lines = texts.map((t) => lineSvg(t, width, line, font));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<style>${style}</style>`,
    `<image width="${width}" height="${height}" href="data:image/png;base64,${png.toString('base64')}"/>`,
    ...lines,
    '</svg>',
    '',
  ].join('\n');
}

/** One line read: its box edged, its label, and its title. */
function lineSvg({ text, box }: TextRead, screenWidth: number, line: number, font: number): string {
  const pad = Math.round(font / 5);
  const tagHeight = font + 2 * pad;
  const tagWidth = Math.round(textWidth(text, font)) + 2 * pad;
  // Above the box, clear of its edge; below it where there is no room above (a status bar's clock).
  const gap = 2 * line;
  const top = box.y - gap - tagHeight >= 0 ? box.y - gap - tagHeight : box.y + box.height + gap;
  // Left-aligned with the box, pulled back where it would run off the screen's right edge.
  const left = Math.max(0, Math.min(box.x, screenWidth - tagWidth));
  const rect = `x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}"`;
  const title = `${JSON.stringify(text)} at ${box.width}×${box.height} (${box.x}, ${box.y})`;
  return [
    `<g class="read"><title>${escape(title)}</title>`,
    `<rect class="edge" ${rect}/><rect class="line" ${rect}/>`,
    `<rect class="tag" x="${left}" y="${top}" width="${tagWidth}" height="${tagHeight}" rx="${pad}"/>`,
    // The baseline a fifth of the font above the label's bottom padding: room for descenders. The text is fitted to
    // the label's width, which was estimated without the font the browser will use.
    `<text x="${left + pad}" y="${top + pad + Math.round(font * 0.8)}" textLength="${tagWidth - 2 * pad}" lengthAdjust="spacingAndGlyphs">${escape(text)}</text></g>`,
  ].join('');
}

/**
 * A text's width in a bold sans-serif, estimated without its font: 0.65 em a character, a whole em for a wide one
 * (Chinese, Japanese, Korean, fullwidth forms). The label is this wide, and the browser fits the text to it: a
 * label a little squeezed or spread in one font or another, never running out of its background.
 */
function textWidth(text: string, font: number): number {
  let ems = 0;
  for (const c of text) ems += c.codePointAt(0)! >= 0x2e80 ? 1 : 0.65;
  return ems * font;
}

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
