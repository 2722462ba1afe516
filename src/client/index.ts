export { DeviceClient, type Capture, type CaptureRect, type ClientOptions, type DeviceInfo, type Pixel, type UploadOptions } from './client.js';
export type { CallOptions } from './caller.js';
export { Deadline, DEADLINE_PASSED } from './deadline.js';
export { NotificationFeed, type FeedListener, type FeedOptions, type Subscription } from './feed.js';
export { readAll, readPages, type NotificationSource, type PageOptions } from './pager.js';
export { classify, keepsPolling, poll, POLL_INTERVALS, type FailureKind, type PollResult, type RetryEvent, type RetryOptions } from './resilience.js';
export type { CallEvent, TransportOptions } from './transport.js';
export { FINAL_READ_MS, waitForMessage, watchWindow, type MessageWait, type WaitOutcome, type WatchReport, type WindowOutcome, type WindowWatch } from './waiters.js';
export { NotificationWatcher, type NotificationOrder, type WatcherOptions } from './watch.js';
