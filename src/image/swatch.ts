import { colorDelta, type Rgb } from '../core/color.js';
import { solidImage, type Image } from './png.js';

/** Side of a colour swatch: it fills the HTML report's image-diff viewer, and a flat PNG of it is ~100 bytes. */
export const SWATCH_SIZE = 192;

/**
 * The evidence of a pixel check as three images for the report's image-diff viewer: the expected colour,
 * the received colour, and a diff swatch (red where the colours differ beyond the tolerance, the received
 * colour dimmed where they match).
 * @param expected the colour asked for
 * @param actual the colour read
 * @param tolerance per-channel tolerance
 */
export function pixelSwatches(expected: Rgb, actual: Rgb, tolerance = 0): { expected: Image; actual: Image; diff: Image } {
  const differs = colorDelta(expected, actual).max > tolerance;
  const dim = (n: number) => Math.round(255 - (255 - n) * 0.1);
  const diffColor = differs ? { r: 255, g: 0, b: 0 } : { r: dim(actual.r), g: dim(actual.g), b: dim(actual.b) };
  return {
    expected: solidImage(SWATCH_SIZE, SWATCH_SIZE, expected),
    actual: solidImage(SWATCH_SIZE, SWATCH_SIZE, actual),
    diff: solidImage(SWATCH_SIZE, SWATCH_SIZE, diffColor),
  };
}
