// The spec lines the inspector drafts, from the inspector's own drafting: the page's line writer (assets/lines.js,
// run here in a context of its own, so that the page and the tools write the same line) and its locator suggestion.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { assetsFolder } from '../web/server.js';

/** The page's line writer: `PW.lines` of the inspector's lines.js. */
export interface PageLines {
  pixel(point: { x: number; y: number; rgb: string }, deltaE: number | undefined): string;
  region(rect: { x: number; y: number; width: number; height: number }, name: string, masks: readonly unknown[]): string;
  show(image: string): string;
  tap(x: number, y: number): string;
}

let lines: PageLines | undefined;

/** The inspector page's line writer, loaded once. */
export function pageLines(): PageLines {
  if (lines) return lines;
  const folder = assetsFolder(new URL('../inspector/server.js', import.meta.url).href);
  const window: { PW?: { lines: PageLines } } = {};
  runInNewContext(readFileSync(path.join(folder, 'lines.js'), 'utf8'), { window }, { filename: 'inspector/assets/lines.js' });
  return (lines = window.PW!.lines);
}
