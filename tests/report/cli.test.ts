// The nightly's command line: its help states the exit-code rule, and a run that never got through its tests,
// or a config without the history reporter, fails with a line that says why. (That the user's --retries wins
// over the nightly's 2 is in history.test.ts, whose real nightly runs with --retries 1.)
import { nightlyVerdict } from '../../src/cli/nightly-verdict.js';
import { processOutput } from '../../src/cli/output.js';
import { ConfigError, exitCodeFor } from '../../src/core/errors.js';
import { run } from '../cli/helpers.js';
import { expect, phone, test } from './harness.js';

const SCENARIO = JSON.stringify({ phones: [phone('device@101', 'phone-a', '0x25425c')] });
const FAILING = `import { test } from 'phonewright/fixtures';

test('wallpaper', async ({ device }) => {
  await device.expectPixel(1, 1).toBe('0x101820');
});
`;

test.describe.configure({ timeout: 120_000 });

test('nightly --help: the retries, the files it writes, the exit-code rule and blob mode', async () => {
  const r = await run(['nightly', '--help']);
  expect(r.code).toBe(0);
  const text = r.stdout.replace(/\s+/g, ' ');
  for (const phrase of [
    '--retries 2 unless you give --retries',
    'reports/history/',
    'reports/trend.html',
    'Exit codes: 0 no new failure (tests still failing from the previous nightly, and flaky ones, are reported but pass); 1 new failures, or the run did not complete',
    'PHONEWRIGHT_BLOB=1',
    '--shard i/n',
    'phonewright merge',
  ]) {
    expect(text).toContain(phrase);
  }
  const merge = await run(['merge', '--help']);
  expect(merge.code).toBe(0);
  expect(merge.stdout.replace(/\s+/g, ' ')).toContain('docs/ci-nightly.yml');
});

test('a nightly that runs no test does not pass: exit 1, "did not complete"', async ({ project }) => {
  const p = await project({ 'phonewright.config.json': JSON.stringify({ simulator: { scenario: 'scenario.json' } }), 'scenario.json': SCENARIO, 'specs/readme.md': 'no specs yet' });
  const r = await p.cli(['nightly']);
  expect(r.code, r.output).toBe(1);
  expect(r.stderr).toMatch(/^phonewright: the nightly run did not complete: Error: No tests found/m);
});

test('a config without the history reporter: exit 2, and the line to add; a run that ended before it: exit 1', () => {
  // Without the reporter the run leaves no outcome: the verdict is on Playwright's exit code alone.
  const quiet = { write: () => true };
  const verdict = (code: number) => {
    try {
      nightlyVerdict(undefined, code, processOutput(quiet, quiet), 'the nightly run', false);
    } catch (error) {
      return { exit: exitCodeFor(error), message: (error as Error).message, config: error instanceof ConfigError };
    }
    throw new Error('the verdict passed');
  };
  expect(verdict(0)).toEqual({ exit: 2, config: true, message: "the nightly run wrote no history: the Playwright config has no history reporter; try: add ['phonewright/reporters/history'] to the reporters of playwright.config.ts" });
  expect(verdict(1)).toMatchObject({ exit: 1, message: 'the nightly run did not complete (playwright exit code 1); try: read the error above' });
});

test('a phone that cannot be reached: its tests are skipped, the summary says which and why, and the nightly passes when allowed', async ({ project }) => {
  // Not allowed, the nightly fails (exit 1, "did not test every phone"): the failing nightly of
  // tests/secrets/end-to-end.test.ts, whose moto-g5 is unplugged, says it.
  const scenario = JSON.stringify({ phones: [phone('device@101', 'phone-a', '0x101820'), { ...phone('device@102', 'phone-b', '0x101820'), online: false }] });
  const p = await project({ 'phonewright.config.json': JSON.stringify({ simulator: { scenario: 'scenario.json' }, unreachablePhones: 'skip' }), 'scenario.json': scenario, 'specs/a.spec.ts': FAILING });
  // Allowed by the config: an unplugged phone is the lab's news, not the build's; nothing newly failed.
  const r = await p.cli(['nightly']);
  expect(r.code, r.output).toBe(0);
  const md = await p.summary();
  expect(md).toContain('· 1 phone(s) not reachable');
  expect(md).toMatch(/## Phones not reachable\n\n\| phone \| tests skipped \| why \|\n\|---\|---:\|---\|\n\| phone-b \| 1 \| .*device@102/);
  const [record] = await p.records();
  expect(record!.tests.find((t) => t.phone === 'phone-b')).toMatchObject({ status: 'skipped', infra: true });

  // With no phone reachable nothing was tested: the nightly did not complete.
  await p.write({ 'scenario.json': JSON.stringify({ phones: [{ ...phone('device@101', 'phone-a', '0x101820'), online: false }] }) });
  const dark = await p.cli(['nightly']);
  expect(dark.code, dark.output).toBe(1);
  expect(dark.stderr).toMatch(/^phonewright: the nightly run did not complete: no phone could be reached: .*device@101/m);
});
