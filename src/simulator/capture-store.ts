/** Captures kept for download; an older one answers 404, as a server that cleans up would. */
const KEPT = 64;

/** The images of the latest screen captures, by the path they are downloaded from (`<n>/<m>.png`). */
export class CaptureStore {
  #files = new Map<string, Buffer>();
  #next = 1;

  /** Keeps an image, forgetting the oldest past {@link KEPT}; returns its path under the server's root. */
  add(phoneNumber: number, png: Buffer): string {
    const file = `${phoneNumber}/${Date.now()}${String(this.#next++).padStart(4, '0')}.png`;
    this.#files.set(file, png);
    if (this.#files.size > KEPT) this.#files.delete(this.#files.keys().next().value!);
    return file;
  }

  get(file: string): Buffer | undefined {
    return this.#files.get(file);
  }

  clear(): void {
    this.#files.clear();
  }
}
