// A film's captions read back (src/video/captions.ts): the review page lists the steps its WebVTT holds.
import { readWebVtt, webVtt, type FilmStep } from '../../src/video/index.js';
import { expect, test } from '../helpers/test.js';

test('the steps written as captions read back: title, start, the time each took, verdict', () => {
  const steps: FilmStep[] = [
    { title: 'press home on galaxy-s9 (device@1)', start: 212, end: 480, failed: false },
    // A step shorter than a cue's shortest still reads back with its own length.
    { title: 'tap (10, 20) --> twice', start: 3_600_000 + 61_005, end: 3_600_000 + 61_045, failed: false },
    { title: 'toHavePixel(x, y, color)', start: 4_512, end: 5_530, failed: true },
  ];
  expect(readWebVtt(webVtt(steps))).toEqual([steps[0], { ...steps[1], title: 'tap (10, 20) → twice' }, steps[2]]);
});

test("a cue it did not write is a passed step of its cue's length; no cue, no step", () => {
  const vtt = 'WEBVTT\r\n\r\nintro\r\n00:01.000 --> 00:02.500 line:0\r\nSomething\r\nhappened\r\n\r\nNOTE a comment\r\n';
  expect(readWebVtt(vtt)).toEqual([{ title: 'Something happened', start: 1_000, end: 2_500, failed: false }]);
  expect(readWebVtt('WEBVTT\n')).toEqual([]);
});
