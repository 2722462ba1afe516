// What the workers and the host's engines say to each other over a local socket: frames of a JSON header and
// bytes (an image's pixels), each request numbered, each answer carrying its request's number.
import type { Language } from '../core/languages.js';
import type { TextLine } from '../image/ocr.js';
import type { SearchOptions, SearchResult } from '../image/template.js';

/** The two engines: template search (OpenCV) and reads of text (the OCR engine). */
export type EngineName = 'search' | 'read';

/** An image's size; its RGBA pixels travel as the frame's bytes. */
export interface ImageSize {
  width: number;
  height: number;
}

/** A request: load an engine, read the text of an image (its pixels are the bytes), or search a screen for a template (the screen's pixels, then the template's). */
export type EngineRequest =
  | { id: number; op: 'load'; engine: EngineName }
  | { id: number; op: 'read'; image: ImageSize; languages: readonly Language[] }
  | { id: number; op: 'search'; screen: ImageSize; template: ImageSize; options: SearchOptions };

/** An answer: what the engine found, or the error it threw (its message, and its code when it is one of phonewright's). */
export type EngineAnswer =
  | { id: number; loaded: EngineName }
  | { id: number; lines: TextLine[] }
  | { id: number; result: SearchResult }
  | { id: number; error: { message: string; code?: string; hint?: string } };

/** The bytes of a frame's two lengths. */
const HEAD = 8;

/** A frame: the header's length and the bytes' length, then the header (JSON) and the bytes. */
export function frame(header: object, bytes: readonly Uint8Array[] = []): Buffer[] {
  const json = Buffer.from(JSON.stringify(header));
  const size = bytes.reduce((n, b) => n + b.byteLength, 0);
  const head = Buffer.alloc(HEAD);
  head.writeUInt32BE(json.length, 0);
  head.writeUInt32BE(size, 4);
  // Not copied (a screen is 8 MiB): the socket holds the pixels until they are written, and nothing changes a
  // capture's pixels once decoded.
  return [head, json, ...bytes.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))];
}

/** Reads frames from a stream's chunks as they come: `push` each chunk, and each whole frame is handed on. */
export class FrameReader {
  readonly #onFrame: (header: unknown, bytes: Buffer) => void;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(onFrame: (header: unknown, bytes: Buffer) => void) {
    this.#onFrame = onFrame;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    while (this.#size >= HEAD) {
      const head = this.#peek(HEAD);
      const total = HEAD + head.readUInt32BE(0) + head.readUInt32BE(4);
      if (this.#size < total) return;
      const whole = this.#take(total);
      const jsonEnd = HEAD + whole.readUInt32BE(0);
      this.#onFrame(JSON.parse(whole.subarray(HEAD, jsonEnd).toString('utf8')), whole.subarray(jsonEnd));
    }
  }

  #peek(n: number): Buffer {
    if (this.#chunks[0]!.length < n) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0]!.subarray(0, n);
  }

  #take(n: number): Buffer {
    const all = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    const rest = all.subarray(n);
    this.#chunks = rest.length ? [rest] : [];
    this.#size = rest.length;
    // A copy: the frame outlives the chunk it came in (an image kept by the engine's memo).
    return Buffer.from(all.subarray(0, n));
  }
}
