// phonewright's --shard i/n: whole phones per shard, never a phone on two shards. The four simulator phones,
// two of them a pool, run as 2, 3 and 4 shards (the pool split across shards at 2 and 4, whole at 3); the
// merged blobs have every test once. With a nightly history, the shards balance by its durations.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import type { JSONReport } from '@playwright/test/reporter';
import { reportTests } from '../../src/report/json-report.js';
import { expect, test, type Project } from './harness.js';

const PHONES = ['galaxy-s9', 'pixel-7', 'galaxy-tab-s7', 'moto-g5'];
const SPEC = (name: string) => `import { test } from 'phonewright/fixtures';

for (const n of [1, 2]) test('${name}' + n, async ({ device }) => {
  await device.expectPixel(5, 5).not.toBe('0x123456');
});
`;
const TESTS = ['specs/a.spec.ts › a1', 'specs/a.spec.ts › a2', 'specs/b.spec.ts › b1', 'specs/b.spec.ts › b2'];
const PROJECTS = ['galaxy-tab-s7', 'moto-g5', 'twins'];

test.describe.configure({ timeout: 400_000 });

test('--shard i/n for n = 2, 3, 4 gives each phone to exactly one shard; the merged report has every test once; a history balances by duration', async ({ project }) => {
  // The embedded simulator's four phones; galaxy-s9 and pixel-7 share the specs as the pool "twins".
  const p = await project({
    'phonewright.config.json': JSON.stringify({ servers: [{ name: 'sim', devices: [{ id: 'device@1116106541', pool: 'twins' }, { id: 'device@1174886816', pool: 'twins' }, { id: 'device@24681357' }, { id: 'device@-230441652' }] }] }),
    'specs/a.spec.ts': SPEC('a'),
    'specs/b.spec.ts': SPEC('b'),
  });
  for (const n of [2, 3, 4]) {
    const phonesOf: string[][] = [];
    for (let i = 1; i <= n; i++) {
      const run = await p.cli(['test', '--shard', `${i}/${n}`]);
      expect(run.code, run.output).toBe(0);
      expect(run.stdout).toContain('phonewright: shards by phone, balanced by test count (no nightly history):');
      phonesOf.push(await phonesRun(p));
      await p.copy('reports/blob', `artifacts/${n}/shard-${i}`);
    }
    // Every phone on exactly one shard; every shard a phone.
    expect(phonesOf.flat().sort(), `the phones of ${n} shards: ${JSON.stringify(phonesOf)}`).toEqual([...PHONES].sort());
    expect(phonesOf.every((phones) => phones.length > 0)).toBe(true);
    // The pool's phones: apart at 2 and 4 shards, together at 3.
    expect(phonesOf.findIndex((s) => s.includes('galaxy-s9')) === phonesOf.findIndex((s) => s.includes('pixel-7'))).toBe(n === 3);
    const merged = await p.cli(['merge', `artifacts/${n}`, '--no-history', '--output', `merged-${n}`]);
    expect(merged.code, merged.output).toBe(0);
    expect(await testRuns(p, `merged-${n}/results.json`)).toEqual(PROJECTS.flatMap((project) => TESTS.map((t) => `${project} › ${t} × 1`)).sort());
  }
  // A nightly where moto-g5's tests took a minute each: it gets a shard of its own.
  await mkdir(p.path('reports/history'), { recursive: true });
  const tests = [...PROJECTS].flatMap((phone) => TESTS.map((t) => ({ test: t, phone, status: 'passed', durationMs: phone === 'moto-g5' ? 60_000 : 1_000, retries: 0 })));
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
