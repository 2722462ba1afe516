// Where the text on a screen is: the input a DB text detector (PaddleOCR's PP-OCR detector) takes, and the boxes
// read from the probability map it gives back. The detector marks each text line's shrunk core; a core is one
// connected run of pixels above THRESHOLD, grown back by the DB paper's unclip distance (Liao et al., "Real-time
// Scene Text Detection with Differentiable Binarization", 2020: D = A·r / L). Phone screens hold horizontal
// text, so a line is its axis-aligned box. Pure: no I/O.
import type { Rect } from '../core/screen.js';
import type { Image } from './png.js';

/** The detector's input: the screen scaled, as a planar BGR float tensor normalised as the model was trained. */
export interface DetectInput {
  data: Float32Array;
  width: number;
  height: number;
  /** Screen pixels per input pixel, across and down. */
  scaleX: number;
  scaleY: number;
}

/** A line of text found: its box in screen pixels and the detector's mean confidence over its core. */
export interface FoundBox extends Rect {
  score: number;
}

/** The detector's ImageNet normalisation, in the order PaddleOCR applies it to a BGR image. */
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];
/** A map pixel above this is text (PaddleOCR's `det_db_thresh`). */
const THRESHOLD = 0.3;
/** A core whose mean score is below this is noise (PaddleOCR's `det_db_box_thresh`). */
const BOX_THRESHOLD = 0.5;
/** How far a core is grown back, as the DB paper's r (PaddleOCR's `det_db_unclip_ratio`). */
const UNCLIP_RATIO = 1.6;
/** A core narrower or lower than this many map pixels is a speck, not a letter. */
const MIN_SIDE = 3;
/** Two boxes share a line when they overlap down by this share of the lower one. */
const SAME_LINE = 0.6;
/** The model's strides: both sides of its input are multiples of this. */
const STRIDE = 32;

/**
 * The detector's input for an image: scaled by `scale`, both sides rounded to the model's stride, normalised.
 * @param scale input pixels per image pixel: the screen's, for a band of it too, so its text keeps its size
 */
export function detectInput(image: Image, scale: number): DetectInput {
  const width = Math.max(STRIDE, Math.round((image.width * scale) / STRIDE) * STRIDE);
  const height = Math.max(STRIDE, Math.round((image.height * scale) / STRIDE) * STRIDE);
  const data = resizeToPlanes(image, { x: 0, y: 0, width: image.width, height: image.height }, width, height, (v, c) => (v / 255 - MEAN[c]!) / STD[c]!);
  return { data, width, height, scaleX: image.width / width, scaleY: image.height / height };
}

/**
 * The lines of text in the detector's probability map, top to bottom, in screen pixels.
 * @param map the map, one float per input pixel, row by row
 */
export function detectedBoxes(map: Float32Array, input: Pick<DetectInput, 'width' | 'height' | 'scaleX' | 'scaleY'>, screen: { width: number; height: number }): FoundBox[] {
  const { width, height } = input;
  const label = new Int32Array(width * height);
  const stack: number[] = [];
  const boxes: FoundBox[] = [];
  let next = 0;
  for (let start = 0; start < map.length; start++) {
    if (label[start] !== 0 || map[start]! <= THRESHOLD) continue;
    // One core, flood-filled (4-connected: two lines touching at a corner stay two).
    next++;
    let [x0, y0, x1, y1, sum, n] = [width, height, -1, -1, 0, 0];
    label[start] = next;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      sum += map[i]!;
      n++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, y > 0 ? i - width : -1, y < height - 1 ? i + width : -1]) {
        if (j >= 0 && label[j] === 0 && map[j]! > THRESHOLD) {
          label[j] = next;
          stack.push(j);
        }
      }
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    const score = sum / n;
    if (Math.min(w, h) < MIN_SIDE || score < BOX_THRESHOLD) continue;
    // The unclip distance of the core's box, D = A·r / L.
    const d = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    const left = Math.max(0, Math.floor((x0 - d) * input.scaleX));
    const top = Math.max(0, Math.floor((y0 - d) * input.scaleY));
    const right = Math.min(screen.width, Math.ceil((x1 + 1 + d) * input.scaleX));
    const bottom = Math.min(screen.height, Math.ceil((y1 + 1 + d) * input.scaleY));
    boxes.push({ x: left, y: top, width: right - left, height: bottom - top, score });
  }
  return joinSplitLines(boxes).sort((a, b) => a.y - b.y || a.x - b.x);
}

