import { test, expect } from 'phonewright/fixtures';

// A region snapshot: the status bar's left corner (signal marks) against a golden kept per phone
// (specs/region.spec.ts-snapshots/status-bar-<phone>.png). Update goldens with --update-snapshots.
// A server with screen capture gives the region in one request. One with the device-control interface only
// is read one pixel per call: 48×48 is 2,304 reads, about 12 s on a lab server that serves 200 reads a second
// per phone, so the check gets a timeout of its own rather than the 5 s expect timeout.
test('status bar corner matches its golden', async ({ device }) => {
  await expect(device).toMatchRegion({ x: 0, y: 0, width: 48, height: 48 }, 'status-bar.png', { timeout: 20_000 });
});
