import { PNG } from 'pngjs';
import { elementRect, elementSprite, liveElement, type Element, type ElementSpec } from './elements.js';
import { encodeImage, type ImageFormat } from './image-formats.js';
import { TextLayer } from './text-layer.js';
import { TextSprite, type TextSpec } from './text-sprite.js';

/** A filled rectangle on a screen; `color` is 0xrrggbb. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
  color: number;
  /** Moves with the phone's swipes, as a list under the finger does (see {@link Screen.scroll}). */
  scrolls?: boolean;
}

/** A rectangle of the screen, `[x1, x2)` × `[y1, y2)`. */
export interface Area {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Past this many rectangles a drawn screen turns into a raster, so a pixel read stays a few comparisons. */
const MAX_VECTOR_RECTS = 256;
const STRIDE = 5;
/** Images kept encoded per screen: the whole screen in two formats, and two regions. */
const ENCODED_KEPT = 4;

/** What a drawn screen shows over its rectangles: lines of text, and UI elements (a fill, a text, a place in the tree). */
export interface ScreenContent {
  texts?: readonly TextSpec[];
  elements?: readonly ElementSpec[];
}

/**
 * A phone's screen: a fill colour with rectangles drawn over it (cheap: four phones of 1440×2960 would cost
 * 50 MB as rasters), or an RGB raster (decoded PNGs, or a drawn screen with many rectangles); then its texts,
 * coverage masks blended over the rectangles (see {@link TextLayer}), and its UI elements' tree.
 */
export class Screen {
  readonly width: number;
  readonly height: number;
  #fill: number;
  /** Flattened [x0, y0, x1, y1, color] per rectangle, clipped, painted in order. */
  #rects: number[];
  #raster: Buffer | undefined;
  /** Where in {@link #rects} the rectangles that scroll start; kept unclipped, so they can come back into view. */
  #scrolling: number[];
  /**
   * The last images made, by format and rectangle: a check that polls an unchanged screen gets the same bytes, not a
   * new encoding. The oldest is dropped past {@link ENCODED_KEPT}: a film's JPEG of the whole screen, asked twice a
   * second, beside a check's PNG of it or of a region, would otherwise push each other out and be encoded again every
   * time.
   */
  readonly #encoded = new Map<string, Buffer>();
  /** Undefined while the screen has no text: a pixel read then pays one check for them. */
  #texts: TextLayer | undefined;
  #elements: Element[];

  private constructor(width: number, height: number, fill: number, rects: number[], raster: Buffer | undefined, scrolling: number[] = [], texts?: TextLayer, elements: Element[] = []) {
    this.width = width;
    this.height = height;
    this.#fill = fill;
    this.#rects = rects;
    this.#raster = raster;
    this.#scrolling = scrolling;
    this.#texts = texts;
    this.#elements = elements;
  }

  /**
   * A screen of one colour with rectangles painted over it, in order, then its elements' fills; over them its
   * texts, then its elements' texts.
   * @param fill 0xrrggbb
   * @default rects []
   * @default content no text, no elements
   */
  static drawn(width: number, height: number, fill: number, rects: readonly Rect[] = [], content: ScreenContent = {}): Screen {
    const screen = new Screen(width, height, fill, [], undefined);
    for (const rect of rects) screen.fillRect(rect);
    const elements = (content.elements ?? []).map(liveElement);
    for (const element of elements) {
      const rect = elementRect(element);
      if (rect) screen.fillRect(rect);
    }
    const sprites = [...(content.texts ?? []).map((spec) => new TextSprite(spec)), ...elements.flatMap((e) => (e.sprite ? [e.sprite] : []))];
    if (sprites.length) {
      screen.#texts = new TextLayer();
      for (const sprite of sprites) screen.#texts.add(sprite);
    }
    screen.#elements = elements;
    return screen;
  }

  /** A screen decoded from PNG bytes (alpha is ignored: a phone's screen is opaque). Throws on a bad PNG. */
  static fromPng(bytes: Uint8Array): Screen {
    const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const raster = Buffer.allocUnsafe(png.width * png.height * 3);
    for (let i = 0, o = 0; i < png.data.length; i += 4, o += 3) {
      raster[o] = png.data[i]!;
      raster[o + 1] = png.data[i + 1]!;
      raster[o + 2] = png.data[i + 2]!;
    }
    return new Screen(png.width, png.height, 0, [], raster);
  }

