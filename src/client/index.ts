export { DeviceClient, type ClientOptions, type CallOptions, type Pixel, type UploadOptions } from './client.js';
export type { CallEvent, TransportOptions } from './transport.js';
export { NotificationWatcher, type NotificationOrder, type WatcherOptions } from './watch.js';
