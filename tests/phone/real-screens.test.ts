// Text read on real apps' screens (English, French, Chinese; light and dark; small print), each served as a
// phone's screen by a simulator without UI elements: every label a person read is found at its place by
// getByText, every count is right, and no absent text is found. The corpus is read from the folder
// PHONEWRIGHT_REALSCREENS names (tests/helpers/real-screens.ts); without it these tests skip, saying so.
import { parseDeviceId } from '../../src/core/device-id.js';
import { Phone } from '../../src/phone/index.js';
import { realScreens, realScreensScenario, scoreScreen } from '../helpers/real-screens.js';
import { expect, test } from '../client/harness.js';

const corpus = realScreens();
/** The share of a screen's labels that must be found at their place: the bar, 97 %. */
const FOUND_RATIO = 0.97;

test.describe('text on real screens', () => {
  test.skip('skip' in corpus, 'skip' in corpus ? corpus.skip : '');
  for (const screen of 'screens' in corpus ? corpus.screens : []) {
    test(`${screen.file}: every label found at its place, counted right, no absent text found`, async ({ startSim, connect }) => {
      const sim = await startSim({ scenario: realScreensScenario([screen]), elements: false });
      const client = connect(sim.url, { totalTimeout: 30_000, attemptTimeout: 20_000 });
      await client.login();
      const phone = new Phone(client, parseDeviceId(screen.id), { waitTimeout: () => 15_000 });
      const score = await scoreScreen(phone, screen);
      expect(score.found, score.misses.join('\n')).toBeGreaterThanOrEqual(Math.ceil(FOUND_RATIO * score.finds));
      expect(score.countsRight, score.misses.join('\n')).toBe(score.counts);
      expect(score.falseFinds, score.misses.join('\n')).toBe(0);
    });
  }
});
