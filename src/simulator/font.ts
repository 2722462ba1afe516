import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Font, OpenType } from './font-types.js';
import { ConfigError } from '../core/errors.js';

/** The two faces the simulator draws text in. */
export type FontWeight = 'regular' | 'bold';

/** Every {@link FontWeight}, as scenarios write them. */
export const FONT_WEIGHTS: readonly FontWeight[] = ['regular', 'bold'];

/** A face, parsed, with the metrics line layout needs (in font units). */
export interface LoadedFont {
  font: Font;
  unitsPerEm: number;
  /** Above the baseline: the top of the line box. */
  ascender: number;
  /** Below the baseline, negative: the bottom of the line box. */
  descender: number;
}

/** Roboto (SIL Open Font License 1.1, fonts/OFL.txt): Android's own face, so drawn screens read like a phone's. */
const FILES: Record<FontWeight, string> = { regular: 'Roboto-Regular.ttf', bold: 'Roboto-Bold.ttf' };
const loaded = new Map<FontWeight, LoadedFont>();
let parser: OpenType | undefined;

/**
 * A face, parsed on first use and kept for the life of the process. opentype.js is loaded here and not at
 * import: it and a face cost ~50 ms and ~60 ms to load, which a simulator that draws no text never pays.
 */
export function fontOf(weight: FontWeight): LoadedFont {
  let face = loaded.get(weight);
  if (face) return face;
  parser ??= createRequire(import.meta.url)('opentype.js') as OpenType;
  const bytes = readFileSync(path.join(fontsDir(), FILES[weight]));
  // lowMemory: each glyph's outline is read when first drawn (a screen uses a few dozen of the font's ~1,300).
  const font = parser.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, { lowMemory: true });
  face = { font, unitsPerEm: font.unitsPerEm, ascender: font.ascender, descender: font.descender };
  loaded.set(weight, face);
  return face;
}

/**
 * The folder of the font files. They ship in the package's src/ (package.json `files`) and are read where they
 * are, whichever copy of this module runs: the TypeScript (src/simulator/), tsc's build (dist/src/simulator/),
 * or the bundle (dist/pkg/, one flat folder), as neither build copies files that are not code.
 */
export function fontsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.join(here, 'fonts'),
    path.resolve(here, '..', '..', 'src', 'simulator', 'fonts'),
    path.resolve(here, '..', '..', '..', 'src', 'simulator', 'fonts'),
  ];
  const found = candidates.find((dir) => existsSync(path.join(dir, FILES.regular)));
  if (!found) throw new ConfigError(`the simulator's fonts (${FILES.regular}) are in none of ${candidates.join(', ')}: the package is incomplete`, { hint: 'install phonewright again' });
  return found;
}
