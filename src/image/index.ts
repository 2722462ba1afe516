export { checkCompareOptions, compareImages, type CompareOptions, type Ignored, type Mismatch } from './compare.js';
export { decodePng, encodePng, pngText, solidImage, STEP_KEY, type Image } from './png.js';
export { MASK_COLOR, MAX_REGION_PIXELS, PartialRegion, RegionGrid, type GridOptions, type Rect } from './region.js';
export { CELL, NEIGHBOURHOOD, neighbourhoodOf, neighbourhoodOrigin, pixelEvidence, type Neighbourhood } from './neighbourhood.js';
export { markScreen, type ScreenMarks } from './marks.js';
export { refusesOtherStep, rewritesGolden, waitsForMatch, whenMissing, type GoldenState, type UpdateMode } from './update-modes.js';
