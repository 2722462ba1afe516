// What the review writes, and where it refuses to: goldens only in a spec's snapshots folder inside the run's
// folder, spec lines only where the line writes the colour, every file atomically, a failure naming the file and
// changing nothing; decisions kept in review.json. On made-up reports (bench/review-report.ts), no browser.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeSyntheticRun, type SyntheticRun } from '../../bench/review-report.js';
import { readVisualRun } from '../../src/report/visual-failures.js';
import { Decisions } from '../../src/web/review/decisions.js';
import { Review } from '../../src/web/review/review.js';
import { pixelLine, withLines } from '../../src/web/review/spec-line.js';
import { cli, expect, expectRefused, listing, test } from '../helpers/bad-input.js';

const url = (id: string, kind: string) => `${id}/${kind}`;

/** The review of the run in `dir`, decisions beside its report. */
function reviewOf(run: SyntheticRun, cwd = run.dir): Review {
  return new Review(readVisualRun(path.join(run.reports, 'results.json'), cwd), Decisions.load(path.join(run.reports, 'review.json')), cwd);
}

/** Changes the facts of the first failure (test 0 on galaxy-s9) in the run's report. */
async function editFacts(run: SyntheticRun, change: (facts: Record<string, unknown>) => void): Promise<void> {
  const file = path.join(run.reports, 'results.json');
  const report = JSON.parse(await readFile(file, 'utf8'));
  const attachment = report.suites[0].specs[0].tests[0].results[0].attachments.find((a: { name: string }) => a.name === 'phonewright-facts.json');
  const facts = JSON.parse(Buffer.from(attachment.body, 'base64').toString('utf8'));
  change(facts);
  attachment.body = Buffer.from(JSON.stringify(facts)).toString('base64');
  await writeFile(file, JSON.stringify(report));
}

test('pixel lines: a literal colour in any form is replaced in its form; a colour from elsewhere, or written twice, is named and left', () => {
  const CASES: [string, string, string | RegExp][] = [
    ["  await device.expectPixel(5, 5).toBe('0x25425c');", 'a 0x literal', "  await device.expectPixel(5, 5).toBe('0xd500f9');"],
    ['  await device.expectPixel(5, 5).toBe("#25425C");', 'a # literal in capitals', '  await device.expectPixel(5, 5).toBe("#D500F9");'],
    ["  await expect(device).toHavePixel(5, 5, `25425c`, { tolerance: 2 });", 'toHavePixel, no prefix', "  await expect(device).toHavePixel(5, 5, `d500f9`, { tolerance: 2 });"],
    ["  await device.expectPixel(5, 5).toBe(COLOURS.bar);", 'a variable', /the colour is COLOURS\.bar, not a literal here: change it where it is defined/],
    ["  await device.expectPixel(5, 5).toBe('0x25425c'); // was '0x25425c'", 'written twice', /writes 0x25425c 2 times: change it by hand/],
    ["  await device.expectPixel(5, 5).toBe('0x000000');", 'another colour', /the line writes '0x000000', not 0x25425c: it changed since the run/],
    ["  await expect(device).toHavePixel(5, 5, EXPECTED, { tolerance: 2 });", 'a constant before the options', /the colour is EXPECTED, not a literal here/],
  ];
  for (const [code, what, want] of CASES) {
    const change = pixelLine(`test('t', async () => {\n${code}\n});\n`, 2, '0x25425c', '0xd500f9');
    if (typeof want === 'string') expect(change, what).toEqual({ line: 2, before: code, after: want });
    else expect('why' in change && change.why, what).toMatch(want);
  }
  expect(pixelLine('a\n', 7, '0x25425c', '0xd500f9')).toMatchObject({ why: 'the spec has no line 7 now: it changed since the run', kind: 'changed' });
  expect(withLines('a\r\nb\r\nc\n', [{ line: 2, after: 'B' }])).toBe('a\r\nB\r\nc\n');
});

