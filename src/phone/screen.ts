// The phone layer's screen reads: a capture, a region sampled pixel by pixel, the neighbourhood of a point.
// Apart from ./index.js, so that what never reads the screen never loads the PNG codec.
export { captureImage, captureScreenshot, readRegion, type RegionClient } from './capture.js';
export { readNeighbourhood } from './neighbourhood.js';
export { sampleRegion, type SampleOptions } from './sample.js';
