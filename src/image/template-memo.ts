// The last template search, remembered: the same template at the same options on the same pixels gives the same
// answer, so a poll whose capture is byte for byte the screen it searched last time is not searched again.
import type { Image } from './png.js';
import type { SearchOptions, SearchResult } from './template.js';

interface Searched {
  screen: Image;
  template: Image;
  scale: number | undefined;
  threshold: number | undefined;
  deltaE: number | undefined;
  result: SearchResult;
}

/**
 * {@link searchTemplate} that remembers its last search (one: the screen it held, ~8 MB for a 1080×1920 phone).
 * A search of the same template (the same decoded image) with the same options on a screen of the same pixels
 * returns that search's result without searching; any changed pixel, another template or option searches.
 */
export class LastSearch {
  #last: Searched | undefined;

  /**
   * Searches `screen` for `template`, unless the last search was of the same template and options on these pixels.
   * @param find the search itself (searchTemplate, in this process or the host's engines)
   */
  async search(screen: Image, template: Image, options: SearchOptions, find: (screen: Image, template: Image, options: SearchOptions) => Promise<SearchResult>): Promise<SearchResult> {
    const { scale, threshold, deltaE } = options;
    const last = this.#last;
    if (last && last.template === template && last.scale === scale && last.threshold === threshold && last.deltaE === deltaE && samePixels(last.screen, screen)) return last.result;
    const result = await find(screen, template, options);
    this.#last = { screen, template, scale, threshold, deltaE, result };
    return result;
  }
}

function samePixels(a: Image, b: Image): boolean {
  if (a === b) return true;
  if (a.width !== b.width || a.height !== b.height) return false;
  return Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength));
}
