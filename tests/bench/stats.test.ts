import { expect, test } from '../helpers/test.js';
import { median, medianInterval, medianRatio, ratios } from '../../bench/stats.js';

// The bench's ratios are medians of interleaved rounds, their detail the median's 95 % interval.
test('the interval of a median of 31 rounds runs from the 11th to the 21st value; of 5, over all of them', () => {
  const rounds = Array.from({ length: 31 }, (_, i) => 1 + i / 100).reverse();
  expect(median(rounds)).toBe(1.15);
  expect(medianInterval(rounds)).toEqual([1.1, 1.2]);
  expect(medianInterval([1.3, 1.1, 1.5, 1.2, 1.4])).toEqual([1.1, 1.5]);
  expect(medianInterval([2])).toEqual([2, 2]);
});

test('one round far off moves the median of 31 rounds by one rank, not by its own size', () => {
  const rounds = Array.from({ length: 31 }, (_, i) => 1 + i / 100);
  const spoiled = [9, ...rounds.slice(1)];
  expect(median(rounds)).toBe(1.15);
  expect(median(spoiled)).toBe(1.16);
  expect(medianInterval(spoiled)).toEqual([1.11, 1.21]);
});

test('each round is a ratio of its own two runs', () => {
  expect(ratios([2, 9, 4], [1, 3, 4])).toEqual([2, 3, 1]);
  expect(medianRatio([2, 9, 4], [1, 3, 4])).toBe(2);
});