test('a golden path the report names outside the run\'s snapshots is refused, by the review and by approve, and nothing is written', async ({ dir }) => {
  const run = await writeSyntheticRun(dir, 1);
  // Files where the paths lead, older than the run: approve's own checks (gone, newer) would let them by.
  const hour = new Date(Date.now() - 3_600_000);
  for (const file of ['outside.png', 'specs/other.spec.ts-snapshots/badge.png', 'specs/home.spec.ts-snapshots/badge.txt']) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), 'untouched');
    await utimes(path.join(dir, file), hour, hour);
  }
  const CASES: [string, string, RegExp][] = [
    ['up and out of the run', path.join(dir, 'specs', 'home.spec.ts-snapshots', '..', '..', 'outside.png'), /it is not a golden of a spec of the run/],
    ['another spec\'s snapshots', path.join(dir, 'specs', 'other.spec.ts-snapshots', 'badge.png'), /it is not a golden of a spec of the run/],
    ['not a PNG', path.join(dir, 'specs', 'home.spec.ts-snapshots', 'badge.txt'), /it is not a golden/],
    ['out of the run\'s folder altogether', '/tmp/badge-galaxy-s9.png', /it is not a golden of a spec of the run/],
  ];
  for (const [what, goldenPath, says] of CASES) {
    await editFacts(run, (f) => (f.goldenPath = goldenPath));
    const before = await listing(dir);
    const review = reviewOf(run);
    const item = review.items(url)[0]!;
    expect(item.accept.ok, what).toBe(false);
    expect(!item.accept.ok && item.accept.why, what).toMatch(says);
    await expect(review.accept('f0', 'one'), what).rejects.toThrow(says);
    const approved = await cli(['approve', '--project', 'galaxy-s9'], { cwd: dir });
    // approve refuses a golden that is not there before it looks where it goes: either way, nothing is written.
    expectRefused(approved, existsSync(goldenPath) ? new RegExp(`^phonewright: refused to write .*: ${says.source}`) : /no longer exists/, 2);
    expect(await listing(dir), what).toEqual(before);
  }
  for (const file of ['outside.png', 'specs/other.spec.ts-snapshots/badge.png']) expect(await readFile(path.join(dir, file), 'utf8')).toBe('untouched');
});

test('a golden whose folder is a link out of the run is refused; so is one where a file stands where a folder should, and the batch writes nothing', async ({ dir }) => {
  const run = await writeSyntheticRun(dir, 2);
  await mkdir(path.join(dir, 'elsewhere'));
  const snapshots = path.join(dir, 'specs', 'home.spec.ts-snapshots');
  // The link: the golden's folder is the run's by name, and outside it once followed.
  await rm(snapshots, { recursive: true });
  await symlink(path.join(dir, 'elsewhere'), snapshots);
  const linked = reviewOf(run);
  expect(linked.items(url)[0]!.accept).toMatchObject({ ok: false, why: expect.stringMatching(/home\.spec\.ts-snapshots is a symbolic link out of the run's specs/) });
  // A file where the snapshots folder should be: refused before anything is written, and no other golden changes.
  await rm(snapshots);
  await writeFile(snapshots, 'a file');
  await editFacts(run, (f) => (f.outcome = 'missing'));
  const before = await listing(dir);
  const review = reviewOf(run);
  await expect(review.accept('f0', 'phone')).rejects.toThrow(/refused to write .*specs\/home\.spec\.ts-snapshots\/badge-0-galaxy-s9\.png: .*home\.spec\.ts-snapshots is a file, not a folder; nothing was written/);
  expect(await listing(dir)).toEqual(before);
});

test('accept for every phone of a model writes each phone\'s golden once: twice the same golden is one write, two different samples for it are refused', async ({ dir }) => {
  const run = await writeSyntheticRun(dir, 1);
  const review = reviewOf(run);
  const result = await review.accept('f0', 'model');
  expect(result).toMatchObject({ written: [run.golden(0, 'galaxy-s9'), run.golden(0, 'galaxy-s9-lab')], decided: 2, skipped: 0 });
  const items = review.items(url);
  expect(items.map((i) => i.decision?.verdict)).toEqual(['accepted', 'accepted', undefined, undefined]);
  // Again, on the twin: accepted already, nothing written.
  await expect(review.accept('f1', 'one')).rejects.toThrow(/cannot accept this failure: accepted already/);
  await expect(review.accept('f1', 'model')).rejects.toThrow(/nothing to accept/);
  // Kept beside the report, by test, phone, check and the sample's hash.
  const kept = JSON.parse(await readFile(path.join(run.reports, 'review.json'), 'utf8'));
  expect(kept.decisions.map((d: { project: string; verdict: string; check: string; files: string[] }) => [d.project, d.verdict, d.check, d.files])).toEqual([
    ['galaxy-s9', 'accepted', 'golden badge-0.png', [run.golden(0, 'galaxy-s9')]],
    ['galaxy-s9-lab', 'accepted', 'golden badge-0.png', [run.golden(0, 'galaxy-s9-lab')]],
  ]);
  expect(kept.decisions[0].actual).toMatch(/^[0-9a-f]{16}$/);

  // Two phones whose goldens are one file (a server's main device is named by its model and screen on each).
  for (const [what, sample] of [['the same sample', undefined], ['two samples', 'another sample']] as const) {
    const other = await writeSyntheticRun(path.join(dir, what.replace(/ /g, '-')), 1);
    const one = other.golden(0, 'galaxy-s9');
    const report = JSON.parse(await readFile(path.join(other.reports, 'results.json'), 'utf8'));
    const twin = report.suites[0].specs[0].tests[1].results[0].attachments;
    const facts = twin.find((a: { name: string }) => a.name === 'phonewright-facts.json');
    facts.body = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(facts.body, 'base64').toString()), goldenPath: path.join(other.dir, one) })).toString('base64');
    if (sample) twin.find((a: { name: string }) => a.name === 'badge-0-actual.png').body = Buffer.from(sample).toString('base64');
    await writeFile(path.join(other.reports, 'results.json'), JSON.stringify(report));
    const before = await listing(other.dir);
    if (!sample) {
      expect(await reviewOf(other).accept('f0', 'model'), what).toMatchObject({ written: [one], decided: 2 });
    } else {
      await expect(reviewOf(other).accept('f0', 'model'), what).rejects.toThrow(/two phones' samples differ for one golden, .*badge-0-galaxy-s9\.png; nothing was written/);
      expect(await listing(other.dir), what).toEqual(before);
    }
  }
});

