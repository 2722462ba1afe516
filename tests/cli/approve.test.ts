// `phonewright approve` on the reports a run leaves: what it takes, what it refuses, and that a refusal writes
// nothing. The whole flow on a real run (a changed region fails, approve, the next run passes) is in
// tests/fixtures/region.test.ts.
import { mkdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cli, expect, expectRefused, listing, test, writeFiles } from '../helpers/bad-input.js';

const FACTS = 'phonewright-facts.json';
const PNG_BYTES = Buffer.from('89504e470d0a1a0a', 'hex');

/** A JSON report of one phone's tests, each failing with the region facts given (or passing with none). */
function report(dir: string, tests: { title: string; project?: string; golden?: string; outcome?: string; written?: boolean; isNot?: boolean }[]): string {
  const attachment = (name: string, body: Buffer | string) => ({ name, contentType: 'application/octet-stream', body: Buffer.from(body).toString('base64') });
  return JSON.stringify({
    config: { rootDir: path.join(dir, 'specs') },
    suites: [
      {
        title: 'home.spec.ts',
        file: 'home.spec.ts',
        specs: tests.map((t) => ({
          title: t.title,
          file: 'home.spec.ts',
          tests: [
            {
              projectName: t.project ?? 'galaxy-s9',
              results: [
                {
                  status: t.golden ? 'failed' : 'passed',
                  attachments: t.golden
                    ? [
                        attachment('bar-actual.png', Buffer.concat([PNG_BYTES, Buffer.from(t.title)])),
                        attachment(FACTS, JSON.stringify({ matcher: 'toMatchRegion', phone: 'galaxy-s9', isNot: t.isNot ?? false, region: { x: 0, y: 0, width: 8, height: 8 }, golden: t.golden, goldenPath: path.join(dir, t.golden), actualAttachment: 'bar-actual.png', outcome: t.outcome ?? 'differs', written: t.written, reads: { answered: 3, unanswered: 0, ms: 900, timeout: 1000 } })),
                      ]
                    : [],
                },
              ],
            },
          ],
        })),
        suites: [],
      },
    ],
  });
}

test('takes each failed region check\'s sample as its golden; --project and --grep narrow it; --json lists them', async ({ dir }) => {
  const golden = 'specs/home.spec.ts-snapshots/bar-galaxy-s9.png';
  const other = 'specs/home.spec.ts-snapshots/bar-pixel-7.png';
  await writeFiles(dir, {
    'specs/home.spec.ts': '// the spec',
    [golden]: 'old',
    [other]: 'old',
    'reports/results.json': report(dir, [
      { title: 'status bar', golden },
      { title: 'status bar', project: 'pixel-7', golden: other },
      { title: 'passes' },
      { title: 'not the old bar', golden, isNot: true },
    ]),
  });
  const json = await cli(['approve', '--dry-run', '--json'], { cwd: dir });
  expect(JSON.parse(json.stdout)).toEqual({
    written: [],
    approvals: [
      { project: 'galaxy-s9', test: 'home.spec.ts › status bar', golden },
      { project: 'pixel-7', test: 'home.spec.ts › status bar', golden: other },
    ],
  });
  const one = await cli(['approve', '--project', 'pixel-7', '--grep', 'status'], { cwd: dir });
  expect(one.stdout).toBe(`wrote ${other}  (pixel-7 › home.spec.ts › status bar)\napprove: 1 golden(s) written\n`);
  expect((await listing(dir)).filter((f) => f.includes('snapshots/'))).toEqual([`${golden} (3 bytes)`, `${other} (${PNG_BYTES.length + 'status bar'.length} bytes)`]);
  const none = await cli(['approve', '--grep', 'no such test'], { cwd: dir });
  expect([none.code, none.stdout]).toEqual([0, 'approve: nothing to approve: no failed region check matches in reports/results.json\n']);
});

