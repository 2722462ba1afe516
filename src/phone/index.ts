// The phone layer: everything one phone does over the client, with no test runner in it. Every read and act
// goes through `Phone` (its deadline, its report step through the hooks the Playwright layer hands it, the lab's
// bookkeeping); the checks (`check-*.ts`) return verdicts; the notification feed and its waiters read through
// the phone too; `until` is the one wait loop. The screen's reads are in ./screen.js, loaded when first needed:
// they bring the PNG codec.
export { LONG_PRESS_MS, SWIPE_MS, type GestureOptions, type PointInput } from './acts.js';
export { NO_HOOKS, pointAt, type CallSite, type PhoneHooks, type StepOptions } from './hooks.js';
export { capturesScreen, type ImageMatch, type ImageOptions, type ImageTarget } from './image.js';
export { LabVerdict } from './lab-verdict.js';
export { Locator, type LocatorOptions } from './locator.js';
export { offersElements, type LocatorSight, type LocatorTarget, type LookedVia, type Match } from './locator-look.js';
export { Arrivals, type ArrivalsOptions, type NotificationOrder } from './notification-arrivals.js';
export { NotificationFeed, type FeedListener, type FeedOptions, type ReadThrough, type Subscription } from './notification-feed.js';
export { readAll, readPages, type NotificationSource, type PageOptions } from './notification-list.js';
export type { WatchReport } from './notification-report.js';
export { NotificationWaiter, PhoneWaiters, waitForMessage, type MessageWait, type WaitOptions, type WaitOutcome } from './notification-waiter.js';
export { FINAL_READ_MS, watchWindow, type NoNotificationOptions, type WindowOutcome, type WindowWatch } from './notification-window.js';
export { Phone, type NotificationQuery, type PhoneOptions, type ReadOptions } from './phone.js';
export { checkStart, HOST_ALLOWANCE_MS, LAST_READ_GRACE_MS, POLL_INTERVALS, until, untilChecked, type CheckStart, type PollResult, type UntilOptions } from './until.js';
export type { Attachment, CheckContext, Part, Verdict } from './verdict.js';
