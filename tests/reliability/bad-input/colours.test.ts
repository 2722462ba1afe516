// Bad colours. No CLI command takes one; the public surface is parseColor (src/index.ts) and the device's
// pixel assertions. Each bad colour or tolerance is refused with a UsageError that shows what to write, before
// any pixel is read.
import { parseColor, UsageError, type ColorInput } from '../../../src/index.js';
import { config, expect, spec, test } from '../../fixtures/inline.js';

const HEX_HINT = "try: '0x25425c', '#25425c', '25425c' or { r: 37, g: 66, b: 92 }";
const RGB_HINT = "try: '0x25425c' or { r: 37, g: 66, b: 92 }";

const CASES: { name: string; input: unknown; error: string }[] = [
  { name: 'hex digits that are not', input: '0xZZZZZZ', error: `invalid colour "0xZZZZZZ": expected six hex digits; ${HEX_HINT}` },
  { name: 'five digits', input: '#12345', error: `invalid colour "#12345": expected six hex digits; ${HEX_HINT}` },
  { name: 'seven digits', input: '0x1234567', error: `invalid colour "0x1234567": expected six hex digits; ${HEX_HINT}` },
  { name: 'a colour name', input: 'red', error: `invalid colour "red": expected six hex digits; ${HEX_HINT}` },
  { name: 'CSS rgb()', input: 'rgb(1,2,3)', error: `invalid colour "rgb(1,2,3)": expected six hex digits; ${HEX_HINT}` },
  { name: 'empty', input: '', error: `invalid colour "": expected six hex digits; ${HEX_HINT}` },
  { name: 'a channel past 255', input: { r: 256, g: 0, b: 0 }, error: `invalid colour {"r":256,"g":0,"b":0}: expected { r, g, b } with integers 0 to 255; ${RGB_HINT}` },
  { name: 'a negative channel', input: { r: -1, g: 2, b: 3 }, error: `invalid colour {"r":-1,"g":2,"b":3}: expected { r, g, b } with integers 0 to 255; ${RGB_HINT}` },
  { name: 'a fractional channel', input: { r: 1.5, g: 2, b: 3 }, error: `invalid colour {"r":1.5,"g":2,"b":3}: expected { r, g, b } with integers 0 to 255; ${RGB_HINT}` },
  { name: 'a channel missing', input: { r: 1, g: 2 }, error: `invalid colour {"r":1,"g":2}: expected { r, g, b } with integers 0 to 255; ${RGB_HINT}` },
  { name: 'a number', input: 0x25425c, error: `invalid colour 2441820: expected { r, g, b } with integers 0 to 255; ${RGB_HINT}` },
  { name: 'null', input: null, error: `invalid colour null: expected { r, g, b } with integers 0 to 255; ${RGB_HINT}` },
];

for (const c of CASES) {
  test(`parseColor: ${c.name}`, () => {
    let error: unknown;
    try {
      parseColor(c.input as ColorInput);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('PW_USAGE');
    expect((error as Error).message).toBe(c.error);
  });
}

const PHONE = 'device@7001';
// One spec per bad input to the pixel assertion; a phone whose every pixel is 0x336699.
const ASSERTIONS: { title: string; call: string; error: string }[] = [
  { title: 'a colour string that is not one', call: "device.expectPixel(1, 1).toBe('0x33669')", error: `UsageError: invalid colour "0x33669": expected six hex digits; ${HEX_HINT}` },
  { title: 'a colour object out of range', call: 'expect(device).toHavePixel(1, 1, { r: 51, g: 102, b: 300 })', error: `UsageError: invalid colour {"r":51,"g":102,"b":300}: expected { r, g, b } with integers 0 to 255; ${RGB_HINT}` },
  { title: 'a tolerance past 255', call: "device.expectPixel(1, 1, { tolerance: 300 }).not.toBe('0x000000')", error: 'UsageError: invalid tolerance 300: expected an integer from 0 to 255 (per channel)' },
  { title: 'a fractional tolerance', call: "device.expectPixel(1, 1, { tolerance: 0.5 }).toBe('0x336699')", error: 'UsageError: invalid tolerance 0.5: expected an integer from 0 to 255 (per channel)' },
];

test('pixel assertions: a bad colour or tolerance fails the test with what to write, and reads no pixel', async ({ inline, startSim }) => {
  const sim = await startSim({ scenario: { phones: [{ id: PHONE, screen: { width: 8, height: 8, fill: '0x336699' } }] } });
  const run = await inline.run(
    {
      'playwright.config.ts': config(),
      'specs/colours.spec.ts': spec(ASSERTIONS.map((a) => `test('${a.title}', async ({ device }) => {\n  await ${a.call};\n});`).join('\n\n')),
    },
    { env: { PHONEWRIGHT_URL: sim.url, PHONEWRIGHT_DEVICES: PHONE } },
  );
  expect(run.summary.total, run.output).toEqual({ passed: 0, failed: ASSERTIONS.length, skipped: 0, flaky: 0 });
  for (const a of ASSERTIONS) {
    const t = run.test(a.title);
    expect(t.errors[0]!.split('\n')[0], a.title).toBe(a.error);
    // A mistake in the spec is not the lab's fault.
    expect(t.annotations.filter((x) => x.type === 'infra-failure'), a.title).toEqual([]);
  }
  expect(sim.count(/\/screen\/colors/), 'pixel reads').toBe(0);
});
