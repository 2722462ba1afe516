// The public library surface: named exports only. Deep imports are closed by package.json "exports".

export { DeviceClient, NotificationWatcher } from './client/index.js';
export type { CallEvent, CallOptions, ClientOptions, NotificationOrder, Pixel, TransportOptions, UploadOptions, WatcherOptions } from './client/index.js';
export { NotificationFeed, type FeedOptions, type Subscription } from './client/feed.js';

export { colorDelta, colorsMatch, formatColor, parseColor, type ColorDelta, type ColorInput, type Rgb } from './core/color.js';
export { DEFAULT_PASSWORD, DEFAULT_PORT, DEFAULT_USER, EXAMPLE_MAIN_DEVICE } from './core/defaults.js';
export { isDeviceId, parseDeviceId, type DeviceId } from './core/device-id.js';
export {
  AbortedError,
  AuthError,
  CheckFailedError,
  ConfigError,
  exitCodeFor,
  isInfrastructureError,
  isPhonewrightError,
  PhonewrightError,
  ProtocolError,
  ServiceError,
  TimeoutError,
  UnreachableError,
  UsageError,
  type ErrorCode,
} from './core/errors.js';
export { describeFilter, matchesNotification, type Notification, type NotificationFilter, type NotificationQuery } from './core/notifications.js';
export { DEFAULT_API_ROOT, routesFor, type Routes } from './core/routes.js';
export { decodeSettings, parseSettingsExpectation, SETTINGS_ENUMS, settingsMismatches, type DisplaySettings, type Resolution, type SettingsExpectation } from './core/settings.js';
export { parseUploadTarget, type UploadTarget } from './core/upload-target.js';

export { loadConfigFile, CONFIG_FILE } from './config/load.js';
export { resolveConnection, resolveServers, ENV, type Connection, type ConnectionFlags } from './config/resolve.js';
export type { ConfigFile, DeviceSpec, PushSpec } from './config/schema.js';

export { compareImages, decodePng, encodePng, sampleRegion, type CompareOptions, type Image, type Mismatch, type Rect } from './image/index.js';

export { DEFAULT_SCENARIO, LAB_PRESET, loadScenario, startSimulator } from './simulator/index.js';
export type { Behaviour, FaultSpec, LabOptions, ScenarioInput, SimulatorHandle, SimulatorOptions } from './simulator/index.js';
