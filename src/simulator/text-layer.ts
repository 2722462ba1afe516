import type { Area } from './screen.js';
import type { TextSprite } from './text-sprite.js';

/** A text on a screen, and the parts of it that rectangles painted after it cover. */
interface Entry {
  sprite: TextSprite;
  cuts: Area[];
}

/**
 * The texts drawn over a screen's rectangles, in order, each blended over what is under it where its mask
 * covers. A rectangle painted after a text covers it there (a cut), as paint does: the text stays a mask, and
 * the screen stays rectangles.
 */
export class TextLayer {
  #entries: Entry[];

  constructor(entries: Entry[] = []) {
    this.#entries = entries;
  }

  get empty(): boolean {
    return this.#entries.length === 0;
  }

  /** Draws a text over everything drawn so far. */
  add(sprite: TextSprite): void {
    this.#entries.push({ sprite, cuts: [] });
  }

  /** Puts `next` where `previous` was, in the same place in the order (an element's text set); undefined takes it away. */
  replace(previous: TextSprite | undefined, next: TextSprite | undefined): void {
    const i = previous ? this.#entries.findIndex((e) => e.sprite === previous) : -1;
    if (i < 0) {
      if (next) this.add(next);
      return;
    }
    if (next) this.#entries[i] = { sprite: next, cuts: [] };
    else this.#entries.splice(i, 1);
  }

  /** A rectangle painted over the texts: each is hidden under it, and one hidden whole goes. */
  cover(area: Area): void {
    this.#entries = this.#entries.filter((entry) => {
      const ink = entry.sprite.ink;
      if (!ink) return true;
      const cut = { x1: Math.max(ink.x1, area.x1), y1: Math.max(ink.y1, area.y1), x2: Math.min(ink.x2, area.x2), y2: Math.min(ink.y2, area.y2) };
      if (cut.x2 <= cut.x1 || cut.y2 <= cut.y1) return true;
      if (cut.x1 === ink.x1 && cut.y1 === ink.y1 && cut.x2 === ink.x2 && cut.y2 === ink.y2) return false;
      entry.cuts.push(cut);
      return true;
    });
  }

  /** The texts that show, in the order drawn (a text covered whole is gone). */
  sprites(): TextSprite[] {
    return this.#entries.map((e) => e.sprite);
  }

  /** A copy whose changes leave this one alone (the sprites are shared: they never change). */
  clone(): TextLayer {
    return new TextLayer(this.#entries.map((e) => ({ sprite: e.sprite, cuts: e.cuts.slice() })));
  }

  /** The colour at (x, y) once the texts are blended over `under`, the rectangles' colour there. */
  colorAt(x: number, y: number, under: number): number {
    let color = under;
    for (const { sprite, cuts } of this.#entries) {
      const m = sprite.mask;
      const dx = x - m.x;
      const dy = y - m.y;
      if (dx < 0 || dy < 0 || dx >= m.width || dy >= m.height) continue;
      const a = m.alpha[dy * m.width + dx]!;
      if (a === 0 || isCut(cuts, x, y)) continue;
      color = blend(color, sprite.spec.color, a);
    }
    return color;
  }

  /**
   * Blends the texts into opaque RGBA pixels of a rectangle of the screen.
   * @param data the pixels of `area`, rows top to bottom
   */
  blendInto(data: Buffer, area: Area): void {
    const width = area.x2 - area.x1;
    for (const { sprite, cuts } of this.#entries) {
      const m = sprite.mask;
      const c = sprite.spec.color;
      const [r, g, b] = [(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff];
      const y0 = Math.max(m.y, area.y1);
      const y1 = Math.min(m.y + m.height, area.y2);
      const x0 = Math.max(m.x, area.x1);
      const x1 = Math.min(m.x + m.width, area.x2);
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const a = m.alpha[(y - m.y) * m.width + (x - m.x)]!;
          if (a === 0 || (cuts.length !== 0 && isCut(cuts, x, y))) continue;
          const o = ((y - area.y1) * width + (x - area.x1)) * 4;
          data[o] = mix(data[o]!, r, a);
          data[o + 1] = mix(data[o + 1]!, g, a);
          data[o + 2] = mix(data[o + 2]!, b, a);
        }
      }
    }
  }
}

function isCut(cuts: readonly Area[], x: number, y: number): boolean {
  for (const c of cuts) if (x >= c.x1 && y >= c.y1 && x < c.x2 && y < c.y2) return true;
  return false;
}

/** `over` at coverage `a` (0 to 255) over `under`, both 0xrrggbb. */
function blend(under: number, over: number, a: number): number {
  return (mix((under >> 16) & 0xff, (over >> 16) & 0xff, a) << 16) | (mix((under >> 8) & 0xff, (over >> 8) & 0xff, a) << 8) | mix(under & 0xff, over & 0xff, a);
}

function mix(under: number, over: number, a: number): number {
  return Math.round((under * (255 - a) + over * a) / 255);
}
