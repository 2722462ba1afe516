// Text read from a phone's screen, offline: Tesseract's LSTM engine compiled to WebAssembly (tesseract.js-core)
// with its English model (@tesseract.js-data/eng, the integer "best" model), both installed by npm and loaded from
// node_modules. The image goes in as a PPM, which Tesseract's image library reads without decoding; the words come
// back from its TSV output with their boxes. docs/capabilities.md says why this engine.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cropWithMargin, textBlocks } from './ocr-layout.js';
import type { Image } from './png.js';

/** A word read from the screen: its text, where it is (screen pixels), and Tesseract's confidence (0–100). */
export interface Word {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  confidence: number;
}

/** A line of words, as Tesseract groups them: its text is the words joined by one space. */
export interface TextLine {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  words: Word[];
}

/** What the engine read in a rectangle of the screen. */
export interface TextRead {
  lines: TextLine[];
  /** How long the recognition took, in ms. */
  ms: number;
}

/**
 * Tesseract's page segmentation: the image as one block of text. Of its modes on phone screens this is the one
 * that reads light text on a coloured button ("Sign in", white on blue); the automatic and sparse modes skip it.
 */
const ONE_BLOCK = '6';
/** The margin of page around a block given to the engine: text touching the image's edge reads worse. */
const BLOCK_MARGIN = 6;
/** Words read below this confidence are left out: noise, an icon taken for a letter. */
const MIN_CONFIDENCE = 40;

/** The engine, loaded once per process: the model's load is paid by the first read. */
let loading: Promise<Ocr> | undefined;

/** The OCR engine of this process, loaded on first use (about a second: the WebAssembly and the model). */
export function loadOcr(): Promise<Ocr> {
  return (loading ??= Ocr.load());
}

/** One Tesseract engine, English, LSTM: reads the text of an image and where each word is. */
export class Ocr {
  // The Emscripten module's API, untyped: tesseract.js-core ships no types.
  #api: TessApi;
  #fs: TessModule['FS'];
  /** How long the engine took to load, in ms. */
  readonly loadMs: number;

  private constructor(api: TessApi, fs: TessModule['FS'], loadMs: number) {
    this.#api = api;
    this.#fs = fs;
    this.loadMs = loadMs;
  }

  /** Loads the WebAssembly core and the English model from node_modules. */
  static async load(): Promise<Ocr> {
    const t0 = performance.now();
    const require = createRequire(import.meta.url);
    // The SIMD build: Node 20's V8 has WebAssembly SIMD; the LSTM-only build is the one the integer model needs.
    const createCore = require('tesseract.js-core/tesseract-core-simd-lstm.js') as (options: object) => Promise<TessModule>;
    const core = await createCore({ print: () => undefined, printErr: () => undefined });
    const modelDir = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
    core.FS.writeFile('/eng.traineddata', gunzipSync(readFileSync(path.join(modelDir, 'eng.traineddata.gz'))));
    const api = new core.TessBaseAPI();
    if (api.Init('/', 'eng', 1) !== 0) throw new Error('the OCR engine did not start: its English model did not load');
    api.SetVariable('tessedit_pageseg_mode', ONE_BLOCK);
    return new Ocr(api, core.FS, Math.round(performance.now() - t0));
  }

  /**
   * Reads the text of an image: each block {@link textBlocks} finds recognised on its own, its words placed back
   * where they are in the image; lines top to bottom. Blocks the thread while it recognises: a few hundred ms
   * for a phone's screen.
   */
  read(image: Image): TextRead {
    const t0 = performance.now();
    const lines: TextLine[] = [];
    for (const block of textBlocks(image)) {
      const { image: crop, at } = cropWithMargin(image, block, BLOCK_MARGIN);
      for (const line of this.#recognise(crop)) lines.push(moved(line, at.x, at.y));
    }
    lines.sort((a, b) => a.y - b.y || a.x - b.x);
    return { lines, ms: Math.round(performance.now() - t0) };
  }

  #recognise(image: Image): TextLine[] {
    this.#fs.writeFile('/input', toPpm(image));
    if (this.#api.SetImageFile(1, 0) === 1) throw new Error('the OCR engine could not read the image');
    this.#api.Recognize(null);
    return parseTsv(this.#api.GetTSVText(0));
  }
}

/** A line read in a block, placed where the block is. */
function moved(line: TextLine, dx: number, dy: number): TextLine {
  return { ...line, x: line.x + dx, y: line.y + dy, words: line.words.map((w) => ({ ...w, x: w.x + dx, y: w.y + dy })) };
}

/** The Emscripten module tesseract.js-core builds: its file system and the engine's class. */
interface TessModule {
  FS: { writeFile(path: string, data: Uint8Array): void };
  TessBaseAPI: new () => TessApi;
}

/** The engine's methods this module calls. */
interface TessApi {
  Init(dataPath: string, lang: string, oem: number): number;
  SetVariable(name: string, value: string): boolean;
  SetImageFile(exif: number, angle: number): number;
  Recognize(monitor: null): number;
  GetTSVText(page: number): string;
}

/** An RGBA image as a binary PPM (P6): a header and the RGB bytes, which Tesseract's image library reads as they are. */
function toPpm(image: Image): Uint8Array {
  const header = Buffer.from(`P6\n${image.width} ${image.height}\n255\n`, 'latin1');
  const out = Buffer.allocUnsafe(header.length + image.width * image.height * 3);
  header.copy(out);
  const data = image.data;
  for (let i = 0, o = header.length; i < data.length; i += 4, o += 3) {
    out[o] = data[i]!;
    out[o + 1] = data[i + 1]!;
    out[o + 2] = data[i + 2]!;
  }
  return out;
}

/**
 * The words of Tesseract's TSV (level, page, block, paragraph, line, word, left, top, width, height, confidence,
 * text), grouped into their lines; words below {@link MIN_CONFIDENCE} and blank ones left out.
 */
function parseTsv(tsv: string): TextLine[] {
  const lines = new Map<string, Word[]>();
  for (const row of tsv.split('\n')) {
    const f = row.split('\t');
    if (f[0] !== '5' || f.length < 12) continue;
    const text = f.slice(11).join('\t').trim();
    const confidence = Number(f[10]);
    if (!text || !(confidence >= MIN_CONFIDENCE)) continue;
    const key = `${f[2]}.${f[3]}.${f[4]}`;
    const words = lines.get(key) ?? [];
    words.push({ text, x: Number(f[6]), y: Number(f[7]), width: Number(f[8]), height: Number(f[9]), confidence });
    lines.set(key, words);
  }
  return [...lines.values()].map((words) => {
    const x = Math.min(...words.map((w) => w.x));
    const y = Math.min(...words.map((w) => w.y));
    const right = Math.max(...words.map((w) => w.x + w.width));
    const bottom = Math.max(...words.map((w) => w.y + w.height));
    return { text: words.map((w) => w.text).join(' '), x, y, width: right - x, height: bottom - y, words };
  });
}
