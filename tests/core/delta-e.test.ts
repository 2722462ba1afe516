// CIEDE2000 against the published test data, and sRGB pairs whose distances docs/visual-checks.md's advice relies on.
import { expect, test } from '../helpers/test.js';
import { parseColor } from '../../src/core/color.js';
import { deltaE, deltaE2000, parseDeltaE, srgbToLab } from '../../src/core/delta-e.js';

// G. Sharma, W. Wu, E. N. Dalal (2005), Table 1: L1, a1, b1, L2, a2, b2, ΔE00 to four decimals.
const SHARMA: [number, number, number, number, number, number, number][] = [
  [50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425],
  [50, 3.1571, -77.2803, 50, 0, -82.7485, 2.8615],
  [50, 2.8361, -74.02, 50, 0, -82.7485, 3.4412],
  [50, -1.3802, -84.2814, 50, 0, -82.7485, 1.0],
  [50, -1.1848, -84.8006, 50, 0, -82.7485, 1.0],
  [50, -0.9009, -85.5211, 50, 0, -82.7485, 1.0],
  [50, 0, 0, 50, -1, 2, 2.3669],
  [50, -1, 2, 50, 0, 0, 2.3669],
  [50, 2.49, -0.001, 50, -2.49, 0.0009, 7.1792],
  [50, 2.49, -0.001, 50, -2.49, 0.001, 7.1792],
  [50, 2.49, -0.001, 50, -2.49, 0.0011, 7.2195],
  [50, 2.49, -0.001, 50, -2.49, 0.0012, 7.2195],
  [50, -0.001, 2.49, 50, 0.0009, -2.49, 4.8045],
  [50, -0.001, 2.49, 50, 0.001, -2.49, 4.8045],
  [50, -0.001, 2.49, 50, 0.0011, -2.49, 4.7461],
  [50, 2.5, 0, 50, 0, -2.5, 4.3065],
  [50, 2.5, 0, 73, 25, -18, 27.1492],
  [50, 2.5, 0, 61, -5, 29, 22.8977],
  [50, 2.5, 0, 56, -27, -3, 31.903],
  [50, 2.5, 0, 58, 24, 15, 19.4535],
  [50, 2.5, 0, 50, 3.1736, 0.5854, 1.0],
  [50, 2.5, 0, 50, 3.2972, 0, 1.0],
  [50, 2.5, 0, 50, 1.8634, 0.5757, 1.0],
  [50, 2.5, 0, 50, 3.2592, 0.335, 1.0],
  [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
  [63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.263],
  [61.2901, 3.7196, -5.3901, 61.4292, 2.248, -4.962, 1.8731],
  [35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645],
  [22.7233, 20.0904, -46.694, 23.0331, 14.973, -42.5619, 2.0373],
  [36.4612, 47.858, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146],
  [90.8027, -2.0831, 1.441, 91.1528, -1.6435, 0.0447, 1.4441],
  [90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381],
  [6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377],
  [2.0776, 0.0795, -1.135, 0.9033, -0.0636, -0.5514, 0.9082],
];

test('the 34 test pairs of Sharma, Wu and Dalal (2005), to four decimals, both ways round', () => {
  for (const [l1, a1, b1, l2, a2, b2, expected] of SHARMA) {
    const one = { l: l1, a: a1, b: b1 };
    const two = { l: l2, a: a2, b: b2 };
    expect(deltaE2000(one, two).toFixed(4), `${JSON.stringify(one)} ~ ${JSON.stringify(two)}`).toBe(expected.toFixed(4));
    expect(deltaE2000(two, one).toFixed(4)).toBe(expected.toFixed(4));
  }
});

test('sRGB to CIELAB under D65: white, black and the primaries', () => {
  const lab = (hex: string) => Object.values(srgbToLab(parseColor(hex))).map((v) => Number(v.toFixed(2)) + 0);
  expect(lab('0xffffff')).toEqual([100, 0, 0]);
  expect(lab('0x000000')).toEqual([0, 0, 0]);
  expect(lab('0xff0000')).toEqual([53.24, 80.09, 67.2]);
  expect(lab('0x00ff00')).toEqual([87.73, -86.18, 83.18]);
  expect(lab('0x0000ff')).toEqual([32.3, 79.19, -107.86]);
});

test('sRGB pairs: a step of 10 in saturated blue is invisible, half that in red on grey is not', () => {
  const d = (a: string, b: string) => deltaE(parseColor(a), parseColor(b));
  const blue = d('0x0000ff', '0x0a0aff');
  expect(blue).toBeGreaterThan(0.52);
  expect(blue).toBeLessThan(0.64);
  expect(d('0x808080', '0x858080')).toBeGreaterThan(2.3);
  expect(d('0x808080', '0x858080').toFixed(2)).toBe('2.75');
  expect(d('0x25425c', '0x25425c')).toBe(0);
  expect(d('0x000000', '0xffffff')).toBeCloseTo(100, 3);
});

test('a deltaE bound must be a number from 0 to 100', () => {
  expect(parseDeltaE(2.3)).toBe(2.3);
  expect(parseDeltaE(0)).toBe(0);
  for (const bad of [-1, 101, Number.NaN, '2.3', null]) expect(() => parseDeltaE(bad), String(bad)).toThrow(/invalid deltaE .*: expected a CIEDE2000 distance from 0 to 100/);
});
