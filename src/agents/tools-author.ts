// The tools that write specs: `check_line` drafts the exact line the inspector would for what is on the screen now
// (a point's colour, a region's golden, a text, an image), and `write_spec` writes a spec under specs/ through the
// one writer, importing phonewright's fixtures, never over a file unless told.
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { fixturesImportFor, specsWriter, writeGolden } from '../inspector/files.js';
import { suggestLocator } from '../inspector/locators.js';
import { checkGoldenName, checkSpecName, specFile } from '../inspector/naming.js';
import { readPoint } from '../inspector/reads.js';
import { specSource } from '../inspector/spec-source.js';
import { checkImageName, writeTemplate } from '../inspector/templates.js';
import { COORD, LOCATOR, object, PHONE, text, TIMEOUT, whole } from './args.js';
import { pageLines } from './lines.js';
import { locatorOf, type LocatorArg } from './locators.js';
import { onScreen } from './tools-see.js';
import { json, type Tool } from './tool.js';

const SPEC = text('A spec under specs/, e.g. sign-in.spec.ts or settings/dark.spec.ts', 200);

interface LineArgs {
  phone?: string;
  kind: 'pixel' | 'region' | 'text' | 'image';
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  locator?: LocatorArg;
  name?: string;
  spec?: string;
  replace?: boolean;
}

