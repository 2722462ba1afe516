// `phonewright review --static DIR`: the review page as files, to publish beside the HTML report. The same page and
// views, its failures in data.js, without the decisions (it shows those kept beside the report). An image the
// HTML report holds already is linked there (its data/ folder names each by the SHA-1 of its bytes) when the page
// goes inside the report's folder; the others, and the heat maps, are written beside the page. A failure's film is
// linked there too, where the report holds it; elsewhere the static page shows the screen alone.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { writeAtomically, type PendingWrite } from '../../report/run-files.js';
import { pageFiles } from '../page-files.js';
import { idOf, type ImageKind, type Review } from './review.js';
import { reviewAssets } from './server.js';

/** What was written. */
export interface StaticReview {
  /** The page, absolute. */
  index: string;
  failures: number;
  /** Images written beside the page, and those linked in the HTML report. */
  written: number;
  linked: number;
}

/**
 * Writes the static review page into `dir` (made if need be): index.html, its scripts and style, data.js, img/.
 * All files are written, or none.
 * @param htmlReport the HTML report's folder, whose data/ may hold the images already
 */
export async function writeStaticReview(review: Review, dir: string, htmlReport: string | undefined): Promise<StaticReview> {
  const writes: PendingWrite[] = [];
  for (const [name, bytes] of await pageFiles('review', reviewAssets())) {
    writes.push({ file: path.join(dir, name), content: name === 'index.html' ? staticHtml(bytes.toString('utf8')) : bytes });
  }
  const data = htmlReport && inside(htmlReport, dir) ? path.join(htmlReport, 'data') : undefined;
  const urls = new Map<string, string>();
  let linked = 0;
  review.run.failures.forEach((f, i) => {
    for (const [kind, png] of Object.entries(f.images) as [ImageKind, Buffer][]) {
      const sha1 = createHash('sha1').update(png).digest('hex');
      const there = data && path.join(data, `${sha1}.png`);
      if (there && existsSync(there)) {
        urls.set(`${idOf(i)} ${kind}`, posix(path.relative(dir, there)));
        linked++;
      } else {
        urls.set(`${idOf(i)} ${kind}`, `img/${idOf(i)}-${kind}.png`);
        writes.push({ file: path.join(dir, 'img', `${idOf(i)}-${kind}.png`), content: png });
      }
    }
  });
  const heat: Record<string, { changed: number; largest: number }> = {};
  review.run.failures.forEach((_, i) => {
    const h = review.heat(idOf(i));
    if (!h) return;
    heat[idOf(i)] = { changed: h.changed, largest: h.largest };
    urls.set(`${idOf(i)} heat`, `img/${idOf(i)}-heat.png`);
    writes.push({ file: path.join(dir, 'img', `${idOf(i)}-heat.png`), content: h.png });
  });
  // A film is linked where the HTML report holds its copy (data/<sha1>.webm); the page does not copy films.
  const films = new Map<string, string>();
  if (data) {
    for (const [i, f] of review.run.failures.entries()) {
      const webm = f.film && (await review.film(idOf(i)));
      const there = webm && path.join(data, `${createHash('sha1').update(webm).digest('hex')}.webm`);
      if (there && existsSync(there)) films.set(idOf(i), posix(path.relative(dir, there)));
    }
  }
  const items = review.items((id, kind) => urls.get(`${id} ${kind}`) ?? '', (id) => films.get(id));
  const doc = { run: review.runJson(), items, heat, live: false };
  // A script, not JSON: a page opened from the disk may not fetch a file beside it.
  writes.push({ file: path.join(dir, 'data.js'), content: `window.PHONEWRIGHT_REVIEW = ${JSON.stringify(doc).replace(/</g, '\\u003c')};\n` });
  await writeAtomically(writes);
  return { index: path.join(dir, 'index.html'), failures: items.length, written: writes.filter((w) => w.file.includes(`${path.sep}img${path.sep}`)).length, linked };
}

/** The page's HTML for the disk: no token on its files, and its data from data.js. */
function staticHtml(html: string): string {
  return html.replaceAll('?token=%TOKEN%', '').replace('<!--DATA-->', '<script src="data.js"></script>');
}

function inside(parent: string, child: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function posix(p: string): string {
  return p.split(path.sep).join('/');
}
