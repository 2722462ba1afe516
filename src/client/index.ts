export { DeviceClient, type AppState, type Capture, type CaptureRect, type ClientOptions, type DeviceInfo, type Pixel, type UploadOptions } from './client.js';
export type { CallOptions } from './caller.js';
export { Deadline, DEADLINE_PASSED } from './deadline.js';
export { classify, keepsPolling, type FailureKind, type RetryEvent, type RetryOptions } from './resilience.js';
export type { CallEvent, TransportOptions } from './transport.js';
export { checkGestureMs, checkPackage, checkText, keyConstant, MAX_GESTURE_MS, MAX_TEXT, type Point } from './extensions.js';
