// Many servers: two simulators listed as two servers of phonewright.config.json. The nightly runs as one job per
// server (PHONEWRIGHT_BLOB=1 --server NAME), each in a checkout of its own as on two CI machines; `phonewright
// merge` joins the parts' blob reports (both named report.zip) into one HTML report and one history record that
// say what the whole run says. (A nightly's shards and their merge: shards.test.ts.)
import { randomBytes } from 'node:crypto';
import { cp, readFile, readdir } from 'node:fs/promises';
import type { HistoryRecord } from '../../src/report/history-types.js';
import { startSimulator } from '../../src/simulator/index.js';
import { run } from '../cli/helpers.js';
import { findSecrets, unzip } from '../fixtures/files.js';
import { expect, newProject, phone, test, type CliRun, type Project } from './harness.js';

const PASSWORDS = { LAB_A_PASSWORD: 'lab-a-Pw-71c9e2', LAB_B_PASSWORD: 'lab-b-Pw-04d8aa' };
const ENV = { ...PASSWORDS };
const BAR = { x: 0, y: 0, width: 64, height: 4, color: '0x101820' };

// The start screen's spec runs after the settings' (by name): the moto's failing wallpaper is the last test on that phone,
// and its last failed attempt needs no new worker after it.
const START_SPEC = `import { test } from 'phonewright/fixtures';

test('status bar is dark', async ({ device }) => {
  await device.expectPixel(1, 1).toBe('0x101820');
});

test('wallpaper is blue', async ({ device }) => {
  await device.expectPixel(30, 30).toBe('0x25425c');
});
`;

const SETTINGS_SPEC = `import { test, expect } from 'phonewright/fixtures';

test('landscape', async ({ device }) => {
  await expect(device).toHaveSettings({ orientation: 'landscape' });
});

test('sync', async ({ device }, testInfo) => {
  if (testInfo.project.name === 'lab-a-pixel' && testInfo.retry === 0) throw new Error('sync did not finish on the first attempt');
});
`;

const TESTS = ['specs/start.spec.ts › status bar is dark', 'specs/start.spec.ts › wallpaper is blue', 'specs/settings.spec.ts › landscape', 'specs/settings.spec.ts › sync'];

// A pixel on each server: the same name, told apart by the server's (`<server>-pixel`); the moto keeps its name.
const PROJECTS = ['lab-a-pixel', 'lab-b-pixel', 'moto'];
const LAB_OF: Record<string, string> = { 'lab-a-pixel': 'lab-a', 'lab-b-pixel': 'lab-b', moto: 'lab-b' };
// What the whole run gives (each part is a run of it): the moto's wallpaper fails after its two
// retries, lab-a's pixel passes sync on its retry, everything else passes.
const WHOLE_COUNTS = {
  'lab-a-pixel': { expected: 3, unexpected: 0, flaky: 1, skipped: 0 },
  moto: { expected: 3, unexpected: 1, flaky: 0, skipped: 0 },
  'lab-b-pixel': { expected: 4, unexpected: 0, flaky: 0, skipped: 0 },
};
const WHOLE_OUTCOMES = PROJECTS.flatMap((phone) =>
  TESTS.map((t) => {
    const [status, retries] = phone === 'moto' && t.endsWith('wallpaper is blue') ? ['failed', 2] : phone === 'lab-a-pixel' && t.endsWith('sync') ? ['flaky', 1] : ['passed', 0];
    return `${phone} › ${t}: ${status} (${retries} retries)`;
  }),
).sort();
const MOTO_LINE = 'Error: expect(device).toHavePixel(x, y, color) — Point: (30, 30); Expected: "0x25425c"; Received: "0xaa0000" (Δr=+133 Δg=-66 Δb=-92, ΔE00 41.38)';

/** Each server's phones: id, name, wallpaper. lab-b's moto has a red one: a failure that must survive the merge, on that phone only. */
const LABS: Record<Lab, [string, string, string][]> = {
  'lab-a': [['device@201', 'pixel', '0x25425c']],
  'lab-b': [['device@301', 'pixel', '0x25425c'], ['device@302', 'moto', '0xaa0000']],
};
type Lab = 'lab-a' | 'lab-b';

/** A server's job: its checkout (the project), and its run's output. */
interface Job {
  p: Project;
  run: CliRun;
}

// The file's shared runs: one nightly job per server, both parts of one nightly, made once before its tests (in
// one worker, in order). Read by "one job per server" (each job's own results) and by "two servers, one job
// each, merged" (their blobs, merged).
test.describe.configure({ mode: 'default' });
let jobs: Record<Lab, Job>;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const passwordEnv = (lab: Lab) => `${lab.replace('-', '_').toUpperCase()}_PASSWORD` as keyof typeof PASSWORDS;
  const sims = await Promise.all(
    (['lab-a', 'lab-b'] as const).map((lab) => startSimulator({ port: 0, user: 'qa', password: PASSWORDS[passwordEnv(lab)], scenario: { phones: LABS[lab].map(([id, name, wallpaper]) => phone(id, name, wallpaper, [BAR])) } })),
  );
  const server = (lab: Lab, i: number) => ({ name: lab, url: sims[i]!.url, user: 'qa', passwordEnv: passwordEnv(lab), devices: LABS[lab].map(([id, name]) => ({ id, name })) });
  const files = {
    'phonewright.config.json': JSON.stringify({ servers: [server('lab-a', 0), server('lab-b', 1)] }),
    'specs/start.spec.ts': START_SPEC,
    'specs/settings.spec.ts': SETTINGS_SPEC,
  };
  try {
    const made = await Promise.all(
      (['lab-a', 'lab-b'] as const).map(async (lab) => {
        const p = await newProject(`one nightly job per server ${lab}`, files);
        return [lab, { p, run: await p.cli(['nightly', '--server', lab], { ...ENV, PHONEWRIGHT_BLOB: '1' }) }] as const;
      }),
    );
    jobs = Object.fromEntries(made) as Record<Lab, Job>;
  } finally {
    await Promise.all(sims.map((s) => s.close()));
  }
});