  /** The colour at (x, y) as 0xrrggbb, or -1 when the point is outside the screen. */
  colorAt(x: number, y: number): number {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return -1;
    const texts = this.#texts;
    return texts === undefined ? this.#under(x, y) : texts.colorAt(x, y, this.#under(x, y));
  }

  /** The UI elements, in the order drawn (the tree the vendor's element engine searches); the array is the screen's own. */
  get elements(): readonly Element[] {
    return this.#elements;
  }

  /** The texts that show, in the order drawn: the scenario's, then the elements'. */
  texts(): TextSprite[] {
    return this.#texts?.sprites() ?? [];
  }

  /** Sets an element's text (one of {@link elements}), and draws it in place of the one it had. */
  setElementText(element: Element, text: string): void {
    this.#encoded.clear();
    const next = elementSprite(element, text);
    this.#texts ??= new TextLayer();
    this.#texts.replace(element.sprite, next);
    element.sprite = next;
    element.text = text;
  }

  /** The colour of the rectangles at (x, y), on the screen: what the texts are blended over. */
  #under(x: number, y: number): number {
    const raster = this.#raster;
    if (raster) {
      const o = (y * this.width + x) * 3;
      return (raster[o]! << 16) | (raster[o + 1]! << 8) | raster[o + 2]!;
    }
    const rects = this.#rects;
    // The last rectangle painted wins, so search from the end.
    for (let i = rects.length - STRIDE; i >= 0; i -= STRIDE) {
      if (x >= rects[i]! && y >= rects[i + 1]! && x < rects[i + 2]! && y < rects[i + 3]!) return rects[i + 4]!;
    }
    return this.#fill;
  }

