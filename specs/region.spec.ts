import { test, expect } from '../fixtures';

// A region snapshot: the status bar's left corner (signal marks) against a golden kept per phone
// (specs/region.spec.ts-snapshots/status-bar-<phone>.png). Update goldens with --update-snapshots.
test('status bar corner matches its golden', async ({ device }) => {
  await expect(device).toMatchRegion({ x: 0, y: 0, width: 48, height: 48 }, 'status-bar.png');
});
