// The public library surface, on purpose: what a user writes against beside the fixtures (`phonewright/fixtures`),
// listed in docs/api.md. Named exports only; deep imports are closed by package.json "exports". The client's
// notification engine, the routes, the image code and the config's internals are not part of it.

// A client of a device-control server, for scripts beside the specs.
export { DeviceClient } from './client/index.js';
export type { AppState, CallOptions, CallEvent, ClientOptions, DeviceInfo, Pixel, TransportOptions, UploadOptions } from './client/index.js';

// Errors, by their stable codes, and the CLI's exit code for each.
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

// What specs and their options are written in: colours, distances, places, phones, settings, messages, targets.
export { colorsMatch, formatColor, parseColor, type ColorInput, type Rgb } from './core/color.js';
export { deltaE } from './core/delta-e.js';
export { isDeviceId, parseDeviceId, type DeviceId } from './core/device-id.js';
export type { Coordinate, RectInput } from './core/fraction.js';
export type { Notification, NotificationFilter } from './core/notifications.js';
export type { DisplaySettings, Resolution, SettingsExpectation } from './core/settings.js';
export type { UploadTarget } from './core/upload-target.js';
export { DEFAULT_PASSWORD, DEFAULT_PORT, DEFAULT_USER, EXAMPLE_MAIN_DEVICE } from './core/defaults.js';

// The configuration, as the CLI and the device matrix read it.
export { CONFIG_FILE, loadConfigFile } from './config/load.js';
export { ENV, resolveConnection, resolveServers, type Connection, type ConnectionFlags } from './config/resolve.js';
export type { ConfigFile, DeviceSpec, PushSpec, UnreachablePhones } from './config/schema.js';
export type { CompareOptions } from './image/index.js';

// The embedded simulator, for users who start it themselves.
export { DEFAULT_SCENARIO, EXAMPLE_APP, LAB_PRESET, loadScenario, startSimulator } from './simulator/index.js';
export type { Behaviour, ElementInfo, ElementInput, FaultSpec, LabOptions, ScenarioInput, ScreenInfo, SimulatorHandle, SimulatorOptions, TextInfo, TextInput } from './simulator/index.js';
