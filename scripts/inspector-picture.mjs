// Makes docs/inspector.png, the README's picture of `phonewright inspect`: the built CLI against the embedded
// simulator's four phones, its page in Debian's Chromium, a point picked, the status bar dragged with its clock
// masked, the point read on every phone. Run `npm run build && node scripts/inspector-picture.mjs`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchChromium, ROOT, servePage } from './page-picture.mjs';

const OUT = path.join(ROOT, 'docs', 'inspector.png');

// A folder of its own: no phonewright.config.json, nothing written into the repository.
const cwd = await mkdtemp(path.join(tmpdir(), 'phonewright-picture-'));
const { url, cli } = await servePage(['inspect', 'galaxy-s9'], 'Inspector', cwd);

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1300 }, deviceScaleFactor: 1 });
  await page.goto(url);
  await page.locator('#status[data-kind="live"]').waitFor();
  const at = async (x, y) => {
    const box = await page.locator('#screen').boundingBox();
    const [w, h] = await page.locator('#screen').evaluate((c) => [c.width, c.height]);
    return { x: box.x + ((x + 0.5) * box.width) / w, y: box.y + ((y + 0.5) * box.height) / h };
  };
  const drag = async (from, to, shift) => {
    const a = await at(from.x, from.y);
    const b = await at(to.x, to.y);
    if (shift) await page.keyboard.down('Shift');
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(b.x, b.y, { steps: 5 });
    await page.mouse.up();
    if (shift) await page.keyboard.up('Shift');
  };
  // The status bar with its clock masked, then the wallpaper's point, read on every phone.
  await drag({ x: 0, y: 0 }, { x: 1079, y: 71 });
  await drag({ x: 470, y: 10 }, { x: 609, y: 61 }, true);
  await page.getByLabel('Golden').fill('status-bar.png');
  const p = await at(540, 1500);
  await page.mouse.click(p.x, p.y);
  await page.locator('#point-line').getByText('expectPixel(540, 1500)').waitFor();
  await page.getByLabel('Name of the point (540, 1500)').fill('wallpaper');
  await page.getByRole('button', { name: 'Read on every phone' }).click();
  await page.locator('#every-table tr[data-project="moto-g5"]').waitFor();
  // The magnifier shows the picked point; the pointer rests off the screen.
  await page.mouse.move(5, 5);
  await page.screenshot({ path: OUT });
  console.log(`wrote ${path.relative(ROOT, OUT)}`);
} finally {
  await browser.close();
  cli.kill('SIGINT');
  await new Promise((resolve) => cli.once('exit', resolve));
  await rm(cwd, { recursive: true, force: true });
}
