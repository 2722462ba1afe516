// Many servers: two simulators listed as two servers of phonewright.config.json. The nightly runs in two shards
// and as one job per server; `phonewright merge` joins the parts' blob reports into one HTML report and one
// history record that say what the whole run says.
import { readFile, readdir } from 'node:fs/promises';
import type { HistoryRecord } from '../../src/report/history-types.js';
import type { SimulatorHandle, SimulatorOptions } from '../../src/simulator/index.js';
import { run } from '../cli/helpers.js';
import { findSecrets, unzip } from '../fixtures/files.js';
import { expect, phone, test, type Project } from './harness.js';

const PASSWORDS = { LAB_A_PASSWORD: 'lab-a-Pw-71c9e2', LAB_B_PASSWORD: 'lab-b-Pw-04d8aa' };
const ENV = { ...PASSWORDS };
const BAR = { x: 0, y: 0, width: 64, height: 4, color: '0x101820' };

const HOME_SPEC = `import { test } from 'phonewright/fixtures';

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

const TESTS = ['specs/home.spec.ts › status bar is dark', 'specs/home.spec.ts › wallpaper is blue', 'specs/settings.spec.ts › landscape', 'specs/settings.spec.ts › sync'];

// Each CLI run is a real Playwright run; the shards' test makes three of them.
test.describe.configure({ timeout: 240_000 });

const PROJECTS = ['lab-a-galaxy', 'lab-a-pixel', 'lab-b-moto', 'lab-b-pixel'];
// What the whole run gives (each part run below is a run of it): the moto's wallpaper fails after its two
// retries, lab-a's pixel passes sync on its retry, everything else passes.
const WHOLE_COUNTS = {
  'lab-a-galaxy': { expected: 4, unexpected: 0, flaky: 0, skipped: 0 },
  'lab-a-pixel': { expected: 3, unexpected: 0, flaky: 1, skipped: 0 },
  'lab-b-moto': { expected: 3, unexpected: 1, flaky: 0, skipped: 0 },
  'lab-b-pixel': { expected: 4, unexpected: 0, flaky: 0, skipped: 0 },
};
const WHOLE_OUTCOMES = PROJECTS.flatMap((phone) =>
  TESTS.map((t) => {
    const [status, retries] = phone === 'lab-b-moto' && t.endsWith('wallpaper is blue') ? ['failed', 2] : phone === 'lab-a-pixel' && t.endsWith('sync') ? ['flaky', 1] : ['passed', 0];
    return `${phone} › ${t}: ${status} (${retries} retries)`;
  }),
).sort();
const MOTO_LINE = 'Error: expect(device).toHavePixel(x, y, color) — Point: (30, 30); Expected: "0x25425c"; Received: "0xaa0000" (Δr=+133 Δg=-66 Δb=-92, ΔE00 41.38)';

/** Two simulators listed as lab-a and lab-b, and a project that runs the two specs on their four phones. */
async function twoLabs({ project, startSim }: { project: (files: Record<string, string>) => Promise<Project>; startSim: (o: SimulatorOptions) => Promise<SimulatorHandle> }): Promise<Project> {
  // lab-b's moto has a red wallpaper: a failure that must survive the merge, on that phone only.
  const labA = await startSim({ user: 'qa', password: PASSWORDS.LAB_A_PASSWORD, scenario: { phones: [phone('device@201', 'pixel', '0x25425c', [BAR]), phone('device@202', 'galaxy', '0x25425c', [BAR])] } });
  const labB = await startSim({ user: 'qa', password: PASSWORDS.LAB_B_PASSWORD, scenario: { phones: [phone('device@301', 'pixel', '0x25425c', [BAR]), phone('device@302', 'moto', '0xaa0000', [BAR])] } });
  const server = (name: string, url: string, devices: string[][]) => ({ name, url, user: 'qa', passwordEnv: `${name.replace('-', '_').toUpperCase()}_PASSWORD`, devices: devices.map(([id, n]) => ({ id, name: n })) });
  return project({
    'phonewright.config.json': JSON.stringify({
      servers: [
        server('lab-a', labA.url, [['device@201', 'pixel'], ['device@202', 'galaxy']]),
        server('lab-b', labB.url, [['device@301', 'pixel'], ['device@302', 'moto']]),
      ],
    }),
    'specs/home.spec.ts': HOME_SPEC,
    'specs/settings.spec.ts': SETTINGS_SPEC,
  });
}

/** A merge of two parts' blobs: exit 1 for the moto's new failure, and the counts, outcomes and error line of the whole run. */
async function expectWholeRun(p: Project, parts: string[], output: string): Promise<void> {
  const merged = await p.cli(['merge', ...parts, '--output', output], ENV);
  expect(merged.code, merged.output).toBe(1);
  expect(merged.stderr).toContain('phonewright: 1 new failure(s) since the previous nightly: lab-b-moto › specs/home.spec.ts › wallpaper is blue;');
  expect(await p.counts(`${output}/results.json`)).toEqual(WHOLE_COUNTS);
  expect(await htmlProjects(p, `${output}/html`)).toEqual(PROJECTS);
  const [record] = await p.records(output);
  expect(record!.source).toBe('merge');
  expect(outcomes(record!)).toEqual(WHOLE_OUTCOMES);
  expect(Object.keys(record!.phones).sort()).toEqual(PROJECTS);
  // The same triage as a whole run's: the moto's wallpaper fails on that phone only, of the four.
  expect((await p.comparison(output)).triage).toEqual([{ test: 'specs/home.spec.ts › wallpaper is blue', failingOn: ['lab-b-moto'], ranOn: PROJECTS, scope: 'some-phones', status: 'new', flaky: 0 }]);
  // The failing check's line is written from the facts it attached: the blobs carry them through the merge.
  expect(motoError(record!)).toBe(MOTO_LINE);
  // The passwords reach no report, record, summary or page of these runs.
  const files = (await Promise.all(['reports', output, 'artifacts'].map((d) => p.filesUnder(d)))).flat();
  expect(files.length).toBeGreaterThan(10);
  expect(files.flatMap((f) => findSecrets(f, PASSWORDS))).toEqual([]);
}

test('two servers in two shards, merged: one report with every phone, and the counts and outcomes of the unsharded run', async ({ project, startSim }) => {
  const p = await twoLabs({ project, startSim });
  // Two shards: each a part (blob mode), each exits 0 once it completed, whatever its tests did.
  for (const shard of ['1/2', '2/2']) {
    const run = await p.cli(['nightly', '--shard', shard], ENV);
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toContain('part of a nightly (blob mode)');
    await p.copy('reports/blob', `artifacts/shard-${shard[0]}`);
  }
  expect(await p.records(), 'a shard writes no history').toHaveLength(0);
  const shardBlobs = [await readdir(p.path('artifacts/shard-1')), await readdir(p.path('artifacts/shard-2'))];
  expect(shardBlobs).toEqual([['report-1.zip'], ['report-2.zip']]);
  await expectWholeRun(p, ['artifacts/shard-1', 'artifacts/shard-2'], 'merged');
});

test('one job per server (PHONEWRIGHT_BLOB=1 --server NAME): a part whose phones are named as in the whole run', async ({ project, startSim }) => {
  // lab-a's job alone: the merge of parts is the shards' above, and a part is a part whichever way it was cut.
  const p = await twoLabs({ project, startSim });
  const run = await p.cli(['nightly', '--server', 'lab-a'], { ...ENV, PHONEWRIGHT_BLOB: '1' });
  expect(run.code, run.output).toBe(0);
  expect(run.stdout).toContain('part of a nightly (blob mode)');
  expect(await readdir(p.path('reports', 'blob'))).toEqual(['report.zip']);
  expect(await p.records(), 'a part writes no history').toHaveLength(0);
  const whole = Object.fromEntries(Object.entries(WHOLE_COUNTS).filter(([name]) => name.startsWith('lab-a-')));
  expect(await p.counts()).toEqual(whole);
});

test('merge refuses folders that hold no blob report (exit 2)', async ({ project }) => {
  const p = await project({ 'nothing/readme.txt': 'no blobs here' });
  const r = await run(['merge', p.path('nothing')]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^phonewright: \S+\/nothing holds no blob report \(\*\.zip\); try: run the parts with --shard i\/n or PHONEWRIGHT_BLOB=1/);
});

/** The error line of the one failing test, the moto's wallpaper. */
function motoError(record: HistoryRecord): string | undefined {
  return record.tests.find((t) => t.phone === 'lab-b-moto' && t.status === 'failed')?.error;
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
