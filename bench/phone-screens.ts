// Phone-like screens for the template search's benchmark and tests: a chat app laid out in density-independent
// pixels (dp) and drawn at any pixel width, edges anti-aliased by their exact coverage as a phone's renderer
// draws them: a gradient wallpaper, an app bar, bubbles of "text" strokes, avatars, an input bar, and a send
// button (teal, an arrow and a four-glyph label), which can be drawn elsewhere, in another colour, with another
// label, or not at all.
import type { Image } from '../src/image/index.js';

/** What the send button looks like, or that it is not there. */
export type Button = 'send' | 'other-label' | 'grey' | 'absent';

export interface SceneOptions {
  /** Where the button's top-left corner is, in dp. @default the input bar's right end */
  buttonAt?: { x: number; y: number };
  /** @default 'send' */
  button?: Button;
  /** The layout's width in dp: a phone of the same pixels but fewer dp draws everything larger. @default 411 */
  dpWidth?: number;
  /** Per-channel noise (a lossy capture), ± about this much. @default 0 */
  noise?: number;
}

/** The screen, and where its button is in pixels. */
export interface PhoneScreen {
  image: Image;
  button: { x: number; y: number; width: number; height: number };
}

type Rgb = readonly [number, number, number];
interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  c: Rgb;
}

/** A 20:9 phone: 1080×2400. */
const ASPECT = 20 / 9;
/** The send button: 200×80 pixels on a 1080-wide phone of 411 dp. */
const BUTTON = { w: 76.2, h: 30.5 };

/**
 * A chat screen `width` pixels wide; the same `seed` lays it out the same at every width.
 * @param seed the layout (bubbles, text)
 */
export function chatScreen(seed: number, width: number, options: SceneOptions = {}): PhoneScreen {
  const dpWidth = options.dpWidth ?? 411;
  const scale = width / dpWidth;
  const height = Math.round(width * ASPECT);
  const dpHeight = dpWidth * ASPECT;
  const random = prng(seed);
  const boxes: Box[] = [
    { x: 0, y: 0, w: dpWidth, h: 24, c: [16, 24, 32] },
    { x: 0, y: 24, w: dpWidth, h: 56, c: [25, 118, 210] },
  ];
  text(boxes, random, 72, 44, 120, 14, [255, 255, 255]);
  for (let y = 96; y < dpHeight - 140; ) {
    const mine = random() < 0.5;
    const w = 120 + random() * 200;
    const h = 28 + Math.floor(random() * 3) * 20;
    const x = mine ? dpWidth - 12 - w : 12;
    boxes.push({ x, y, w, h, c: mine ? [220, 248, 198] : [240, 240, 240] });
    for (let line = 0; line < (h - 8) / 20; line++) text(boxes, random, x + 10, y + 8 + line * 20, w - 20, 11, [40, 40, 40]);
    if (random() < 0.3) boxes.push({ x: mine ? x - 32 : x + w + 8, y: y + 2, w: 24, h: 24, c: [Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256)] });
    y += h + 10;
  }
  boxes.push({ x: 0, y: dpHeight - 64, w: dpWidth, h: 64, c: [250, 250, 250] }, { x: 12, y: dpHeight - 52, w: 300, h: 40, c: [255, 255, 255] });
  text(boxes, random, 30, dpHeight - 38, 120, 11, [160, 160, 160]);
  const at = options.buttonAt ?? { x: 322, y: dpHeight - 47 };
  const kind = options.button ?? 'send';
  if (kind !== 'absent') sendButton(boxes, at.x, at.y, kind);
  const image = draw(boxes, width, height, scale);
  if (options.noise) addNoise(image, options.noise, seed);
  const px = (v: number) => Math.round(v * scale);
  return { image, button: { x: px(at.x), y: px(at.y), width: px(at.x + BUTTON.w) - px(at.x), height: px(at.y + BUTTON.h) - px(at.y) } };
}

function sendButton(boxes: Box[], x: number, y: number, kind: Exclude<Button, 'absent'>): void {
  boxes.push({ x, y, w: BUTTON.w, h: BUTTON.h, c: kind === 'grey' ? [158, 158, 158] : [0, 137, 123] });
  // An arrow of thin bars narrowing to its tip, then the label's four glyphs of 2×2 cells.
  for (let i = 0; i < 8; i++) boxes.push({ x: x + 8 + i * 1.2, y: y + 8 + i * 0.9, w: 1.4, h: 14.5 - i * 1.8, c: [255, 255, 255] });
  const glyphs = kind === 'other-label' ? [[0, 1, 1, 0], [1, 0, 1, 1], [0, 1, 0, 1], [1, 1, 0, 0]] : [[1, 0, 1, 0], [0, 1, 1, 1], [1, 1, 0, 1], [0, 1, 1, 0]];
  glyphs.forEach((g, i) => g.forEach((on, j) => on && boxes.push({ x: x + 26 + i * 11 + (j % 2) * 4, y: y + 9 + Math.floor(j / 2) * 6, w: 3.5, h: 5.5, c: [255, 255, 255] })));
}

/** A line of "text": strokes of random widths and heights, with a crossbar each, and gaps between words. */
function text(boxes: Box[], random: () => number, x: number, y: number, w: number, h: number, c: Rgb): void {
  for (let at = x; at < x + w - 6; ) {
    const glyph = 3 + random() * 5;
    if (random() < 0.15) {
      at += 4;
      continue;
    }
    boxes.push({ x: at, y: y + random() * 3, w: glyph * 0.35, h: h * (0.6 + random() * 0.4), c }, { x: at, y: y + h * 0.4, w: glyph, h: 1.2, c });
    at += glyph + 1.5;
  }
}

/** Paints the wallpaper, then each box over it, its edge pixels blended by the part of them it covers. */
function draw(boxes: Box[], width: number, height: number, scale: number): Image {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0; x < width; x++, o += 4) {
      data[o] = 236 - Math.floor((y / height) * 30);
      data[o + 1] = 229 - Math.floor((x / width) * 20);
      data[o + 2] = 221;
      data[o + 3] = 255;
    }
  }
  for (const b of boxes) {
    const [X0, Y0, X1, Y1] = [b.x * scale, b.y * scale, (b.x + b.w) * scale, (b.y + b.h) * scale];
    for (let y = Math.max(0, Math.floor(Y0)); y < Math.min(height, Math.ceil(Y1)); y++) {
      const cy = Math.min(y + 1, Y1) - Math.max(y, Y0);
      for (let x = Math.max(0, Math.floor(X0)); x < Math.min(width, Math.ceil(X1)); x++) {
        const a = cy * (Math.min(x + 1, X1) - Math.max(x, X0));
        const o = (y * width + x) * 4;
        for (let c = 0; c < 3; c++) data[o + c] = Math.round(data[o + c]! * (1 - a) + b.c[c]! * a);
      }
    }
  }
  return { width, height, data };
}

function addNoise(image: Image, amount: number, seed: number): void {
  const random = prng(seed * 7919);
  const d = image.data;
  for (let i = 0; i < d.length; i++) if ((i & 3) !== 3) d[i] = Math.max(0, Math.min(255, d[i]! + Math.round((random() + random() - 1) * amount)));
}

/** A linear congruential generator: the same numbers for the same seed, everywhere. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
