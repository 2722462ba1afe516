// The locator the inspector offers for a click on the example app's sign-in form: through the UI elements, and on
// a server without them from the words read on the screen; the lines to copy or add to the draft; nothing offered
// where there is no text. Asked, the page boxes every text on the screen with its text: the lines read there, on a
// server without the UI elements.
import { DeviceClient } from '../../src/client/index.js';
import { EXAMPLE_APP, type SimulatorHandle, type SimulatorOptions } from '../../src/simulator/index.js';
import { on, PASSWORD, USER } from '../cli/helpers.js';
import { clickPixel, expect, needsChromium, pagePoint, test, type Opened } from './harness.js';

test.describe.configure({ mode: 'default' });
needsChromium();

const GALAXY = 'device@1116106541';
/** The centre of the blue Sign in button and of the help icon on the galaxy-s9's 1080×1920 sign-in form. */
const SIGN_IN = { x: 540, y: 845 };
const HELP = { x: 972, y: 220 };

for (const elements of [true, false]) {
  test(`a click on the Sign in button offers getByText('Sign in') to tap and to check, ${elements ? 'through the UI elements' : 'read from the screen on a server without the UI elements'}`, async ({ simulate, inspect }) => {
    const { page, problems } = await signInForm(simulate, inspect, elements);

    await clickPixel(page, SIGN_IN.x, SIGN_IN.y);
    const box = page.locator('#locator-box');
    await expect(page.locator('#locator-tap')).toHaveText("await device.getByText('Sign in').tap();", { timeout: 15_000 });
    await expect(page.locator('#locator-visible')).toHaveText("await expect(device.getByText('Sign in')).toBeVisible();");
    await expect(box).toContainText(`"Sign in" at `);
    await expect(box).toContainText(elements ? 'found by the UI elements' : 'found by the text read from the screen');
    await box.getByRole('button', { name: 'Add' }).first().click();
    await expect(page.locator('#draft-lines li').last()).toContainText("await device.getByText('Sign in').tap();");

    // The help icon has a description and no text: the UI elements name it; the screen's words do not.
    await clickPixel(page, HELP.x, HELP.y);
    if (elements) await expect(page.locator('#locator-tap')).toHaveText("await device.getByDescription('Help').tap();", { timeout: 15_000 });
    else await expect(box).toContainText('No text or element with a text here', { timeout: 15_000 });
    expect(problems()).toEqual([]);
  });
}

test('on a server without the UI elements, "Show the texts on the screen" boxes every line read, each labelled with its text, where it is; unticked, none', async ({ simulate, inspect }) => {
  const { page, problems } = await signInForm(simulate, inspect, false);
  const boxes = page.locator('#texts .text-box');
  await expect(boxes).toHaveCount(0);

  await page.getByLabel('Show the texts on the screen').check();
  // The sign-in form's lines (the help icon has no text), each as read: the status bar's clock, the title, the
  // fields' labels, the button, the small print.
  await expect(page.locator('#texts .text-tag')).toHaveText(['12:30', 'Welcome back', 'Email', 'Password', 'Sign in', /^Forgot password\? Terms of service apply\.?$/], { timeout: 15_000 });
  await expect(page.locator('#texts-note')).toContainText('6 lines read from the screen');
  // Each box where its line is: the Sign in button's centre lies in the box labelled Sign in, and in no other.
  const at = await pagePoint(page, SIGN_IN.x, SIGN_IN.y);
  const holding = [];
  for (const box of await boxes.all()) {
    const b = (await box.boundingBox())!;
    if (at.x >= b.x && at.x < b.x + b.width && at.y >= b.y && at.y < b.y + b.height) holding.push(await box.locator('.text-tag').textContent());
  }
  expect(holding).toEqual(['Sign in']);
  // The label shows: it is drawn above its box, inside the screen.
  const tag = (await boxes.filter({ hasText: 'Welcome back' }).locator('.text-tag').boundingBox())!;
  const title = (await boxes.filter({ hasText: 'Welcome back' }).boundingBox())!;
  expect(tag.y + tag.height).toBeLessThanOrEqual(title.y);
  expect(tag.width).toBeGreaterThan(0);

  await page.getByLabel('Show the texts on the screen').uncheck();
  await expect(boxes).toHaveCount(0);
  expect(problems()).toEqual([]);
});

/** The inspector live on the galaxy-s9 of a simulator (with or without the UI elements) showing the sign-in form. */
async function signInForm(simulate: (options: SimulatorOptions) => Promise<SimulatorHandle>, inspect: (args: string[]) => Promise<Opened>, elements: boolean): Promise<Opened> {
  const sim = await simulate({ elements });
  const client = new DeviceClient({ url: sim.url, user: USER, password: PASSWORD });
  await client.login();
  await client.setAppState(GALAXY, EXAMPLE_APP, 'active', {});
  await client.close();
  const opened = await inspect(['galaxy-s9', ...on(sim)]);
  await expect(opened.page.locator('#status')).toHaveAttribute('data-kind', 'live');
  return opened;
}
