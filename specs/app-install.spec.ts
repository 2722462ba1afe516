import { test, expect } from 'phonewright/fixtures';

// A spec that needs the build under test on the server: pushed once per server and content, before it runs.
test.use({ push: { apk: 'specs/assets/example-app.apk', script: ['specs/assets/login.js'] } });

test('the apk and the login script are on the server', async ({ pushed }) => {
  expect(pushed.apk).toHaveLength(1);
  expect(pushed.apk![0]).toMatch(/\/storage\/apk\/\d{13}\.apk$/);
  expect(pushed.script![0]).toMatch(/\/storage\/js\/\d{13}\.js$/);
});
