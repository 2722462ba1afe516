export { DeviceClient, type ActRoute, type AppState, type Capture, type CaptureRect, type ClientOptions, type DeviceInfo, type Pixel, type UploadOptions } from './client.js';
export type { CallOptions } from './caller.js';
export { Deadline, DEADLINE_PASSED, within } from './deadline.js';
export { hostMs, onHost } from './host-time.js';
export { classify, keepsPolling, type FailureKind, type RetryEvent, type RetryOptions } from './resilience.js';
export type { CallEvent, TransportOptions } from './transport.js';
export { checkGestureMs, checkKey, checkPackage, checkText, KEY_NAMES, MAX_GESTURE_MS, MAX_TEXT, type KeyName, type Point } from './act-forms.js';
export type { CaptureImage, CaptureType } from './extensions.js';
export { checkQuery, Elements } from './elements.js';
