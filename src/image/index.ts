export { checkCompareOptions, compareImages, type CompareOptions, type Ignored, type Mismatch } from './compare.js';
export { decodePng, encodePng, pngText, solidImage, STEP_KEY, type Image } from './png.js';
export { MASK_COLOR, MAX_REGION_PIXELS, PartialRegion, RegionGrid, type GridOptions, type Rect } from './region.js';
export { CELL, NEIGHBOURHOOD, neighbourhoodOf, neighbourhoodOrigin, pixelEvidence, type Neighbourhood } from './neighbourhood.js';
export { markScreen, type ScreenMarks } from './marks.js';
export { refusesOtherStep, rewritesGolden, waitsForMatch, whenMissing, type GoldenState, type UpdateMode } from './update-modes.js';
export { loadOpenCv, type OpenCv } from './opencv.js';
export { cropImage, DEFAULT_COLOR_DELTA, DEFAULT_THRESHOLD, meanColor, SCALE_STEPS, searchTemplate, type SearchOptions, type SearchResult, type TemplateMatch } from './template.js';
export { CUT_ON_KEY, decodeTemplate, encodeTemplate, parseCutOn, templateScale, type Template } from './template-file.js';
