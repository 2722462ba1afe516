import { CONTENT_TYPES, type ImageFormat } from './image-formats.js';

/** Captures kept for download; an older one answers 404, as a server that cleans up would. */
const KEPT = 64;

/** A kept capture: its bytes and the content type they are served with. */
export interface CaptureFile {
  bytes: Buffer;
  contentType: string;
}

/** The images of the latest screen captures, by the path they are downloaded from (`<n>/<m>.<png|jpg|bmp>`). */
export class CaptureStore {
  #files = new Map<string, CaptureFile>();
  #next = 1;

  /** Keeps an image, forgetting the oldest past {@link KEPT}; returns its path under the server's root. */
  add(phoneNumber: number, format: ImageFormat, bytes: Buffer): string {
    const file = `${phoneNumber}/${Date.now()}${String(this.#next++).padStart(4, '0')}.${format}`;
    this.#files.set(file, { bytes, contentType: CONTENT_TYPES[format] });
    if (this.#files.size > KEPT) this.#files.delete(this.#files.keys().next().value!);
    return file;
  }

  get(file: string): CaptureFile | undefined {
    return this.#files.get(file);
  }

  clear(): void {
    this.#files.clear();
  }
}