  /** Paints a rectangle, clipped to the screen (one that scrolls is kept whole: a swipe may bring it in). */
  fillRect(rect: Rect): void {
    this.#encoded.clear();
    if (rect.scrolls && !this.#raster && this.#rects.length / STRIDE < MAX_VECTOR_RECTS) {
      this.#scrolling.push(this.#rects.length);
      this.#rects.push(rect.x, rect.y, rect.x + rect.width, rect.y + rect.height, rect.color);
      return;
    }
    const x0 = Math.max(0, rect.x);
    const y0 = Math.max(0, rect.y);
    const x1 = Math.min(this.width, rect.x + rect.width);
    const y1 = Math.min(this.height, rect.y + rect.height);
    if (x1 <= x0 || y1 <= y0) return;
    // Painted after the texts: it covers them where they meet, as paint would.
    if (this.#texts) this.#texts.cover({ x1: x0, y1: y0, x2: x1, y2: y1 });
    if (!this.#raster && this.#rects.length / STRIDE >= MAX_VECTOR_RECTS) this.#rasterize();
    const raster = this.#raster;
    if (!raster) {
      this.#rects.push(x0, y0, x1, y1, rect.color);
      return;
    }
    const r = (rect.color >> 16) & 0xff;
    const g = (rect.color >> 8) & 0xff;
    const b = rect.color & 0xff;
    for (let y = y0; y < y1; y++) {
      for (let o = (y * this.width + x0) * 3, end = (y * this.width + x1) * 3; o < end; o += 3) {
        raster[o] = r;
        raster[o + 1] = g;
        raster[o + 2] = b;
      }
    }
  }

  /**
   * Moves the rectangles that scroll by (dx, dy), as a swipe drags a list: what moves off the screen is kept
   * and comes back with a swipe the other way. A screen turned into a raster (past 256 rectangles) or decoded
   * from a PNG has nothing that scrolls.
   */
  scroll(dx: number, dy: number): void {
    this.#encoded.clear();
    const rects = this.#rects;
    for (const i of this.#scrolling) {
      rects[i]! += dx;
      rects[i + 1]! += dy;
      rects[i + 2]! += dx;
      rects[i + 3]! += dy;
    }
  }

  /** An independent copy (the scenario keeps its screens untouched so a reset can go back to them). */
  clone(): Screen {
    const elements = this.#elements.map((e) => ({ ...e }));
    return new Screen(this.width, this.height, this.#fill, this.#rects.slice(), this.#raster && Buffer.from(this.#raster), this.#scrolling.slice(), this.#texts?.clone(), elements);
  }

  /**
   * The screen, or a rectangle of it, as PNG bytes: the golden image of a region, a screen capture.
   * @param area the rectangle `[x1, x2)` × `[y1, y2)`, within the screen
   * @default area the whole screen
   * @returns bytes the caller must not change: the same ones come back while the screen is unchanged
   */
  toPng(area: Area = { x1: 0, y1: 0, x2: this.width, y2: this.height }): Buffer {
    return this.toImage('png', area);
  }

  /**
   * The screen, or a rectangle of it, as an image file: PNG, JPEG or a 24-bit BMP. Painted rectangle by
   * rectangle (or copied from the raster) rather than pixel by pixel; a PNG is encoded with one filter and
   * quick compression: a whole screen of 1080×1920 took ~400 ms, now ~60 ms, for a file a few times larger
   * (tens of KB).
   * @param area the rectangle `[x1, x2)` × `[y1, y2)`, within the screen
   * @default area the whole screen
   * @returns bytes the caller must not change: the same ones come back while the screen is unchanged
   */
  toImage(format: ImageFormat, area: Area = { x1: 0, y1: 0, x2: this.width, y2: this.height }): Buffer {
    const { x1, y1, x2, y2 } = area;
    const key = `${format}:${x1},${y1},${x2},${y2}`;
    const kept = this.#encoded.get(key);
    if (kept) return kept;
    const rgba = this.#rgba(area);
    this.#texts?.blendInto(rgba, area);
    const bytes = encodeImage(format, rgba, x2 - x1, y2 - y1);
    if (this.#encoded.size >= ENCODED_KEPT) this.#encoded.delete(this.#encoded.keys().next().value!);
    this.#encoded.set(key, bytes);
    return bytes;
  }

  /** The pixels of a rectangle as opaque RGBA, rows top to bottom. */
  #rgba({ x1, y1, x2, y2 }: Area): Buffer {
    const width = x2 - x1;
    const data = Buffer.alloc(width * (y2 - y1) * 4);
    const raster = this.#raster;
    if (raster) {
      for (let y = y1, o = 0; y < y2; y++) {
        for (let i = (y * this.width + x1) * 3, end = (y * this.width + x2) * 3; i < end; i += 3, o += 4) {
          data[o] = raster[i]!;
          data[o + 1] = raster[i + 1]!;
          data[o + 2] = raster[i + 2]!;
          data[o + 3] = 0xff;
        }
      }
      return data;
    }
    // The fill, then each rectangle over it in the order painted: the last one wins, as colorAt reads it.
    paint(data, width, 0, 0, width, y2 - y1, this.#fill);
    const rects = this.#rects;
    for (let i = 0; i < rects.length; i += STRIDE) {
      const [rx0, ry0, rx1, ry1] = [Math.max(rects[i]!, x1), Math.max(rects[i + 1]!, y1), Math.min(rects[i + 2]!, x2), Math.min(rects[i + 3]!, y2)];
      if (rx1 > rx0 && ry1 > ry0) paint(data, width, rx0 - x1, ry0 - y1, rx1 - x1, ry1 - y1, rects[i + 4]!);
    }
    return data;
  }

  #rasterize(): void {
    const raster = Buffer.allocUnsafe(this.width * this.height * 3);
    for (let y = 0, o = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++, o += 3) {
        const c = this.#under(x, y);
        raster[o] = (c >> 16) & 0xff;
        raster[o + 1] = (c >> 8) & 0xff;
        raster[o + 2] = c & 0xff;
      }
    }
    this.#raster = raster;
    this.#rects = [];
    this.#scrolling = [];
  }
}

/** Paints `[x0, x1)` × `[y0, y1)` of an RGBA image `width` wide in one opaque colour (0xrrggbb): one row, then copies of it. */
function paint(data: Buffer, width: number, x0: number, y0: number, x1: number, y1: number, color: number): void {
  const rowBytes = width * 4;
  const first = y0 * rowBytes + x0 * 4;
  const end = first + (x1 - x0) * 4;
  for (let o = first; o < end; o += 4) data.writeUInt32BE(((color << 8) | 0xff) >>> 0, o);
  for (let y = y0 + 1; y < y1; y++) data.copy(data, y * rowBytes + x0 * 4, first, end);
}
