// Makes docs/review.png, the README's picture of `phonewright review`: the repository's status-bar and home-screen
// specs run by the built CLI on the embedded simulator's four phones after their signal mark changed (and the
// galaxy-s9's bar colour), then the review page in Debian's Chromium at 1400×1000, the galaxy-s9's status-bar
// corner in the slider. Run `npm run build && node scripts/review-picture.mjs`. It works in
// test-results/review-picture/ (inside the repository, so the specs' `phonewright/fixtures` resolves).
import { execFileSync, spawn } from 'node:child_process';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BIN, launchChromium, ROOT, servePage } from './page-picture.mjs';

const OUT = path.join(ROOT, 'docs', 'review.png');
const DIR = path.join(ROOT, 'test-results', 'review-picture');

await rm(DIR, { recursive: true, force: true });
await mkdir(path.join(DIR, 'specs'), { recursive: true });
for (const f of ['region.spec.ts', 'region.spec.ts-snapshots', 'home-screen.spec.ts', 'phones.ts', 'images']) await cp(path.join(ROOT, 'specs', f), path.join(DIR, 'specs', f), { recursive: true });

// The built-in scenario, its signal mark now a green bar and, on the galaxy-s9, the status bar a little lighter.
const scenario = JSON.parse(execFileSync(process.execPath, [BIN, 'sim', '--print-scenario'], { encoding: 'utf8' }));
for (const phone of scenario.phones) {
  for (const screen of phone.frames ?? [phone.screen]) {
    for (const r of screen.rects) {
      if (r.x === 16 && r.y === 16 && r.color === '0xffffff') Object.assign(r, { width: 10, height: 20, y: 12, color: '0x3ddc84' });
      if (phone.name === 'galaxy-s9' && r.x === 0 && r.y === 0 && r.color === '0x101820') r.color = '0x1f2a36';
    }
  }
}
await writeFile(path.join(DIR, 'scenario.json'), JSON.stringify(scenario));
await writeFile(path.join(DIR, 'phonewright.config.json'), JSON.stringify({ simulator: { scenario: 'scenario.json' } }));
const ran = spawn(process.execPath, [BIN, 'test', '--grep', 'status bar|wallpaper'], { cwd: DIR, stdio: 'inherit' });
await new Promise((resolve) => ran.once('exit', resolve));

const { url, cli } = await servePage(['review'], 'Review', DIR);

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1 });
  await page.goto(url);
  await page.locator('body[data-ready="true"]').waitFor();
  await page.locator('#queue .group', { hasText: 'status bar corner' }).locator('.phone[data-project="galaxy-s9"] .item').click();
  await page.getByRole('button', { name: 'Slider', exact: true }).click();
  const pane = page.locator('.pane[data-pane="slider"]');
  await pane.locator('img[data-kind="actual"]').waitFor();
  // The divider through the changed mark.
  const box = await pane.boundingBox();
  const divider = await pane.locator('.divider').boundingBox();
  await page.mouse.move(divider.x + divider.width / 2, divider.y + divider.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.47, divider.y + divider.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(300);
  await page.screenshot({ path: OUT });
  process.stdout.write(`wrote ${path.relative(process.cwd(), OUT)}\n`);
} finally {
  await browser.close();
  cli.kill('SIGINT');
}
