// The manual holds together: every relative link of README.md and docs/*.md reaches a file of the repository,
// and an anchor a heading of that file (GitHub's slugs); no file of the repository cites a document the
// repository does not hold (a user's clone has only what is here); and the README stays short. Pure: files
// are read, nothing is started.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../helpers/test.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);

/** The most lines README.md may have: the quick start, one spec, the essentials, and links to docs/. */
const README_MAX_LINES = 250;

/**
 * Documents that are not in the repository, and must not be cited from it. Case matters: docs/design.md is
 * the project's own. This file names them to look for them, and is left out of the search.
 */
const NOT_HERE = ['DESIGN.md', 'STYLE.md', 'field-notes', 'vendor-extensions.md', 'device-control-api.md', '../shared'];

/** Where the repository's own text lives (README, docs, code, tests, benchmarks, scripts, specs). */
const SEARCHED = ['README.md', 'docs', 'src', 'fixtures', 'tests', 'bench', 'scripts', 'specs', 'bin', 'reports/README.md', 'package.json', 'playwright.config.ts', 'eslint.config.js', 'config.schema.json', 'tsconfig.json', 'tsconfig.build.json'];
const TEXT = /\.(ts|js|mjs|cjs|json|md|yml|yaml|html|css|txt)$/;

/** A link as written in a markdown file. */
interface Link {
  target: string;
  line: number;
}

/** Replaces fenced code blocks and inline code with blanks of the same shape, so nothing in code counts. */
function withoutCode(markdown: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, blank).replace(/(`+)[^`\n]+?\1/g, blank);
}

/**
 * Every link target of a markdown text: inline links and images `[text](target "title")`, `<…>` targets, and
 * reference definitions `[name]: target`. Links in code do not count.
 */
function linksOf(markdown: string): Link[] {
  const text = withoutCode(markdown);
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const links: Link[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ target: m[1]!.replace(/^<|>$/g, ''), line: lineAt(m.index) });
  }
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) links.push({ target: m[1]!, line: lineAt(m.index) });
  return links;
}

/**
 * A heading's anchor as GitHub makes it: the heading's text (code and emphasis marks dropped, a link's text
 * kept), lower-cased, every character but letters, marks, digits, `_`, `-` and spaces dropped, each space a `-`.
 */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*+/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The anchors a markdown text offers: its headings' slugs (a repeated one numbered `-1`, `-2`, …) and HTML ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of withoutCode(markdown).matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
    // withoutCode blanked the heading's code spans: read the heading from the original text.
    const original = markdown.slice(m.index, m.index + m[0].length).replace(/^ {0,3}#{1,6}[ \t]+/, '').replace(/[ \t]+#+[ \t]*$/, '');
    const base = slug(original);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

/**
 * What is wrong with the relative links of one markdown file: a target that is not a file or folder of the
 * repository, or an anchor no heading of the target makes. Links with a scheme (https:, mailto:) are not checked.
 * @param file the markdown file, absolute
 * @param markdown its text
 * @param read reads another markdown file of the repository (for its anchors)
 */
function brokenLinks(file: string, markdown: string, read: (file: string) => string | undefined): string[] {
  const problems: string[] = [];
  const where = (link: Link) => `${path.relative(ROOT, file)}:${link.line}: ${link.target}`;
  for (const link of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(link.target)) continue;
    const hash = link.target.indexOf('#');
    const pathPart = hash < 0 ? link.target : link.target.slice(0, hash);
    const anchor = hash < 0 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
    const target = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
    if (path.relative(ROOT, target).startsWith('..')) {
      problems.push(`${where(link)} points outside the repository`);
      continue;
    }
    const text = target === file ? markdown : read(target);
    if (text === undefined) {
      problems.push(`${where(link)}: no such file`);
      continue;
    }
    if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(text).has(anchor)) {
      problems.push(`${where(link)}: no heading of ${path.relative(ROOT, target)} makes the anchor #${anchor}`);
    }
  }
  return problems;
}

/** A file's text; '' for a folder; undefined when there is nothing there. */
function readRepoFile(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  return statSync(file).isDirectory() ? '' : readFileSync(file, 'utf8');
}

/** Every text file under the given paths of the repository, this test's own left out. */
function textFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    if (!existsSync(at)) return;
    if (statSync(at).isDirectory()) {
      for (const entry of readdirSync(at)) if (entry !== 'node_modules') walk(path.join(at, entry));
    } else if (TEXT.test(at) && at !== THIS_FILE) {
      out.push(at);
    }
  };
  for (const p of paths) walk(path.join(ROOT, p));
  return out;
}