test('a golden never written is approved while its spec is there; a golden or spec that is gone refuses everything', async ({ dir }) => {
  const fresh = 'specs/home.spec.ts-snapshots/bar-galaxy-s9.png';
  const moved = 'specs/old.spec.ts-snapshots/bar-galaxy-s9.png';
  await writeFiles(dir, {
    'specs/home.spec.ts': '// the spec',
    'reports/results.json': report(dir, [{ title: 'new bar', golden: fresh, outcome: 'missing', written: false }]),
  });
  const made = await cli(['approve'], { cwd: dir });
  expect(made.stdout).toContain(`wrote ${fresh}`);

  await writeFiles(dir, { 'reports/results.json': report(dir, [{ title: 'new bar', golden: fresh, outcome: 'missing', written: false }, { title: 'moved', golden: moved }]) });
  const before = await listing(dir);
  expectRefused(await cli(['approve'], { cwd: dir }), /^phonewright: .*specs\/old\.spec\.ts-snapshots\/bar-galaxy-s9\.png no longer exists \(the golden of galaxy-s9 › home\.spec\.ts › moved\); nothing was written; try: run the specs again/, 2);
  expect(await listing(dir)).toEqual(before);
});

test('a results file older than a golden it would write is refused: the run did not compare with that golden', async ({ dir }) => {
  const golden = 'specs/home.spec.ts-snapshots/bar-galaxy-s9.png';
  await writeFiles(dir, { 'specs/home.spec.ts': '// the spec', [golden]: 'old', 'reports/results.json': report(dir, [{ title: 'status bar', golden }]) });
  // The golden changed after the run: by hand, or by an approve of this same run.
  const later = new Date(Date.now() + 60_000);
  await utimes(path.join(dir, golden), later, later);
  const before = await listing(dir);
  expectRefused(await cli(['approve'], { cwd: dir }), /^phonewright: .*reports\/results\.json is older than .*specs\/home\.spec\.ts-snapshots\/bar-galaxy-s9\.png \(the golden of galaxy-s9 › home\.spec\.ts › status bar\): the run did not compare with it; nothing was written; try: run the specs again/, 2);
  expect(await listing(dir)).toEqual(before);
});

test('approving a run twice: the second finds its samples written already, writes nothing and refuses nothing', async ({ dir }) => {
  const golden = 'specs/home.spec.ts-snapshots/bar-galaxy-s9.png';
  await writeFiles(dir, { 'specs/home.spec.ts': '// the spec', [golden]: 'old', 'reports/results.json': report(dir, [{ title: 'status bar', golden }]) });
  const first = await cli(['approve'], { cwd: dir });
  expect(first.code, first.stderr).toBe(0);
  // The golden is written after the run, as any approve's is.
  const later = new Date(Date.now() + 60_000);
  await utimes(path.join(dir, golden), later, later);
  const before = await listing(dir);
  const again = await cli(['approve', '--json'], { cwd: dir });
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toBe('');
  expect(JSON.parse(again.stdout)).toEqual({ written: [], approvals: [] });
  expect(await listing(dir)).toEqual(before);
});

test('a report whose run was made in another folder of this machine, or a golden behind a link, writes nothing', async ({ dir }) => {
  // A results.json (a downloaded artifact, say) naming a run made in another folder here: its goldens are that
  // folder's files, which a review of this folder never writes.
  const victim = `${dir}-victim`;
  const golden = 'specs/home.spec.ts-snapshots/bar-galaxy-s9.png';
  await writeFiles(victim, { 'specs/home.spec.ts': '// theirs', [golden]: 'theirs' });
  await writeFiles(dir, { 'specs/home.spec.ts': '// the spec', 'reports/results.json': report(victim, [{ title: 'status bar', golden }]) });
  const before = await listing(dir);
  expectRefused(await cli(['approve'], { cwd: dir }), /^phonewright: approve: nothing written: the run was made in .*-victim\/specs, not in .*: review it from that folder, or give that folder as --root; try: /, 2);
  expect(await listing(dir)).toEqual(before);
  expect(await readFile(path.join(victim, golden), 'utf8')).toBe('theirs');
  await rm(victim, { recursive: true, force: true });

  // The run's own golden is a link to a file outside the project: never written through.
  const outside = path.join(path.dirname(dir), `${path.basename(dir)}-outside.png`);
  await writeFile(outside, 'keep me');
  try {
    await writeFiles(dir, { 'reports/results.json': report(dir, [{ title: 'status bar', golden }]) });
    await mkdir(path.dirname(path.join(dir, golden)), { recursive: true });
    await symlink(outside, path.join(dir, golden));
    expectRefused(await cli(['approve'], { cwd: dir }), /^phonewright: refused to write .*bar-galaxy-s9\.png: it is a symbolic link.*; nothing was written; try: /, 2);
    expect(await readFile(outside, 'utf8')).toBe('keep me');
  } finally {
    await rm(outside, { force: true });
  }
});