test('a golden written since the run that holds its sample is accepted already, whichever wrote it: approve then the review, or the review then approve, writes it once', async ({ dir }) => {
  const run = await writeSyntheticRun(dir, 1);
  // The run ended a minute ago (its goldens are older still): what is written now is newer, whatever the clock's grain.
  const ended = new Date(Date.now() - 60_000);
  const goldens = path.join(dir, 'specs', 'home.spec.ts-snapshots');
  for (const f of await readdir(goldens)) await utimes(path.join(goldens, f), new Date(ended.getTime() - 60_000), new Date(ended.getTime() - 60_000));
  await utimes(path.join(run.reports, 'results.json'), ended, ended);
  const mtime = async (file: string) => (await stat(path.join(dir, file))).mtimeMs;
  // approve first: the review then has nothing to write for that phone, and says why (not stale: it is this sample).
  const approved = await cli(['approve', '--project', 'galaxy-s9', '--json'], { cwd: dir });
  expect(approved.code, approved.stderr).toBe(0);
  expect(JSON.parse(approved.stdout).written).toEqual([run.golden(0, 'galaxy-s9')]);
  const written = await mtime(run.golden(0, 'galaxy-s9'));
  const review = reviewOf(run);
  expect(review.items(url)[0]!.accept).toEqual({ ok: false, stale: false, why: `accepted already: ${run.golden(0, 'galaxy-s9')} holds this run's sample, written since the run` });
  await expect(review.accept('f0', 'one')).rejects.toThrow(/^cannot accept this failure: accepted already: /);
  // For the model, only the twin's golden is written.
  expect(await review.accept('f0', 'model')).toMatchObject({ written: [run.golden(0, 'galaxy-s9-lab')], decided: 1, skipped: 1 });
  // The review first: approve then writes nothing for those phones.
  expect(await review.accept('f2', 'one')).toMatchObject({ written: [run.golden(0, 'pixel-7')] });
  const again = await cli(['approve', '--project', 'galaxy-s9', '--project', 'galaxy-s9-lab', '--project', 'pixel-7'], { cwd: dir });
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toBe('approve: nothing to approve: no failed region check matches in reports/results.json\n');
  expect(await mtime(run.golden(0, 'galaxy-s9'))).toBe(written);
  // A golden changed since to something else is still not what the run compared with: stale, and approve refuses.
  await writeFile(path.join(dir, run.golden(0, 'moto-g5')), 'changed by hand');
  expect(reviewOf(run).items(url)[3]!.accept).toMatchObject({ ok: false, stale: true, why: expect.stringMatching(/^stale: .*badge-0-moto-g5\.png changed after this run/) });
  expectRefused(await cli(['approve'], { cwd: dir }), /^phonewright: .*results\.json is older than .*badge-0-moto-g5\.png/, 2);
});

test('a report made on another machine is reviewed against this folder: its goldens are written here', async ({ dir }) => {
  const run = await writeSyntheticRun(dir, 1, { rootDir: '/home/runner/work/app/app' });
  const review = reviewOf(run);
  expect(review.runJson()).toMatchObject({ madeElsewhere: '/home/runner/work/app/app', root: '.' });
  const result = await review.accept('f2', 'one');
  expect(result.written).toEqual([run.golden(0, 'pixel-7')]);
  expect((await readFile(path.join(dir, run.golden(0, 'pixel-7')))).length).toBeGreaterThan(0);
});

test('a review.json that is not the review\'s is refused and left as it is', async ({ dir }) => {
  const run = await writeSyntheticRun(dir, 1);
  await writeFile(path.join(run.reports, 'review.json'), '{"my": "notes"}');
  expect(() => Decisions.load(path.join(run.reports, 'review.json'))).toThrow(/review\.json is not the review's decisions file; try: move it aside/);
  const r = await cli(['review'], { cwd: dir });
  expectRefused(r, /^phonewright: .*review\.json is not the review's decisions file/, 2);
  expect(await readFile(path.join(run.reports, 'review.json'), 'utf8')).toBe('{"my": "notes"}');
});
