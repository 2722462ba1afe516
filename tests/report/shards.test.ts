// phonewright's --shard i/n: whole phones per shard, never a phone on two shards. The four simulator phones,
// two of them a pool, planned as 2, 3 and 4 shards (the pool split across shards at 2 and 4, whole at 3): the
// plans in-process (src/cli/shard-plan.ts is pure), and one real sharded nightly at 2, whose shards drive the
// phones of the plan they print (the pool split) and whose merged blobs have every test once. With a nightly
// history, the shards balance by its durations (the CLI's --list).
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import type { JSONReport } from '@playwright/test/reporter';
import { planShards, type PlanProject } from '../../src/cli/shard-plan.js';
import { reportTests } from '../../src/report/json-report.js';
import { expect, test, type Project } from './harness.js';

const PHONES = ['galaxy-s9', 'pixel-7', 'galaxy-tab-s7', 'moto-g5'];
const SPEC = (name: string) => `import { test } from 'phonewright/fixtures';

for (const n of [1, 2]) test('${name}' + n, async ({ device }) => {
  await device.expectPixel(5, 5).not.toBe('0x123456');
});
`;
const TESTS = ['specs/a.spec.ts › a1', 'specs/a.spec.ts › a2', 'specs/b.spec.ts › b1', 'specs/b.spec.ts › b2'];
/** The run's projects as the listing gives them, in the config's order: the pool "twins" first. */
const PROJECTS = ['twins', 'galaxy-tab-s7', 'moto-g5'];
const FILES = {
  // The embedded simulator's four phones; galaxy-s9 and pixel-7 share the specs as the pool "twins".
  'phonewright.config.json': JSON.stringify({ servers: [{ name: 'sim', devices: [{ id: 'device@1116106541', pool: 'twins' }, { id: 'device@1174886816', pool: 'twins' }, { id: 'device@24681357' }, { id: 'device@-230441652' }] }] }),
  'specs/a.spec.ts': SPEC('a'),
  'specs/b.spec.ts': SPEC('b'),
};

test.describe.configure({ timeout: 240_000 });

/** The listing of the run as the shard planner gets it, weighed by test count (no history). */
function listing(): PlanProject[] {
  return PROJECTS.map((name) => ({
    name,
    pool: name === 'twins' ? ['galaxy-s9', 'pixel-7'] : [],
    tests: TESTS.map((t) => ({ key: `[${name}] › ${t}`, weight: 1 })),
    splittable: true,
  }));
}

/** The phones of each shard of a plan. */
const phonesOf = (total: number) => planShards(listing(), total).map((s) => s.projects.flatMap((p) => p.phones).sort());

test('the plans for n = 2, 3, 4: each phone on exactly one shard, every shard a phone, the pool split at 2 and 4 and whole at 3', () => {
  for (const n of [2, 3, 4]) {
    const plan = planShards(listing(), n);
    const phones = phonesOf(n);
    expect(phones.flat().sort(), `the phones of ${n} shards: ${JSON.stringify(phones)}`).toEqual([...PHONES].sort());
    expect(phones.every((p) => p.length > 0), `every shard of ${n} a phone: ${JSON.stringify(phones)}`).toBe(true);
    // The pool's phones: apart at 2 and 4 shards, together at 3.
    expect(phones.findIndex((s) => s.includes('galaxy-s9')) === phones.findIndex((s) => s.includes('pixel-7')), `n = ${n}`).toBe(n === 3);
    // Every test of every project on exactly one shard: a split pool's tests shared out among its phones' shards.
    const ran = plan.flatMap((s) => s.projects.flatMap((p) => p.tests ?? listing().find((l) => l.name === p.project)!.tests.map((t) => t.key)));
    expect(ran.sort(), `n = ${n}`).toEqual(listing().flatMap((p) => p.tests.map((t) => t.key)).sort());
  }
});