/**
 * Boxes that overlap side by side on one line joined: large text (a title read in a rectangle cut tight around it,
 * at its full size) can have its core broken at a space, and the two halves grown back over each other would be
 * read as two lines ("Welcome", "e back"). Labels apart on a row do not touch, and stay two lines.
 */
function joinSplitLines(boxes: FoundBox[]): FoundBox[] {
  const out = [...boxes].sort((a, b) => a.x - b.x);
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      const [a, b] = [out[i]!, out[j]!];
      const overlapY = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (b.x > a.x + a.width || overlapY < SAME_LINE * Math.min(a.height, b.height)) continue;
      const x = Math.min(a.x, b.x);
      const y = Math.min(a.y, b.y);
      out[i] = { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y, score: Math.max(a.score, b.score) };
      out.splice(j, 1);
      j = i;
    }
  }
  return out;
}

/**
 * A rectangle of an image scaled (bilinear) to `width` × `height`, as three planes of floats in BGR order (the
 * order PaddleOCR's models were trained on), each value passed through `norm` with its plane's index.
 */
export function resizeToPlanes(image: Image, r: Rect, width: number, height: number, norm: (v: number, plane: number) => number, stride = width): Float32Array {
  const out = new Float32Array(3 * height * stride);
  const plane = height * stride;
  const d = image.data;
  const sx = r.width / width;
  const sy = r.height / height;
  // Each plane's normalised value of every byte, once: the inner loop then only blends.
  const lut = [0, 1, 2].map((c) => Float32Array.from({ length: 256 }, (_, v) => norm(v, c)));
  for (let y = 0; y < height; y++) {
    const fy = Math.min(r.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const yA = Math.floor(fy);
    const yB = Math.min(r.height - 1, yA + 1);
    const wy = fy - yA;
    const rowA = (r.y + yA) * image.width;
    const rowB = (r.y + yB) * image.width;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(r.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const xA = Math.floor(fx);
      const xB = Math.min(r.width - 1, xA + 1);
      const wx = fx - xA;
      const a = (rowA + r.x + xA) * 4;
      const b = (rowA + r.x + xB) * 4;
      const c = (rowB + r.x + xA) * 4;
      const e = (rowB + r.x + xB) * 4;
      const o = y * stride + x;
      for (let ch = 0; ch < 3; ch++) {
        // RGBA in, BGR out: plane 0 is blue.
        const k = 2 - ch;
        const v = (d[a + k]! * (1 - wx) + d[b + k]! * wx) * (1 - wy) + (d[c + k]! * (1 - wx) + d[e + k]! * wx) * wy;
        out[ch * plane + o] = lut[ch]![Math.round(v)]!;
      }
    }
  }
  return out;
}

/**
 * The image inside a border of `pad` pixels in its background's colour (the commonest colour of its edge): text
 * that touches an image's edge (a rectangle read tight around a label) is found as well as text in the open. Not
 * the edge's own pixels repeated: where the edge cuts through letters, that draws streaks.
 */
export function withBorder(image: Image, pad: number): Image {
  const width = image.width + 2 * pad;
  const height = image.height + 2 * pad;
  const data = new Uint8Array(width * height * 4);
  const src = new Uint32Array(image.data.buffer, image.data.byteOffset, image.width * image.height);
  const out = new Uint32Array(data.buffer);
  out.fill(edgeColour(src, image.width, image.height));
  for (let y = 0; y < image.height; y++) out.set(src.subarray(y * image.width, (y + 1) * image.width), (y + pad) * width + pad);
  return { width, height, data };
}

/** The commonest pixel value on an image's edge, as RGBA packed in one number. */
function edgeColour(src: Uint32Array, width: number, height: number): number {
  const counts = new Map<number, number>();
  const add = (i: number) => counts.set(src[i]!, (counts.get(src[i]!) ?? 0) + 1);
  for (let x = 0; x < width; x++) {
    add(x);
    add((height - 1) * width + x);
  }
  for (let y = 1; y < height - 1; y++) {
    add(y * width);
    add(y * width + width - 1);
  }
  let best = src[0]!;
  for (const [v, n] of counts) if (n > (counts.get(best) ?? 0)) best = v;
  return best;
}
