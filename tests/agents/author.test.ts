import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/spawn.js';
import { expect, startsHeavy, test } from '../helpers/test.js';
import { answerImage, answerJson, answerText, startMcp, type McpSession } from './client.js';

// Authoring, running and mending specs through `phonewright mcp`: the runs are real `phonewright test` runs in a
// folder inside the repository (so `phonewright/fixtures` resolves, as in a team's project with phonewright installed).

let mcp: McpSession | undefined;
test.afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});

function projectDir(): string {
  const base = path.join(ROOT, 'test-results', 'agents');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, 'run-'));
}

interface RunAnswer {
  ok: boolean;
  passed: number;
  failed: number;
  tests: { test: string; phone: string; verdict: string; message?: string }[];
}

test('an agent drafts lines, writes a spec, runs it green on two phones, breaks it, sees it red with the screen, and accepts the change', async () => {
  startsHeavy('Playwright runs');
  test.setTimeout(240_000);
  mcp = await startMcp({}, [], projectDir());
  await mcp.call('launch', { app: 'com.example.app', screen: false });
  const visible = answerJson<{ line: string }>(await mcp.call('check_line', { kind: 'text', locator: { text: 'Sign in', exact: true } })).line;
  expect(visible).toBe("await expect(device.getByText('Sign in', { exact: true })).toBeVisible();");
  // The button's blue, read by the interface's pixel read, as the inspector drafts it.
  const pixel = answerJson<{ line: string }>(await mcp.call('check_line', { kind: 'pixel', x: 100, y: 800 })).line;
  expect(pixel).toBe("await device.expectPixel(100, 800).toBe('0x1a73e8');");

  const lines = ["await device.launch('com.example.app');", visible, pixel];
  expect(answerJson(await mcp.call('write_spec', { name: 'sign-in.spec.ts', title: 'the sign-in form', lines }))).toMatchObject({ file: 'specs/sign-in.spec.ts' });
  const source = readFileSync(path.join(mcp.dir, 'specs/sign-in.spec.ts'), 'utf8');
  expect(source).toContain("import { test, expect } from 'phonewright/fixtures';");
  // Never over a file, unless told; never outside specs/.
  expect(answerText(await mcp.call('write_spec', { name: 'sign-in.spec.ts', lines }))).toMatch(/exists.*replace: true/);
  expect(answerText(await mcp.call('write_spec', { name: '../outside.spec.ts', lines }))).toMatch(/invalid file name "..\/outside.spec.ts".*inside specs\//);

  const green = answerJson<RunAnswer>(await mcp.call('run_specs', { phones: ['galaxy-s9', 'pixel-7'] }));
  expect(green.tests.map((t) => `${t.phone} ${t.verdict}`).sort()).toEqual(['galaxy-s9 passed', 'pixel-7 passed']);
  expect(green.ok).toBe(true);

  const broken = lines.map((l) => l.replace('0x1a73e8', '0x000000'));
  await mcp.call('write_spec', { name: 'sign-in.spec.ts', title: 'the sign-in form', lines: broken, replace: true });
  const redResult = await mcp.call('run_specs', { specs: ['specs/sign-in.spec.ts'], phones: ['galaxy-s9', 'pixel-7'], grep: 'sign-in form' });
  const red = answerJson<RunAnswer>(redResult);
  expect(red).toMatchObject({ ok: false, failed: 2 });
  expect(red.tests[0]!.message).toMatch(/0x000000/);
  expect(red.tests[0]!.message).toMatch(/0x1a73e8/);
  // The phone's screen at the failure, as a picture a model can read.
  expect(answerImage(redResult).width).toBeGreaterThan(100);

  const accepted = answerJson<{ written: string[] }>(await mcp.call('accept', { test: 'the sign-in form', phone: 'galaxy-s9' }));
  expect(accepted.written).toEqual(['specs/sign-in.spec.ts']);
  expect(readFileSync(path.join(mcp.dir, 'specs/sign-in.spec.ts'), 'utf8')).toContain(pixel);
  const again = answerJson<RunAnswer>(await mcp.call('run_specs', { phones: ['galaxy-s9', 'pixel-7'] }));
  expect(again).toMatchObject({ ok: true, passed: 2 });
});

test('an agent-like script turns "the sign-in screen shows on every phone" into a spec that passes on the four phones', async () => {
  startsHeavy('a Playwright run');
  test.setTimeout(240_000);
  mcp = await startMcp({}, [], projectDir());
  // The fixed sequence a model would make: list the phones, open the app on each, see the sign-in button on each,
  // take the line drafted on one, write the spec, run it on all of them.
  const { phones } = answerJson<{ phones: { name: string }[] }>(await mcp.call('phones'));
  for (const { name } of phones) {
    await mcp.call('launch', { phone: name, app: 'com.example.app', screen: false });
    expect(answerJson(await mcp.call('find', { phone: name, locator: { text: 'Sign in', exact: true } })), name).toMatchObject({ count: 1 });
  }
  const { line } = answerJson<{ line: string }>(await mcp.call('check_line', { kind: 'text', x: 540, y: 845 }));
  expect(line).toBe("await expect(device.getByText('Sign in')).toBeVisible();");
  await mcp.call('write_spec', { name: 'every-phone/sign-in.spec.ts', title: 'the sign-in screen shows', lines: ["await device.launch('com.example.app');", line] });
  const run = answerJson<RunAnswer>(await mcp.call('run_specs', { phones: phones.map((p) => p.name) }));
  expect(run.tests.map((t) => `${t.phone} ${t.verdict}`).sort()).toEqual(['galaxy-s9 passed', 'galaxy-tab-s7 passed', 'moto-g5 passed', 'pixel-7 passed']);
});

test('a region\'s golden drafted on another screen fails the run, and accept makes the run\'s sample the golden', async () => {
  startsHeavy('Playwright runs');
  test.setTimeout(240_000);
  mcp = await startMcp({}, [], projectDir());
  // The golden is cut from the screen after signing in; the spec checks the form before it.
  await mcp.call('launch', { app: 'com.example.app', screen: false });
  await mcp.call('tap', { locator: { text: 'Sign in', exact: true }, screen: false });
  const drafted = answerJson<{ line: string; golden: string }>(await mcp.call('check_line', { kind: 'region', x: 60, y: 170, width: 960, height: 100, name: 'title.png', spec: 'title.spec.ts' }));
  expect(drafted).toEqual({ phone: 'device@1116106541', line: "await expect(device).toMatchRegion({ x: 60, y: 170, width: 960, height: 100 }, 'title.png');", golden: 'specs/title.spec.ts-snapshots/title-galaxy-s9.png' });
  const golden = readFileSync(path.join(mcp.dir, drafted.golden));
  await mcp.call('write_spec', { name: 'title.spec.ts', title: 'the title', lines: ["await device.launch('com.example.app');", drafted.line] });

  const red = answerJson<RunAnswer>(await mcp.call('run_specs', { phones: ['galaxy-s9'] }));
  expect(red).toMatchObject({ ok: false, failed: 1 });
  expect(red.tests[0]!.message).toMatch(/title\.png/);
  const accepted = answerJson<{ written: string[] }>(await mcp.call('accept', { test: 'the title', phone: 'galaxy-s9' }));
  expect(accepted.written).toEqual([drafted.golden]);
  expect(readFileSync(path.join(mcp.dir, drafted.golden)).equals(golden)).toBe(false);
  expect(answerJson<RunAnswer>(await mcp.call('run_specs', { phones: ['galaxy-s9'] }))).toMatchObject({ ok: true, passed: 1 });
});
