import { fontOf, type FontWeight } from './font.js';
import { fillOutline, mergeMasks, type Mask } from './raster.js';
import type { Area } from './screen.js';

/** Where a line of text sits in the width it is given. */
export type TextAlign = 'left' | 'center' | 'right';

/** Every {@link TextAlign}, as scenarios write them. */
export const TEXT_ALIGNS: readonly TextAlign[] = ['left', 'center', 'right'];

/**
 * A line of text to draw. Its line box (the font's ascender to its descender: 1.17 × `size` for Roboto) has
 * its top-left corner at (x, y); given a `width`, the text is aligned in it, given a `height`, the line box is
 * centred in it (an element's text, in its bounds).
 */
export interface TextSpec {
  text: string;
  /** The font size in pixels (the em). */
  size: number;
  /** 0xrrggbb. */
  color: number;
  weight: FontWeight;
  x: number;
  y: number;
  width?: number | undefined;
  height?: number | undefined;
  align: TextAlign;
}

/** What drawing a text gives: its coverage, and the box its ink covers (undefined when it has none). */
interface Drawn {
  mask: Mask;
  ink: Area | undefined;
}

/** Glyphs drawn so far, by face, glyph, size and quarter-pixel position: screens repeat letters, resets repeat screens. */
const glyphs = new Map<string, Mask>();
/** A few screens of text in a few sizes need a few hundred; past this the cache starts again. */
const MAX_GLYPHS = 8_192;
/** Glyphs sit on quarter pixels along the line: four images of a glyph at most, each within ⅛ px of its place. */
const PHASES = 4;

/**
 * A line of text on a screen: a coverage mask over the rectangles, drawn in its colour where the mask covers.
 * The font is loaded and the text drawn when first needed (a pixel read in its box, an image of the screen, a
 * read of its text's box), not when the scenario is read: a simulator whose phones never show their text
 * never pays for it. Immutable: screens copied on a reset share it.
 */
export class TextSprite {
  readonly spec: Readonly<TextSpec>;
  #drawn: Drawn | undefined;

  constructor(spec: TextSpec) {
    this.spec = Object.freeze({ ...spec });
  }

  /** The text's coverage on the screen (drawn on first use). */
  get mask(): Mask {
    return (this.#drawn ??= draw(this.spec)).mask;
  }

  /** The box its ink covers, `[x1, x2)` × `[y1, y2)`; undefined for a text with no ink (empty, or spaces). */
  get ink(): Area | undefined {
    return (this.#drawn ??= draw(this.spec)).ink;
  }
}

/**
 * Lays a line out glyph by glyph (each glyph's advance, and the kerning between two) rather than through
 * opentype.js's `getPath` for the whole text: that applies the font's substitutions, and throws on one of
 * Roboto's (a chained contextual substitution, format 2, that opentype.js 2 does not support). A character the
 * font lacks is drawn as the font's missing-glyph box.
 */
function draw(spec: TextSpec): Drawn {
  const face = fontOf(spec.weight);
  const { font } = face;
  const scale = spec.size / face.unitsPerEm;
  const placed: { index: number; at: number }[] = [];
  let pen = 0;
  let previous: ReturnType<typeof font.charToGlyph> | undefined;
  for (const char of spec.text) {
    const glyph = font.charToGlyph(char);
    if (previous) pen += font.getKerningValue(previous, glyph) * scale;
    placed.push({ index: glyph.index, at: pen });
    pen += (glyph.advanceWidth ?? 0) * scale;
    previous = glyph;
  }
  const lineHeight = (face.ascender - face.descender) * scale;
  const left = spec.x + (spec.width === undefined ? 0 : (spec.width - pen) * (spec.align === 'left' ? 0 : spec.align === 'center' ? 0.5 : 1));
  const top = spec.y + (spec.height === undefined ? 0 : (spec.height - lineHeight) / 2);
  const baseline = Math.round(top + face.ascender * scale);
  const masks = placed.map(({ index, at }) => {
    const x = left + at;
    let whole = Math.floor(x);
    let phase = Math.round((x - whole) * PHASES);
    if (phase === PHASES) [whole, phase] = [whole + 1, 0];
    const glyph = glyphMask(spec.weight, index, spec.size, phase);
    return { ...glyph, x: glyph.x + whole, y: glyph.y + baseline };
  });
  const mask = mergeMasks(masks);
  const ink = mask.width > 0 ? { x1: mask.x, y1: mask.y, x2: mask.x + mask.width, y2: mask.y + mask.height } : undefined;
  return { mask, ink };
}

/** A glyph's coverage with its origin (pen position, baseline) at (phase / 4, 0). */
function glyphMask(weight: FontWeight, index: number, size: number, phase: number): Mask {
  const key = `${weight}|${index}|${size}|${phase}`;
  let mask = glyphs.get(key);
  if (mask) return mask;
  const { font } = fontOf(weight);
  mask = fillOutline(font.glyphs.get(index).getPath(phase / PHASES, 0, size).commands);
  if (glyphs.size >= MAX_GLYPHS) glyphs.clear();
  glyphs.set(key, mask);
  return mask;
}