// The jobs' checkouts are kept when a test failed, to be read.
let failed = false;
test.afterEach(({}, testInfo) => {
  failed ||= testInfo.status !== testInfo.expectedStatus;
});
test.afterAll(async () => {
  if (!failed) for (const { p } of Object.values(jobs ?? {})) await p.remove();
});

/** A merge of two parts' blobs: exit 1 for the moto's new failure, and the counts, outcomes and error line of the whole run. */
async function expectWholeRun(p: Project, parts: string[], output: string, others: Project[]): Promise<void> {
  const merged = await p.cli(['merge', ...parts, '--output', output], ENV);
  expect(merged.code, merged.output).toBe(1);
  expect(merged.stderr).toContain('phonewright: 1 new failure(s) since the previous nightly: moto › specs/start.spec.ts › wallpaper is blue;');
  expect(await p.counts(`${output}/results.json`)).toEqual(WHOLE_COUNTS);
  expect(await htmlProjects(p, `${output}/html`)).toEqual(PROJECTS);
  const [record] = await p.records(output);
  expect(record!.source).toBe('merge');
  expect(outcomes(record!)).toEqual(WHOLE_OUTCOMES);
  expect(Object.keys(record!.phones).sort()).toEqual(PROJECTS);
  // The same triage as a whole run's: the moto's wallpaper fails on that phone only, of the three.
  expect((await p.comparison(output)).triage).toEqual([{ test: 'specs/start.spec.ts › wallpaper is blue', failingOn: ['moto'], ranOn: PROJECTS, scope: 'some-phones', status: 'new', flaky: 0 }]);
  // The failing check's line is written from the facts it attached: the blobs carry them through the merge.
  expect(motoError(record!)).toBe(MOTO_LINE);
  // The passwords reach no report, record, summary or page of these runs.
  const files = (await Promise.all([...['reports', output, 'artifacts'].map((d) => p.filesUnder(d)), ...others.map((o) => o.filesUnder('reports'))])).flat();
  expect(files.length).toBeGreaterThan(10);
  expect(files.flatMap((f) => findSecrets(f, PASSWORDS))).toEqual([]);
}

test('one job per server (PHONEWRIGHT_BLOB=1 --server NAME): a part whose phones are named as in the whole run, exit 0 whatever its tests did', async () => {
  for (const lab of ['lab-a', 'lab-b'] as const) {
    const { p, run } = jobs[lab];
    // lab-b's part has the moto's failure: a part passes once its run completed; the merge gives the verdict.
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toContain('part of a nightly (blob mode)');
    expect(await readdir(p.path('reports', 'blob'))).toEqual(['report.zip']);
    expect(await p.records(), 'a part writes no history').toHaveLength(0);
    const whole = Object.fromEntries(Object.entries(WHOLE_COUNTS).filter(([name]) => LAB_OF[name] === lab));
    expect(await p.counts(), lab).toEqual(whole);
  }
});

test('two servers, one job each, merged: one report with every phone, and the counts and outcomes of the whole run', async () => {
  // The merging job downloads both parts' blobs, each a report.zip.
  const { p } = jobs['lab-a'];
  for (const lab of ['lab-a', 'lab-b'] as const) await cp(jobs[lab].p.path('reports', 'blob'), p.path('artifacts', lab), { recursive: true });
  // A merge of its own each time (a repeat of this test in the same worker finds the last one's history there).
  await expectWholeRun(p, ['artifacts/lab-a', 'artifacts/lab-b'], `merged-${randomBytes(4).toString('hex')}`, [jobs['lab-b'].p]);
});

test('merge refuses folders that hold no blob report (exit 2)', async ({ project }) => {
  const p = await project({ 'nothing/readme.txt': 'no blobs here' });
  const r = await run(['merge', p.path('nothing')]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^phonewright: \S+\/nothing holds no blob report \(\*\.zip\); try: run the parts with --shard i\/n or PHONEWRIGHT_BLOB=1/);
});

/** The error line of the one failing test, the moto's wallpaper. */
function motoError(record: HistoryRecord): string | undefined {
  return record.tests.find((t) => t.phone === 'moto' && t.status === 'failed')?.error;
}

/** Each test × phone with its final status, sorted: what two records must agree on. */
function outcomes(record: HistoryRecord): string[] {
  return record.tests.map((t) => `${t.phone} › ${t.test}: ${t.status} (${t.retries} retries)`).sort();
}

/** The projects of an HTML report, from the report data it embeds. */
async function htmlProjects(p: Project, dir: string): Promise<string[]> {
  const html = await readFile(p.path(dir, 'index.html'), 'utf8');
  const data = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(html);
  expect(data, 'the HTML report embeds its data').not.toBeNull();
  const entry = unzip(Buffer.from(data![1]!, 'base64')).find((e) => e.name === 'report.json');
  const report = JSON.parse(entry!.data.toString('utf8')) as { projectNames: string[] };
  return [...report.projectNames].sort();
}