test('a real nightly in 2 shards: each shard drives the phones of the plan it prints, the pool split; the merged blobs have every test once', async ({ project }) => {
  const p = await project(FILES);
  const printed: string[][] = [];
  for (const i of [1, 2]) {
    // A shard of a nightly is a part (blob mode): no history, a blob named for the shard.
    const run = await p.cli(['nightly', '--shard', `${i}/2`]);
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toContain('phonewright: shards by phone, balanced by test count (no nightly history):');
    expect(run.stdout).toContain('part of a nightly (blob mode)');
    // The plan every shard prints: which phones each shard runs, the arrow at this one's.
    const lines = run.stdout.split('\n').filter((l) => /^[→ ] shard \d\/2: /.test(l));
    expect(lines.map((l) => l.startsWith('→')), run.output).toEqual([i === 1, i === 2]);
    printed.push(lines.map((l) => l.slice(2)));
    // The phones this shard drove are the ones its plan gives it.
    expect(await phonesRun(p), `shard ${i}/2`).toEqual(phonesOf(2)[i - 1]);
    await p.copy('reports/blob', 'artifacts');
  }
  expect(printed[1], 'both shards print the same plan').toEqual(printed[0]);
  expect(await p.records(), 'a shard writes no history').toHaveLength(0);
  // The shards' blobs are named apart: one folder holds both.
  expect((await readdir(p.path('artifacts'))).sort()).toEqual(['report-1.zip', 'report-2.zip']);
  const merged = await p.cli(['merge', 'artifacts', '--no-history', '--output', 'merged']);
  expect(merged.code, merged.output).toBe(0);
  expect(await testRuns(p, 'merged/results.json')).toEqual(PROJECTS.flatMap((project) => TESTS.map((t) => `${project} › ${t} × 1`)).sort());
});

test('with a nightly history the shards balance by its durations: a slow phone gets a shard of its own', async ({ project }) => {
  const p = await project(FILES);
  // A nightly where moto-g5's tests took a minute each.
  await mkdir(p.path('reports/history'), { recursive: true });
  const tests = PROJECTS.flatMap((phone) => TESTS.map((t) => ({ test: t, phone, status: 'passed', durationMs: phone === 'moto-g5' ? 60_000 : 1_000, retries: 0 })));
  await writeFile(p.path('reports/history/2025-11-22T02-30-00-000Z.json'), JSON.stringify({ version: 1, startedAt: '2025-11-22T02:30:00.000Z', durationMs: 1, status: 'passed', source: 'run', runErrors: [], phones: {}, tests }));
  const list = await p.cli(['test', '--shard', '2/2', '--list']);
  expect(list.code, list.output).toBe(0);
  expect(list.stdout).toContain('phonewright: shards by phone, balanced by the nightly history (reports/history/2025-11-22T02-30-00-000Z.json):\n  shard 1/2: moto-g5 (4 tests, 240.0 s)\n→ shard 2/2: twins: galaxy-s9, pixel-7 (4 tests, 4.0 s), galaxy-tab-s7 (4 tests, 4.0 s)\n');
  expect(list.stdout).toContain('Total: 8 tests in 2 files');
});

/** The phones a shard's run drove, from its JSON report: a phone's project, or the pool phone that ran a test. */
async function phonesRun(p: Project): Promise<string[]> {
  const report = JSON.parse(await readFile(p.path('reports', 'results.json'), 'utf8')) as JSONReport;
  const phones = new Set<string>();
  for (const { test: t } of reportTests(report.suites)) {
    const pooled = t.results.flatMap((r) => r.annotations).find((a) => a.type === 'phone')?.description;
    phones.add(pooled ? pooled.replace(/ \(.*\)$/, '') : t.projectName);
  }
  return [...phones].sort();
}

/** Each test of a JSON report as `project › file › title × results`, sorted. */
async function testRuns(p: Project, file: string): Promise<string[]> {
  const report = JSON.parse(await readFile(p.path(file), 'utf8')) as JSONReport;
  return [...reportTests(report.suites)].map(({ spec, test: t }) => `${t.projectName} › ${spec.file} › ${spec.title} × ${t.results.length}`).sort();
}
