// The fake device-control server's vocabulary (fake-server.ts): what it answers, what it records, and the
// vendor's documented bodies it answers with by default.
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The interface's operations, the vendor's routes beyond it (`devices`, `deviceInfo`, `capture`, `script`,
 * `app`: 404 unless handled), or neither (`unknown`: any other path, a capture's image among them).
 */
export type Op = 'login' | 'mainDevice' | 'pixel' | 'settings' | 'notifications' | 'upload' | 'devices' | 'deviceInfo' | 'capture' | 'inputs' | 'texts' | 'script' | 'app' | 'apps' | 'aai' | 'unknown';

/** How the server says no: `{"status": null, "value": "…"}`, `{"status": false}`, or HTTP 401. */
export type Refusal = 'null' | 'false' | 401;

/**
 * An answer. An object is an HTTP answer (default 200 with `json` serialized, or `body` as given); strings
 * drop the connection: `'reset'` with a TCP RST (the client sees ECONNRESET), `'close'` with a FIN and no
 * answer, `'hang'` never answers.
 */
export type FakeReply = AnswerReply | 'reset' | 'close' | 'hang';

export interface AnswerReply {
  /** @default 200 */
  status?: number;
  /** Serialized with JSON.stringify. */
  json?: unknown;
  /** Sent as it is (takes precedence over `json`). */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Wait this many ms before answering (a slow server). */
  delay?: number;
  /** Send the headers (with the full Content-Length) and only this many bytes of the body, then `then`. */
  partial?: { bytes: number; then: 'hang' | 'reset' };
}

/** One request as the server saw it. */
export interface FakeRequest {
  op: Op;
  method: string;
  /** The path without the query, as sent (not decoded). */
  path: string;
  /** The query string as sent, without `?`. */
  rawQuery: string;
  /** The decoded query. */
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The `token` query parameter, when there is one (a form body's is read by {@link formOf}). */
  token: string | undefined;
  /** The device id of the path (pixel, settings), decoded. */
  device: string | undefined;
  /** The whole body, once it has arrived. */
  body(): Promise<Buffer>;
  /** Resolves once at least `bytes` bytes of the body have arrived (or the body ended). */
  received(bytes: number): Promise<void>;
}

/** Answers one operation; `next()` is the server's default answer (token check included). */
export type Handler = (req: FakeRequest, next: () => Promise<FakeReply>) => FakeReply | Promise<FakeReply>;

/** A notification as the interface carries it. */
export interface FakeNotification {
  app: string;
  text: string;
  time: number;
  id: string;
}

/** One file the server received. */
export interface FakeUpload {
  /** The multipart part name: the storage target. */
  part: string;
  filename: string;
  size: number;
  sha256: string;
}

export interface FakeServerOptions {
  /** @default '/TotalControl/v1' */
  apiRoot?: string;
  /** @default 'sigma' */
  user?: string;
  /** @default '3D391497' */
  password?: string;
  /** Wrong credentials at login. @default 'false' */
  rejectLogin?: Refusal;
  /** A missing, wrong or expired token. @default 'null' (`"invalid token"`) */
  rejectToken?: Refusal;
  /** A token stops working after this many calls (0: every token is refused). @default Infinity */
  tokenUses?: number;
  /** A token stops working this many ms after login, on the fake clock ({@link FakeServer.advance}). @default Infinity */
  tokenTtl?: number;
  /** Phones the server knows; each has a 1080×1920 screen. @default [VENDOR_MAIN_DEVICE, 'device@1174886816'] */
  devices?: string[];
  /** Notification list order. @default 'oldest-first' */
  order?: 'oldest-first' | 'newest-first';
  /** What `position` indexes. @default 'filtered' */
  positionIndexes?: 'filtered' | 'unfiltered';
  /** `position` past the end of the list. @default 'empty' (`{"status": true, "value": []}`) */
  pastEnd?: 'empty' | 'false';
  /** Messages held per phone; older ones fall off. @default 1000 */
  held?: number;
  /** @default 0 (any free port) */
  port?: number;
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order of arrival. */
  readonly requests: FakeRequest[];
  /** Every token issued, in order. */
  readonly tokens: string[];
  /** Every file received by the default upload answer. */
  readonly uploads: FakeUpload[];
  /** Requests of one operation so far (all requests without `op`). */
  count(op?: Op): number;
  /** Resolves with the `n`-th request of `op` once it has arrived. */
  waitFor(op: Op, n?: number): Promise<FakeRequest>;
  /** Replaces the answer of `op` (a fixed reply, or a handler); `undefined` restores the default. */
  handle(op: Op, handler: Handler | FakeReply | undefined): void;
  /** Adds notifications, in order of arrival (the list keeps each phone's newest `held`). */
  post(...messages: FakeNotification[]): void;
  /** Makes every token issued so far invalid (a restart, an expiry). */
  expireTokens(): void;
  /** Moves the fake clock that token lifetimes run on. */
  advance(ms: number): void;
  /** Drops every open connection and stops listening. */
  close(): Promise<void>;
}

/** The main device of the vendor's examples. */
export const VENDOR_MAIN_DEVICE = 'device@1116106541';

/** The vendor's documented success bodies, byte for byte (field notes). */
export const VENDOR = {
  login: (token: string) => `{"status": true, "value": {"token": "${token}"}}`,
  mainDevice: `{"id": "${VENDOR_MAIN_DEVICE}"}`,
  pixel: '{"status": true, "value": {"r": 37, "g": 66, "b": 92, "rgb": "0x25425c"}}',
  settings:
    '{"status": true, "value": {"display_mode": 1, "display_quality": 2, "display_accl": 2, "display_hw_decode": "1", "display_resolution_mode": 2, "display_orientation": 1, "display_resolution": "1080*1920"}}',
  notifications:
    '{"status": true, "value": [{"app": "com.sigma_rt.totalcontrol", "text": "点击进入程序", "time": 1539833828000, "id": "device@1174886816"}]}',
  /** The curl example's answer: a RELATIVE url. */
  uploadRelative: '{"status": true, "file_url": "images/1527558556026.bmp"}',
} as const;
