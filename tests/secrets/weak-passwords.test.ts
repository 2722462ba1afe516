// A weak password (a common word, a number, one letter) is removed from output as a value, never as a
// substring: doctor, settings and --help print nothing masked, and a refused login says nothing of it. Masking
// every "device" of a doctor report (`✓ main ***    ***@795844152`) showed anyone what the password was.
import { expect, run, test } from '../cli/helpers.js';

const WEAK = ['device', 'secret', '1280', 'a'];
const LANDSCAPE = 'moto-g5';

for (const password of WEAK) {
  test(`password "${password}": doctor, settings and --help print nothing masked, a wrong one is not shown`, async ({ simulate }) => {
    const sim = await simulate({ password });
    const env = { PHONEWRIGHT_PASSWORD: password, PHONEWRIGHT_URL: sim.url };
    const outputs = [
      await run(['doctor'], { env }),
      await run(['settings', LANDSCAPE], { env }),
      await run(['settings', 'main', '--json'], { env }),
      await run(['--help'], { env }),
      await run(['doctor', '--help'], { env }),
    ];
    for (const r of outputs) {
      expect(r.code, r.stderr).toBe(0);
      expect(`${r.stdout}${r.stderr}`, 'nothing masked').not.toContain('***');
    }
    const [doctor, settings] = outputs as [(typeof outputs)[0], (typeof outputs)[0]];
    expect(doctor.stdout).toContain(`✓ main device    ${sim.mainDevice}`);
    expect(settings.stdout).toContain('1280*720');
    // A wrong password of the same strength: refused, and neither password appears as a value.
    const refused = await run(['login', '--json'], { env: { ...env, PHONEWRIGHT_PASSWORD: `${password}x` } });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^phonewright: login refused for user "sigma"/);
    expect(refused.stderr).not.toMatch(new RegExp(`[=:"]\\s*${password}x?\\b`));
  });
}
