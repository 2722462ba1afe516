// The simulator's public surface; src/index.ts re-exports it.
export { startSimulator, type SimulatorHandle } from './server.js';
export { ACTS_OFFERED, DEFAULT_HOST, DEFAULT_MAX_UPLOAD_BYTES, MISSING_ROUTE_FORMS, type ActsOffered, type MissingRouteForm, type SimulatorOptions } from './options.js';
export { BEHAVIOUR_SPECS, DEFAULT_BEHAVIOUR, type Behaviour, type BehaviourKey, type BehaviourSpec } from './behaviour.js';
export type { FaultSpec } from './faults.js';
export { LAB_PRESET, MAX_CLOCK_OFFSET_MS, type LabOptions, type Latency } from './lab.js';
export { loadScenario, validateScenario } from './scenario.js';
export type { DrawnScreenInput, ElementInput, FrameInput, FrameSpec, NotificationRule, NotificationRuleInput, PhoneInput, PhoneSpec, RectInput, Scenario, ScenarioInput, ScreenInput, SettingsInput, TextInput } from './scenario-types.js';
export type { ScreenInfo, TextInfo } from './screen-info.js';
export type { ElementInfo } from './elements.js';
export { EXAMPLE_APP } from './scenarios/sign-in.js';
export { DEFAULT_SCENARIO } from './scenarios/default.js';
export type { Act, ActRoute, PathPoint } from './act-log.js';
export type { PhoneInfo } from './phone.js';
export type { NotificationPost, RectFill, SimulatorStats } from './state.js';
export { ADMIN_KEY_HEADER, ADMIN_PREFIX } from './admin.js';
export { ADMIN_TIMEOUT_MS, SimulatorAdmin, type SimulatorAdminOptions } from './admin-client.js';
