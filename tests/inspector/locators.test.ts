// The locator the inspector offers for a click on the example app's sign-in form: through the UI elements, and on
// a server without them from the words read on the screen; the lines to copy or add to the draft; nothing offered
// where there is no text.
import { DeviceClient } from '../../src/client/index.js';
import { EXAMPLE_APP } from '../../src/simulator/index.js';
import { on, PASSWORD, USER } from '../cli/helpers.js';
import { clickPixel, expect, needsChromium, test } from './harness.js';

test.describe.configure({ mode: 'default' });
needsChromium();

const GALAXY = 'device@1116106541';
/** The centre of the blue Sign in button and of the help icon on the galaxy-s9's 1080×1920 sign-in form. */
const SIGN_IN = { x: 540, y: 845 };
const HELP = { x: 972, y: 220 };

for (const elements of [true, false]) {
  test(`a click on the Sign in button offers getByText('Sign in') to tap and to check, ${elements ? 'through the UI elements' : 'read from the screen on a server without the UI elements'}`, async ({ simulate, inspect }) => {
    const sim = await simulate({ elements });
    const client = new DeviceClient({ url: sim.url, user: USER, password: PASSWORD });
    await client.login();
    await client.setAppState(GALAXY, EXAMPLE_APP, 'active', {});
    await client.close();
    const { page, problems } = await inspect(['galaxy-s9', ...on(sim)]);
    await expect(page.locator('#status')).toHaveAttribute('data-kind', 'live');

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
