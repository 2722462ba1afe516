// The phone layer: every read of a phone beyond one call of the client — the one poll loop of assertions and
// waiters, screen capture and sampling, the neighbourhood of a point, the notification feed — between the
// client (the interface and the vendor's routes) and those who use a phone (the fixtures, the CLI, the bench).
// The screen's reads are in ./screen.js, loaded when first needed: they bring the PNG codec.
export { NotificationFeed, type FeedListener, type FeedOptions, type Subscription } from './feed.js';
export { readAll, readPages, type NotificationSource, type PageOptions } from './pager.js';
export { LAST_READ_GRACE_MS, POLL_INTERVALS, until, type PollResult } from './until.js';
export { FINAL_READ_MS, waitForMessage, watchWindow, type MessageWait, type WaitOutcome, type WatchReport, type WindowOutcome, type WindowWatch } from './waiters.js';
export { NotificationWatcher, type NotificationOrder, type WatcherOptions } from './watch.js';
export { Phone, type Around, type NotificationRead, type PhoneReadOptions } from './phone.js';
export { LabVerdict } from './lab-verdict.js';
