// The few parts of opentype.js (2.x, which ships no types) that the simulator's text drawing uses: font.ts
// loads the package on first use and gives it this type. A module, not an ambient declaration, so that every
// build that compiles the simulator (the benchmarks' too) has it.
export interface PathCommand {
  type: 'M' | 'L' | 'Q' | 'C' | 'Z';
  x?: number;
  y?: number;
  x1?: number;
  y1?: number;
  x2?: number;
  y2?: number;
}

export interface Path {
  commands: PathCommand[];
}

export interface Glyph {
  index: number;
  advanceWidth?: number;
  /** The outline at (x, y) (y the baseline, growing down) for a font size in pixels. */
  getPath(x: number, y: number, fontSize: number): Path;
}

export interface Font {
  unitsPerEm: number;
  ascender: number;
  descender: number;
  glyphs: { get(index: number): Glyph };
  charToGlyph(char: string): Glyph;
  getKerningValue(left: Glyph, right: Glyph): number;
}

/** The package's module. */
export interface OpenType {
  /** @param options `lowMemory` parses each glyph on first use, not all at once */
  parse(buffer: ArrayBuffer, options?: { lowMemory?: boolean }): Font;
}
