export { checkCompareOptions, compareImages, type CompareOptions, type Mismatch } from './compare.js';
export { decodePng, encodePng, solidImage, type Image } from './png.js';
export { checkRect, PartialRegion, sampleRegion, MAX_REGION_PIXELS, type Rect, type SampleOptions } from './region.js';
export { pixelSwatches, SWATCH_SIZE } from './swatch.js';