const MANUAL = [path.join(ROOT, 'README.md'), ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join(ROOT, 'docs', f))];

test('GitHub\'s anchors: code and punctuation dropped, spaces made hyphens, repeats numbered', () => {
  expect(slug('Many servers: shards, blobs and `phonewright merge`')).toBe('many-servers-shards-blobs-and-phonewright-merge');
  expect(slug('`worker_start_ratio` sits at its target\'s edge')).toBe('worker_start_ratio-sits-at-its-targets-edge');
  expect(slug('The app or the phone?')).toBe('the-app-or-the-phone');
  expect(slug('Tests × phones')).toBe('tests--phones');
  expect(slug('A point: `tolerance` or `deltaE`')).toBe('a-point-tolerance-or-deltae');
  expect(slug('See [the CLI](cli.md) **now**')).toBe('see-the-cli-now');
  expect([...anchorsOf('# Title\n\n## Soak\n\n```sh\n# not a heading\n```\n\n## Soak\n')]).toEqual(['title', 'soak', 'soak-1']);
});

test('a link is found wherever markdown puts one, and never in code', () => {
  const md = 'See [a](a.md) and ![b](img/b.png "B"), [c](<c d.md#x>).\n\n`[no](code.md)`\n\n```md\n[no](fence.md)\n```\n\n[ref]: ref.md#y\n';
  expect(linksOf(md)).toEqual([
    { target: 'a.md', line: 1 },
    { target: 'img/b.png', line: 1 },
    { target: 'c d.md#x', line: 1 },
    { target: 'ref.md#y', line: 9 },
  ]);
});

test('a link to a missing file, to a heading that is not there, or out of the repository is reported', () => {
  const file = path.join(ROOT, 'docs', 'example.md');
  const files: Record<string, string> = { [path.join(ROOT, 'docs', 'cli.md')]: '# CLI reference\n\n## approve\n' };
  const md = '[ok](cli.md#approve) [gone](nothing.md) [anchor](cli.md#merge) [self](#here) [up](../../x.md) [web](https://example.com/#x)\n\n## Here\n';
  expect(brokenLinks(file, md, (f) => files[f])).toEqual([
    'docs/example.md:1: nothing.md: no such file',
    'docs/example.md:1: cli.md#merge: no heading of docs/cli.md makes the anchor #merge',
    'docs/example.md:1: ../../x.md points outside the repository',
  ]);
});

test('every relative link of README.md and docs/ reaches a file of the repository, and its anchor a heading there', () => {
  expect(MANUAL.length).toBeGreaterThan(5);
  const problems = MANUAL.flatMap((file) => brokenLinks(file, readFileSync(file, 'utf8'), readRepoFile));
  expect(problems).toEqual([]);
  // The test would pass on a manual without links: it has them, into docs/ and between its pages.
  const links = MANUAL.flatMap((file) => linksOf(readFileSync(file, 'utf8')));
  expect(links.filter((l) => l.target.includes('#')).length).toBeGreaterThan(10);
});

test('every page of docs/ is reachable from the README, through the index', () => {
  const index = path.join(ROOT, 'docs', 'README.md');
  const linked = (file: string) => new Set(linksOf(readFileSync(file, 'utf8')).map((l) => path.resolve(path.dirname(file), l.target.split('#')[0]!)));
  expect(linked(path.join(ROOT, 'README.md'))).toContain(index);
  const fromIndex = linked(index);
  const pages = readdirSync(path.join(ROOT, 'docs')).map((f) => path.join(ROOT, 'docs', f)).filter((f) => f !== index && !f.endsWith('.png'));
  expect(pages.filter((p) => !fromIndex.has(p))).toEqual([]);
});

test('no file of the repository cites a document the repository does not hold', () => {
  const files = textFiles(SEARCHED);
  expect(files.length).toBeGreaterThan(300);
  const citations = files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return NOT_HERE.filter((name) => text.includes(name)).map((name) => `${path.relative(ROOT, file)} names ${name}`);
  });
  expect(citations).toEqual([]);
});

test('the manual speaks in the project\'s own words: no page leans on notes a user does not have', () => {
  const leaning = MANUAL.filter((file) => /field notes/i.test(readFileSync(file, 'utf8'))).map((file) => path.relative(ROOT, file));
  expect(leaning).toEqual([]);
});

test(`README.md has at most ${README_MAX_LINES} lines`, () => {
  const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
});
