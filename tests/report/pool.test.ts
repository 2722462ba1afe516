// The pool mode: identical phones named as one pool in phonewright.config.json share the specs — each spec runs
// once, on whichever phone of the pool is free. (A phone outside a pool runs every spec itself beside it: the
// merged shards of shards.test.ts.)
import { readFile } from 'node:fs/promises';
import type { JSONReport, JSONReportTestResult } from '@playwright/test/reporter';
import { reportTests } from '../../src/report/json-report.js';
import { expect, phone, test } from './harness.js';

const SPEC = (n: number) => `import { test, expect } from 'phonewright/fixtures';

for (const i of [1, 2]) {
  test('screen ${n}.' + i, async ({ device }) => {
    await device.expectPixel(1, 1).toBe('0x101820');
    // Holds the phone a moment, as a real check would: two pool workers overlap, and must not share a phone.
    await device.expectNoNotification({ app: 'com.example.none' }, { within: 400 });
  });
}
`;

const POOL = { 'device@401': 'p1', 'device@402': 'p2' };

test('a pool of two phones runs each spec once, on both phones, never two tests on one phone at a time', async ({ project }) => {
  test.setTimeout(120_000);
  const bar = { x: 0, y: 0, width: 64, height: 4, color: '0x101820' };
  const p = await project({
    'scenario.json': JSON.stringify({ phones: [phone('device@401', 'p1', '0x25425c', [bar]), phone('device@402', 'p2', '0x25425c', [bar])] }),
    // A server without a url is the embedded simulator: its phones pool when the config lists them so.
    'phonewright.config.json': JSON.stringify({
      servers: [{ name: 'sim', devices: [{ id: 'device@401', pool: 'pixels' }, { id: 'device@402', pool: 'pixels' }] }],
      simulator: { scenario: 'scenario.json' },
    }),
    'specs/a.spec.ts': SPEC(1),
    'specs/b.spec.ts': SPEC(2),
    'specs/c.spec.ts': SPEC(3),
  });

  const run = await p.cli(['nightly'], {});
  expect(run.code, run.output).toBe(0);
  const results = await runsOf(p.path('reports', 'results.json'));
  const titles = ['1.1', '1.2', '2.1', '2.2', '3.1', '3.2'].map((n) => `screen ${n}`);

  // The pool runs each spec exactly once.
  expect(new Set(results.map((r) => r.project))).toEqual(new Set(['pixels']));
  const pooled = results.filter((r) => r.project === 'pixels');
  expect(pooled.map((r) => r.title).sort()).toEqual(titles);
  expect(pooled.every((r) => r.result.status === 'passed')).toBe(true);

  // Both phones of the pool took specs, and each phone ran one test at a time.
  const phones = pooled.map((r) => r.phone);
  expect(new Set(phones)).toEqual(new Set(Object.entries(POOL).map(([id, name]) => `${name} (${id})`)));
  for (const name of new Set(phones)) {
    const spans = pooled.filter((r) => r.phone === name).map((r) => [Date.parse(r.result.startTime), Date.parse(r.result.startTime) + r.result.duration] as const).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0], `${name} ran two tests at once`).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  }

  // The history names the pool as the phone, and which of its phones ran each test.
  const [record] = await p.records();
  expect(record!.phones.pixels).toEqual({ server: 'sim', pool: ['p1 (device@401)', 'p2 (device@402)'] });
  const inPool = record!.tests.filter((t) => t.phone === 'pixels');
  expect(inPool).toHaveLength(6);
  expect(inPool.map((t) => t.ranOn).sort()).toEqual(pooled.map((r) => r.phone).sort());
});

interface Ran {
  project: string;
  title: string;
  phone: string | undefined;
  result: JSONReportTestResult;
}

/** Every result of the JSON report, with the pool phone its `phone` annotation names. */
async function runsOf(file: string): Promise<Ran[]> {
  const report = JSON.parse(await readFile(file, 'utf8')) as JSONReport;
  const out: Ran[] = [];
  for (const { spec, test: t } of reportTests(report.suites)) {
    for (const result of t.results) {
      const phoneName = [...result.annotations, ...t.annotations].find((a) => a.type === 'phone')?.description;
      out.push({ project: t.projectName, title: spec.title, phone: phoneName, result });
    }
  }
  return out;
}
