import type { Deadline } from '../client/index.js';
import path from 'node:path';
import { DEFAULT_LANGUAGES, type Language } from '../core/languages.js';
import type { NotificationFilter } from '../core/notifications.js';
import type { ScreenSize } from '../core/screen.js';
import type { CallSite, PhoneHooks } from './hooks.js';

/** Options of one read or act of a phone. */
export interface ReadOptions {
  /** When the read must end (an assertion's deadline). Default: the client's total timeout from now. */
  deadline?: Deadline | undefined;
  /** Stops the read sooner (Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** Where the spec called, for the report's step: the hooks find it when not given. @internal */
  site?: CallSite | undefined;
}

/** `device.notifications(query)`: `position` (1-based) and `count` (default 100) of the phone's matching messages. */
export type NotificationQuery = { position?: number; count?: number } & NotificationFilter;

/** How a phone is made. */
export interface PhoneOptions {
  /** The phone's name in messages and titles. @default its id */
  name?: string;
  /** The screen's size, where known: points off it are refused before any read, percentages resolve on it. */
  screen?: ScreenSize | undefined;
  /** What the Playwright layer hands the phone. @default NO_HOOKS */
  hooks?: PhoneHooks;
  /** ms: the default timeout of the waiters and of `locate`, read on first use. @default 5000, Playwright's */
  waitTimeout?: () => number;
  /** The file of an image a spec names. @default resolved against the working folder */
  imageFile?: (name: string) => string;
  /**
   * The languages of the text on the screen, asked at each read of it (a test's option holds for that test): only
   * their letters are read. @default DEFAULT_LANGUAGES, every language the OCR model reads
   */
  languages?: () => readonly Language[];
}

/** Playwright's own default expect timeout, for a phone outside Playwright. */
export const DEFAULT_WAIT_MS = 5_000;

/** A phone's options that have defaults, each with its own where none was given. */
export type PhoneSettings = Required<Pick<PhoneOptions, 'waitTimeout' | 'imageFile' | 'languages'>>;

/** The options with their defaults: Playwright's timeout, images against the working folder, every language. */
export function settingsOf(options: PhoneOptions): PhoneSettings {
  return {
    waitTimeout: options.waitTimeout ?? (() => DEFAULT_WAIT_MS),
    imageFile: options.imageFile ?? ((name) => path.resolve(name)),
    languages: options.languages ?? (() => DEFAULT_LANGUAGES),
  };
}