test('no last run, a file that is not a report, a bad --grep: one line, exit 2', async ({ dir }) => {
  expectRefused(await cli(['approve'], { cwd: dir }), /^phonewright: no last run to approve from: .*reports\/results\.json does not exist; try: run the specs first/, 2);
  await writeFiles(dir, { 'reports/results.json': '{"not": "a report"}' });
  expectRefused(await cli(['approve'], { cwd: dir }), /^phonewright: .*reports\/results\.json is not a Playwright JSON report/, 2);
  expectRefused(await cli(['approve', '--grep', '(unclosed'], { cwd: dir }), /^phonewright: invalid --grep "\(unclosed": .*; try: a JavaScript regular expression/, 2);
});

// Two servers came to name a phone alike: its project is now `<server>-<phone>`, and so are its goldens' names.
// approve names, in one line each, the goldens left under the former name with none under the new one; a golden
// of another project whose name ends the same way is that project's, and the main device's goldens (named after
// its model) never move. The other way too: a phone phonewright 0.1.0 named `<server>-<phone>` beside other
// servers keeps its own name now.
test('a golden under a phone\'s former project name, none under the new one: one warning line each, --json lists them', async ({ dir }) => {
  const snapshots = 'specs/home.spec.ts-snapshots';
  const project = (name: string, phone: string, deviceId = 'device@11') => ({ name, metadata: { phone, deviceId, server: name.split('-')[0] } });
  const ran = (projectName: string) => ({ projectName, results: [{ status: 'passed', attachments: [] }] });
  await writeFiles(dir, {
    'specs/home.spec.ts': '// the spec',
    [`${snapshots}/bar-moto.png`]: 'moto before',
    [`${snapshots}/menu-moto.png`]: 'moto before',
    [`${snapshots}/menu-tc-moto.png`]: 'approved since',
    [`${snapshots}/bar-lab-moto.png`]: 'lab only',
    [`${snapshots}/bar-main.png`]: 'the main device, named otherwise',
    [`${snapshots}/bar-lab-pixel.png`]: 'pixel, when 0.1.0 named it lab-pixel',
    'reports/results.json': JSON.stringify({
      config: { rootDir: path.join(dir, 'specs'), projects: [project('tc-moto', 'moto'), project('lab-moto', 'moto'), project('tc-main', 'main', 'main'), { name: 'pixel', metadata: { phone: 'pixel', server: 'lab', deviceId: 'device@12' } }] },
      suites: [{ title: 'home.spec.ts', file: 'home.spec.ts', specs: [{ title: 'bar', file: 'home.spec.ts', tests: ['tc-moto', 'lab-moto', 'tc-main', 'pixel'].map(ran) }], suites: [] }],
    }),
  });
  const moved = (server: string, golden: string) => `approve: golden moved: ${snapshots}/${golden}-moto.png is now ${snapshots}/${golden}-${server}-moto.png (two servers name a phone "moto": its project is ${server}-moto); git mv it if it is that phone's golden`;

  const all = await cli(['approve'], { cwd: dir });
  expect([all.code, all.stdout]).toEqual([0, 'approve: nothing to approve: no failed region check in reports/results.json\n']);
  const kept = `approve: golden moved: ${snapshots}/bar-lab-pixel.png is now ${snapshots}/bar-pixel.png (no other server names a phone "pixel": its project keeps the phone's name); git mv it`;
  expect(all.stderr.split('\n').filter(Boolean)).toEqual([moved('tc', 'bar'), moved('lab', 'menu'), kept]);
  const one = await cli(['approve', '--project', 'lab-moto', '--json'], { cwd: dir });
  expect(one.stderr.split('\n').filter(Boolean)).toEqual([moved('lab', 'menu')]);
  expect(JSON.parse(one.stdout)).toEqual({ written: [], approvals: [], moved: [{ project: 'lab-moto', from: `${snapshots}/menu-moto.png`, to: `${snapshots}/menu-lab-moto.png` }] });
});