/** The tools that author specs. */
export const AUTHOR_TOOLS: Tool[] = [
  {
    name: 'check_line',
    description:
      'Drafts the exact spec line the inspector would for what is on the screen now: kind pixel (x, y: the real colour, with the deltaE its neighbourhood needs), ' +
      'region (x, y, width, height, name: a toMatchRegion line; with spec, its golden is written now, else the first run writes it), ' +
      'text (a locator, or x, y on a text: a toBeVisible line with the locator naming it alone), image (x, y, width, height, name, spec: the image cut from the screen, a toShow line). ' +
      'Put the lines in a test body with write_spec.',
    input: object(
      {
        phone: PHONE,
        kind: { type: 'string', enum: ['pixel', 'region', 'text', 'image'], description: 'What the line checks' },
        x: COORD('x'),
        y: COORD('y'),
        width: whole('Width in phone pixels (region, image)', 1, 100_000),
        height: whole('Height in phone pixels (region, image)', 1, 100_000),
        locator: LOCATOR,
        name: text('The golden\'s or image\'s file name, ending in .png (region, image)', 120),
        spec: SPEC,
        replace: { type: 'boolean', description: 'Replace a golden or image that is there (default false)' },
        timeout: TIMEOUT,
      },
      ['kind'],
    ),
    async run(args: LineArgs, { lab, deadline }) {
      const { phone, facts } = await lab.phone(args.phone, { deadline });
      const call = { deadline };
      const specsDir = path.resolve(lab.options.cwd, 'specs');
      const rect = () => {
        if ([args.x, args.y, args.width, args.height].some((v) => v === undefined)) throw new UsageError(`missing argument x, y, width or height of check_line: a ${args.kind} needs all four`);
        return { x: args.x!, y: args.y!, width: args.width!, height: args.height! };
      };
      switch (args.kind) {
        case 'pixel': {
          if (args.x === undefined || args.y === undefined) throw new UsageError('missing argument x or y of check_line: a pixel needs both');
          onScreen(phone, args.x, args.y);
          const p = await readPoint(lab.client, phone.id, args.x, args.y, call, facts.screen);
          return [json({ phone: phone.id, line: pageLines().pixel(p, p.deltaE), rgb: p.rgb, spread: p.spread })];
        }
        case 'region': {
          const r = rect();
          const name = checkGoldenName(args.name ?? 'region.png');
          const line = pageLines().region(r, name, []);
          if (args.spec === undefined) return [json({ phone: phone.id, line, golden: 'written by the first run of the spec on each phone' })];
          const written = await writeGolden(lab.client, facts, { specsDir, specFile: checkSpecName(args.spec), name, rect: r, mask: [], replace: args.replace === true }, call);
          return [json({ phone: phone.id, line, golden: path.relative(lab.options.cwd, written.file) })];
        }
        case 'text': {
          if (args.locator) {
            const locator = locatorOf(phone, args.locator);
            const found = locator.matchesIn(await locator.look({ deadline }));
            if (found.length !== 1) throw new UsageError(`invalid argument locator: device.${locator} matches ${found.length} on the screen of ${phone}, a check needs one`, { hint: 'find it first; exact: true, or another text' });
            const expression = `device.${locator}`;
            return [json({ phone: phone.id, line: `await expect(${expression}).toBeVisible();`, tap: `await ${expression}.tap();`, box: found[0]!.box })];
          }
          if (args.x === undefined || args.y === undefined) throw new UsageError('missing argument locator, or x and y, of check_line: a text needs one');
          onScreen(phone, args.x, args.y);
          const s = await suggestLocator(lab.client, facts, args.x, args.y, call);
          if (!s) throw new UsageError(`invalid argument x, y: nothing with a text at (${args.x}, ${args.y}) on the screen of ${phone}`, { hint: 'screen with texts: true lists the texts and their boxes' });
          return [json({ phone: phone.id, line: s.lines.visible, tap: s.lines.tap, text: s.text, box: s.box, via: s.via })];
        }
        case 'image': {
          if (args.spec === undefined) throw new UsageError('missing argument spec of check_line: an image is written beside its spec (images/)');
          const written = await writeTemplate(lab.client, facts, { specsDir, specFile: checkSpecName(args.spec), name: checkImageName(args.name), rect: rect(), replace: args.replace === true }, call);
          return [json({ phone: phone.id, line: pageLines().show(written.image), image: path.relative(lab.options.cwd, written.file) })];
        }
      }
    },
  },
  {
    name: 'write_spec',
    description:
      'Writes a spec under specs/: name (e.g. sign-in.spec.ts) and either lines (the test body, one statement a line, with title) or source (a whole file importing test from phonewright/fixtures). ' +
      'An existing file is refused unless replace is true; paths outside specs/ and links are refused. Run it with run_specs.',
    input: object(
      {
        name: SPEC,
        title: text('The test\'s title (with lines)', 200),
        lines: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 2_000 }, minItems: 1, maxItems: 1_000, description: 'The test body, one statement a line, e.g. "await expect(device.getByText(\'Sign in\')).toBeVisible();"' },
        source: text('A whole spec file', 200_000),
        replace: { type: 'boolean', description: 'Replace the file when it exists (default false)' },
      },
      ['name'],
    ),
    async run(args: { name: string; title?: string; lines?: string[]; source?: string; replace?: boolean }, { lab }) {
      const name = checkSpecName(args.name);
      const specsDir = path.resolve(lab.options.cwd, 'specs');
      if ((args.lines === undefined) === (args.source === undefined)) throw new UsageError('invalid arguments lines and source of write_spec: give one of them');
      const fixtures = fixturesImportFor(specsDir, name);
      let source: string;
      if (args.lines) source = specSource({ title: args.title ?? name.replace(/\.spec\.ts$/, '').replace(/[-_/]/g, ' '), lines: args.lines, fixtures });
      else if (!/^import\s*\{[^}]*\btest\b[^}]*\}\s*from\s*['"][^'"]*fixtures['"]/m.test(args.source!)) throw new UsageError(`invalid argument source: a spec imports test from '${fixtures}'`, { hint: `begin it with import { test, expect } from '${fixtures}';` });
      else source = args.source!;
      const file = specFile(specsDir, name);
      await specsWriter(specsDir).write(file, source, { replace: args.replace === true, exists: 'pass replace: true to replace it, or choose another name' });
      return [json({ file: path.relative(lab.options.cwd, file), lines: source.split('\n').length })];
    },
  },
];
