import { createRequire } from 'node:module';
import { TimeoutError } from '../core/errors.js';

// OpenCV.js (@techstark/opencv-js: OpenCV 4.12 compiled to WebAssembly, shipped inside the npm package, so it
// works offline after `npm ci`), loaded once per process on the first template search. Only the few members
// the search uses are typed here: the package's own typings are the whole of OpenCV, and loose.

/** An OpenCV matrix: an image, or a search's result. Lives in the WebAssembly heap until `delete()`. */
export interface CvMat {
  readonly rows: number;
  readonly cols: number;
  readonly data: Uint8Array;
  roi(rect: unknown): CvMat;
  delete(): void;
}

/** What the template search uses of OpenCV. */
export interface OpenCv {
  Mat: new (rows?: number, cols?: number, type?: number) => CvMat;
  Size: new (width: number, height: number) => unknown;
  Rect: new (x: number, y: number, width: number, height: number) => unknown;
  Point: new (x: number, y: number) => unknown;
  Scalar: new (value: number) => unknown;
  CV_8UC4: number;
  COLOR_RGBA2RGB: number;
  COLOR_RGBA2GRAY: number;
  INTER_AREA: number;
  INTER_LINEAR: number;
  TM_CCOEFF_NORMED: number;
  cvtColor(src: CvMat, dst: CvMat, code: number): void;
  resize(src: CvMat, dst: CvMat, size: unknown, fx: number, fy: number, interpolation: number): void;
  matchTemplate(image: CvMat, template: CvMat, result: CvMat, method: number): void;
  minMaxLoc(src: CvMat): { maxVal: number; maxLoc: { x: number; y: number } };
  rectangle(img: CvMat, from: unknown, to: unknown, color: unknown, thickness: number): void;
}

let loading: Promise<OpenCv> | undefined;
/** OpenCV starts in ~0.5 s; far past that it never will (a failed WebAssembly start calls neither hook). */
const LOAD_TIMEOUT_MS = 60_000;

/**
 * OpenCV, loaded and initialised: ~0.5 s and ~11 MB of code the first time in a process, nothing after.
 * Emscripten's Node start-up adds process-wide `uncaughtException` (rethrow) and `unhandledRejection` (abort)
 * handlers; they are removed again, so that loading a library never changes how the process (a Playwright
 * worker, the CLI) handles its own errors.
 */
export function loadOpenCv(): Promise<OpenCv> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<OpenCv> {
  const before = { exception: new Set(process.listeners('uncaughtException')), rejection: new Set(process.listeners('unhandledRejection')) };
  // Required, not imported: the module is a thenable (Emscripten's `then`) that resolves to itself, so a
  // promise that adopts it (an awaited `import()`, an async function returning it) never settles.
  const cv = createRequire(import.meta.url)('@techstark/opencv-js') as OpenCv & { onRuntimeInitialized?: () => void; onAbort?: (what: unknown) => void; then?: unknown };
  // Emscripten adds its handlers as the module loads: taken off at once, before anyone else adds theirs.
  for (const l of process.listeners('uncaughtException')) if (!before.exception.has(l)) process.off('uncaughtException', l);
  for (const l of process.listeners('unhandledRejection')) if (!before.rejection.has(l)) process.off('unhandledRejection', l);
  // The WebAssembly compiles asynchronously: `Mat` is there once the runtime says it is ready, or it aborts.
  if (typeof cv.Mat !== 'function') {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new TimeoutError(`OpenCV did not start within ${LOAD_TIMEOUT_MS / 1000} s`, { hint: 'check that the machine is not out of memory; image checks need OpenCV' })), LOAD_TIMEOUT_MS);
      timer.unref();
      cv.onRuntimeInitialized = () => (clearTimeout(timer), resolve());
      cv.onAbort = (what) => (clearTimeout(timer), reject(new TimeoutError(`OpenCV failed to start: ${String(what)}`, { hint: 'check that the machine is not out of memory; image checks need OpenCV' })));
    });
  }
  // Ready, its `then` is of no more use, and without it the module can be returned and awaited like any value.
  delete cv.then;
  return cv;
}
