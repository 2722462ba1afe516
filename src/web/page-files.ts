// The files of a local page (the inspector, the review): the files both pages share (assets/ beside this module: the
// stylesheet, the API calls), the page's own, and its index.html, the one head every page has around its body.
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The content types of the files a page may have; any other file of its folder is not served. */
export const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.svg': 'image/svg+xml' };

/**
 * A page's files by name, read once: the shared ones, the page's own (a name of both is an error in the package),
 * and `index.html`, made of the page's `body.html`. `%TOKEN%` in index.html stands for the token of the URL.
 * @param command the command that serves the page, `inspect` or `review`: its title is `phonewright <command>`
 * @param dir the folder of the page's own files ({@link assetsFolder})
 */
export async function pageFiles(command: string, dir: string): Promise<Map<string, Buffer>> {
  const files = await readFiles(assetsFolder(import.meta.url));
  for (const [name, bytes] of await readFiles(dir)) {
    if (files.has(name)) throw new Error(`${path.join(dir, name)}: the local pages share a file of this name; rename the page's own`);
    files.set(name, bytes);
  }
  const body = files.get('body.html');
  if (!body) throw new Error(`${dir} has no body.html: a page's folder holds the body of its index.html`);
  files.delete('body.html');
  files.set('index.html', Buffer.from(pageHtml(command, [...files.keys()].filter((n) => n.endsWith('.css') && n !== 'page.css').sort(), body.toString('utf8'))));
  return files;
}

/**
 * The folder of a page's files, `assets/` beside the module that serves it. They are served as they are, from
 * the package's source folder: src/ ships with the package, and the build (tsc) copies no file that is not
 * TypeScript into dist/, so a module run from `dist/src/<page>/` finds them under `src/<page>/`.
 * @param moduleUrl the serving module's `import.meta.url`
 */
export function assetsFolder(moduleUrl: string): string {
  const here = path.dirname(fileURLToPath(moduleUrl));
  const beside = path.join(here, 'assets');
  if (existsSync(beside)) return beside;
  const parts = here.split(path.sep);
  const dist = parts.lastIndexOf('dist');
  return dist < 0 ? beside : path.join(parts.slice(0, dist).join(path.sep) || path.sep, ...parts.slice(dist + 1), 'assets');
}

/** What both pages' bodies hold, written `<!--part NAME-->` where it goes. */
const PARTS: Record<string, string> = {
  // The zoom of the screen (the inspector) or of the images (the review): to fit, then whole steps.
  zoom: [
    '<div class="segmented zoom" role="group" aria-label="Zoom" id="zoom">',
    '<button type="button" data-zoom="fit" class="on">Fit</button>',
    ...[1, 2, 4, 8, 16].map((z) => `<button type="button" data-zoom="${z}">${z}×</button>`),
    '</div>',
  ].join('\n'),
};

/**
 * The page: no referrer, no icon to fetch, the shared stylesheet before the page's own, and the shared script
 * before the body's (they use what it defines). Every file is named with the token, so each request carries it.
 */
function pageHtml(command: string, stylesheets: string[], body: string): string {
  const own = stylesheets.map((name) => `<link rel="stylesheet" href="${name}?token=%TOKEN%">\n`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>phonewright ${command}</title>
<link rel="stylesheet" href="page.css?token=%TOKEN%">
${own}<script src="page.js?token=%TOKEN%"></script>
</head>
<body>
${body.trimEnd().replace(/<!--part ([\w-]+)-->/g, (_, name: string) => part(name))}
</body>
</html>
`;
}

function part(name: string): string {
  const html = PARTS[name];
  if (html === undefined) throw new Error(`a page's body.html names the part "${name}", which is not one of ${Object.keys(PARTS).join(', ')}`);
  return html;
}

async function readFiles(dir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(dir)).filter((n) => TYPES[path.extname(n)]).sort();
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(path.join(dir, n))] as const)));
}
