// What the fault suite found the client giving up on too soon, pinned one by one: a renewed token that
// expires while its call waits out a slow server, and a pixel read refused while its phone reconnects.
import { VENDOR_MAIN_DEVICE, inOrder } from '../helpers/fake-server.js';
import { expect, failure, test } from '../client/harness.js';

const PIXEL = { r: 37, g: 66, b: 92, rgb: '0x25425c' };

test('a renewed token that expires while its call waits out a slow 503 is renewed again', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  await client.login();
  server.expireTokens();
  let slowed = false;
  server.handle('pixel', (req, next) => {
    // The first request with the renewed token is answered 503 after 1.1 s; the token expires meanwhile.
    if (slowed || req.token !== server.tokens[1]) return next();
    slowed = true;
    server.expireTokens();
    return { status: 503, delay: 1_100 };
  });
  expect(await client.pixel(VENDOR_MAIN_DEVICE, 5, 5)).toEqual(PIXEL);
  expect(server.count('login')).toBe(3);
});

test('a token refused as soon as it is issued is still an AuthError after one renewal', async ({ serve, connect }) => {
  const server = await serve({ tokenUses: 0 });
  const error = await failure(() => connect(server).pixel(VENDOR_MAIN_DEVICE, 5, 5));
  expect(error.message).toMatch(/^pixel: the server rejected a freshly issued token for user "sigma": GET http:\/\/127\.0\.0\.1:\d+\/TotalControl\/v1\/devices\/device@1116106541\/screen\/colors\?token=\*\*\*&q=color&x=5&y=5; try: /);
  expect(server.count('login')).toBe(2);
});

test('a pixel refused while the phone reconnects is read again once the phone answers', async ({ serve, connect }) => {
  const server = await serve();
  // `{"status": false}` once: the phone dropped off; by the time the client asks why, it is back.
  server.handle('pixel', inOrder({ json: { status: false } }));
  expect(await connect(server).pixel(VENDOR_MAIN_DEVICE, 5, 5)).toEqual(PIXEL);
  expect(server.count('pixel')).toBe(2);
});

test('a pixel refused twice on a phone that is there fails, naming the phone, the point and the screen', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('pixel', { json: { status: false } });
  const error = await failure(() => connect(server).pixel(VENDOR_MAIN_DEVICE, 5, 5));
  expect(error.message).toMatch(/^pixel \(5, 5\) on device@1116106541 \(1080\*1920\) failed: the server answered \{"status": false\} \(after 2 attempts in \d+ ms\); try: check that the phone is connected and its screen is shared$/);
  expect(server.count('pixel')).toBe(2);
});
