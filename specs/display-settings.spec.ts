import { test, expect } from 'phonewright/fixtures';
import { modelOf } from './phones';

// Display settings per phone model: orientation, native resolution, acceleration, hardware decoding.
test('display settings match the model', async ({ device }, testInfo) => {
  const { settings } = modelOf(testInfo.project.name);
  await expect(device).toHaveSettings(settings);
});

test('resolution agrees with the orientation', async ({ device }) => {
  const s = await device.settings();
  const landscape = s.display_resolution.w > s.display_resolution.h;
  await expect(device).toHaveSettings({ orientation: landscape ? 'landscape' : 'portrait' });
});
