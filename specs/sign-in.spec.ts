import { test, expect, capturesScreen, offersElements } from 'phonewright/fixtures';

// Text and elements: the example app's sign-in form, found by what it says, on every phone of the matrix. Where
// the server has the vendor's UI elements they answer; where it has not, a text is read from the screen (OCR), so
// the texts below hold on either. Description and resource id need the UI elements.
const APP = 'com.example.app';

test.describe('sign in', () => {
  test.beforeEach(async ({ device }) => {
    test.skip(!(await offersElements(device)) && !(await capturesScreen(device)), "text is found through the vendor's UI elements or read from its screen capture, and this server offers neither");
    await device.launch(APP);
  });

  test('the form says what it is', async ({ device }) => {
    await expect(device.getByText('Welcome back')).toBeVisible();
    await expect(device.getByText('Password', { exact: true })).toBeVisible();
    await expect(device.getByText('Signed in')).not.toBeVisible();
  });

  test('signing in opens the next screen, signing out the form', async ({ device }) => {
    await device.getByText('Sign in').tap();
    await expect(device.getByText('Signed in')).toBeVisible();
    await expect(device.getByText(/signed in to Example/)).toHaveCount(1);
    await device.getByText('Sign out').tap();
    await expect(device.getByText('Welcome back')).toBeVisible();
  });

  test('fields by their resource id, the help icon by its description', async ({ device }) => {
    test.skip(!(await offersElements(device)), "resource ids and descriptions are the vendor's UI elements, which this server does not offer");
    await device.getById('.email').fill('qa@example.com');
    await expect(device.getById('.email')).toHaveText('qa@example.com');
    await expect(device.getByDescription('Help')).toBeVisible();
    await expect(device.getById(`${APP}:id/title`)).toHaveText('Welcome back');
  });
});
