import { test, expect } from 'phonewright/fixtures';

// A notification flow: the app under test posts a one-time code after a login; the ads SDK must stay quiet.
// On the embedded simulator the "act" is the simulator's admin API; in a phone lab it is the app itself.
test('a login code arrives as a notification', async ({ device, simulator }) => {
  test.skip(!simulator, 'the act (posting the code) needs the simulator; on a real lab, trigger the app instead');
  const waiter = device.waitForNotification({ app: 'com.example.chat', text: /code (\d{6})/ });
  await simulator!.postNotification(device.id, 'com.example.chat', 'Your login code 482913');
  const note = await waiter;
  expect(/code (\d{6})/.exec(note.text)?.[1]).toBe('482913');
  expect(note.id).toBe(device.id);
});

test('a message posted before arming does not count', async ({ device, simulator }) => {
  test.skip(!simulator, 'needs the simulator to post');
  await simulator!.postNotification(device.id, 'com.example.chat', 'old code 111111');
  const waiter = device.waitForNotification({ app: 'com.example.chat', text: 'new code' }, { timeout: 5_000 });
  await simulator!.postNotification(device.id, 'com.example.chat', 'new code 222222');
  expect((await waiter).text).toBe('new code 222222');
});

test('the ads SDK posts nothing', async ({ device }) => {
  await device.expectNoNotification({ app: 'com.example.ads' }, { within: 1_500 });
});

test('the message list holds what was posted', async ({ device, simulator }) => {
  test.skip(!simulator, 'needs the simulator to post');
  await simulator!.postNotification(device.id, 'com.example.mail', `Inbox for ${device.name}`);
  await expect(device).toHaveNotification({ app: 'com.example.mail', text: `Inbox for ${device.name}` });
});
