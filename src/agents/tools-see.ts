// The tools that look at the lab: its phones, a screen, a pixel, settings, notifications, what a locator finds,
// the text in a rectangle. Every read goes through the phone layer (its deadline, its bookkeeping), as a spec's.
import { checkPointOnScreen } from '../core/screen.js';
import { UsageError } from '../core/errors.js';
import { MAX_NOTIFICATION_COUNT } from '../core/notifications.js';
import { parseSince, stampedSince } from '../core/since.js';
import { encodePng, type Image } from '../image/index.js';
import { textsOnScreen } from '../inspector/locators.js';
import type { Phone } from '../phone/index.js';
import { wholeScreen } from '../phone/image.js';
import { COORD, LOCATOR, object, PHONE, text, TIMEOUT, whole, type ArgSchema } from './args.js';
import { locatorOf, type LocatorArg } from './locators.js';
import { fitImage, MAX_SIDE } from './scale.js';
import { json, png, type Content, type Tool, type ToolCall } from './tool.js';

const SCREEN_ARGS = {
  maxSide: whole(`The picture's longest side, in its pixels (default ${MAX_SIDE}); the answer says the scale`, 64, 8_192),
  texts: { type: 'boolean', description: 'Also list the texts on the screen with their boxes in phone pixels (the UI elements\', or read from the pixels)' },
};

/** A moment, as `notifications` takes it. */
const SINCE: ArgSchema = {
  type: ['string', 'integer'],
  minimum: 0,
  maxLength: 40,
  description:
    'Only messages stamped at this moment or after: a message\'s time from an earlier answer (ms since the epoch, by the phone\'s clock), an ISO time with its zone (2026-12-02T13:05:00Z), or a span back from now (30s, 10m, 2h, 1d). ' +
    'An ISO time and a span are read on this machine\'s clock, which a phone\'s may be off.',
};

/** The tools that read. */
export const SEE_TOOLS: Tool[] = [
  {
    name: 'phones',
    description: 'Lists the lab\'s phones: id, name, model, screen size, orientation, the Playwright project a run names it by, whether it is the main device, and who holds its lease (another run driving it). Start here.',
    input: object({ timeout: TIMEOUT }),
    async run(_args, { lab, deadline }) {
      const listed = await lab.list({ deadline }, true);
      const main = await lab.mainDevice({ deadline });
      const phones = await Promise.all(
        listed.map(async (p) => ({
          id: p.id,
          name: p.name,
          model: p.model ?? null,
          manufacturer: p.manufacturer ?? null,
          width: p.screen?.width ?? null,
          height: p.screen?.height ?? null,
          orientation: p.screen ? (p.screen.width > p.screen.height ? 'landscape' : 'portrait') : null,
          project: p.project,
          main: p.id === main,
          leasedBy: (await lab.leases.holder(p.id)) ?? null,
        })),
      );
      const ext = lab.client.extensions;
      const capabilities = Object.fromEntries((['deviceInfo', 'capture', 'aai'] as const).map((c) => [c, ext.known(c) ?? 'not asked yet']));
      return [json({ phones, server: lab.options.embedded ? 'the embedded simulator' : lab.client.url, capabilities, leases: lab.leases.on })];
    },
  },
  {
    name: 'screen',
    description: 'The phone\'s screen now, as a PNG image, scaled so that its long side is at most maxSide (1280); phone pixels = picture pixels / scale. With texts: true, every text on it with its box in phone pixels. Use it before acting, and to see what an act did.',
    input: object({ phone: PHONE, ...SCREEN_ARGS, timeout: TIMEOUT }),
    async run(args: { phone?: string; maxSide?: number; texts?: boolean }, call) {
      const { phone } = await call.lab.phone(args.phone, { deadline: call.deadline });
      return screenAnswer(phone, call, args);
    },
  },
  {
    name: 'pixel',
    description: 'The colour of one pixel, by the device-control interface\'s own pixel read (what expectPixel checks): {"rgb": "0x25425c", "r", "g", "b"}. x, y in phone pixels.',
    input: object({ phone: PHONE, x: COORD('x'), y: COORD('y'), timeout: TIMEOUT }, ['x', 'y']),
    async run(args: { phone?: string; x: number; y: number }, { lab, deadline }) {
      const { phone } = await lab.phone(args.phone, { deadline });
      onScreen(phone, args.x, args.y);
      const p = await phone.pixel(args.x, args.y, { deadline });
      return [json({ phone: phone.id, x: args.x, y: args.y, rgb: p.rgb, r: p.r, g: p.g, b: p.b })];
    },
  },
  {
    name: 'settings',
    description: 'The phone\'s display settings (resolution, orientation, mode, quality, acceleration, hardware decoding), as toHaveSettings checks them.',
    input: object({ phone: PHONE, timeout: TIMEOUT }),
    async run(args: { phone?: string }, { lab, deadline }) {
      const { phone } = await lab.phone(args.phone, { deadline });
      return [json({ phone: phone.id, settings: await phone.settings({ deadline }) })];
    },
  },
  {
    name: 'notifications',
    description:
      'The phone\'s notifications as the server lists them, filtered by app (package), text (a part of it) and since (a moment); at most count (default 20), oldest first. ' +
      'Each message\'s time is the phone\'s own stamp (ms since the epoch by its clock, which may be off this machine\'s): for what came after a message you saw, pass its time as since.',
    input: object({ phone: PHONE, app: text('An app\'s package, com.example.chat', 200), text: text('A part of the message\'s text'), since: SINCE, count: whole('How many, at most', 1, 500), timeout: TIMEOUT }),
    async run(args: { phone?: string; app?: string; text?: string; since?: string | number; count?: number }, { lab, deadline }) {
      // Read before the phone is asked: a bad moment is the argument's error, and nothing is sent.
      const since = args.since === undefined ? undefined : sinceArg(args.since);
      const { phone } = await lab.phone(args.phone, { deadline });
      // The count is cut after the moment's filter: the server's list is read whole either way (Phone.notifications).
      const listed = await phone.notifications({ ...(args.app ? { app: args.app } : {}), ...(args.text ? { text: args.text } : {}), count: MAX_NOTIFICATION_COUNT }, { deadline });
      const list = (since === undefined ? listed : listed.filter((n) => stampedSince(n, since))).slice(0, args.count ?? 20);
      return [json({ phone: phone.id, ...(since === undefined ? {} : { since: { ms: since, iso: new Date(since).toISOString() } }), notifications: list })];
    },
  },
  {
    name: 'find',
    description: 'Looks for a locator on the screen now (no waiting): its matches with their boxes in phone pixels, and the route that found them (the UI elements, the text read from the screen, an image search). Prefer locators to coordinates in specs.',
    input: object({ phone: PHONE, locator: LOCATOR, timeout: TIMEOUT }, ['locator']),
    async run(args: { phone?: string; locator: LocatorArg }, { lab, deadline }) {
      const { phone } = await lab.phone(args.phone, { deadline });
      const locator = locatorOf(phone, args.locator);
      const sight = await locator.look({ deadline });
      const matches = sight.matches.map((m) => ({ box: m.box, ...(m.text === undefined ? {} : { text: m.text }), ...(m.distance ? { lettersOff: m.distance } : {}) }));
      const nearest = matches.length ? [] : sight.nearest.map((m) => ({ box: m.box, ...(m.text === undefined ? {} : { text: m.text }) }));
      return [json({ phone: phone.id, locator: `device.${locator}`, via: sight.via, count: matches.length, matches, ...(nearest.length ? { nearest } : {}) })];
    },
  },
  {
    name: 'read_text',
    description: 'The text in a rectangle of the screen (default: the whole screen), read from its pixels, line by line.',
    input: object({ phone: PHONE, x: COORD('x'), y: COORD('y'), width: whole('Width in phone pixels', 1, 100_000), height: whole('Height in phone pixels', 1, 100_000), timeout: TIMEOUT }),
    async run(args: { phone?: string; x?: number; y?: number; width?: number; height?: number }, { lab, deadline }) {
      const { phone } = await lab.phone(args.phone, { deadline });
      const given = [args.x, args.y, args.width, args.height].filter((v) => v !== undefined).length;
      if (given !== 0 && given !== 4) throw new UsageError('invalid argument x, y, width, height of read_text: give all four, or none for the whole screen');
      const rect = given ? { x: args.x!, y: args.y!, width: args.width!, height: args.height! } : undefined;
      return [json({ phone: phone.id, text: await phone.readText({ deadline, ...(rect ? { rect } : {}) }) })];
    },
  },
];

/**
 * The screen of a phone as a tool answers it: the picture, and what it is (size, scale, texts when asked).
 * @param args the tool's `maxSide` and `texts`
 */
export async function screenAnswer(phone: Phone, { lab, deadline }: ToolCall, args: { maxSide?: number; texts?: boolean }): Promise<Content[]> {
  const shot = await capture(phone, deadline);
  const { image, scale } = fitImage(shot, args.maxSide ?? MAX_SIDE);
  const info: Record<string, unknown> = { phone: phone.id, name: phone.name, width: shot.width, height: shot.height, image: { width: image.width, height: image.height }, scale };
  if (args.texts) {
    const { facts } = await lab.phone(phone.id, { deadline });
    const found = await textsOnScreen(lab.client, facts, { deadline });
    info.texts = { via: found.via, lines: found.lines };
  }
  return [png(encodePng(image, {}, true)), json(info)];
}

/** The phone's whole screen, one capture, as one read of the phone. */
async function capture(phone: Phone, deadline: ToolCall['deadline']): Promise<Image> {
  const area = await wholeScreen(phone);
  return phone.read(`screen of ${phone.name}`, { deadline }, async (o) => (await import('../phone/screen.js')).captureImage(phone.client, phone.id, area, o));
}

/** The moment a `since` argument names, or a refusal naming the argument. */
function sinceArg(value: string | number): number {
  try {
    return parseSince(value, Date.now());
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`invalid argument since of notifications: ${error.message}`);
    throw error;
  }
}

/** A point on the phone's known screen, or a refusal naming x or y. */
export function onScreen(phone: Phone, x: number, y: number): void {
  try {
    checkPointOnScreen(phone, x, y);
  } catch (error) {
    const which = phone.screen && x >= phone.screen.width ? 'x' : 'y';
    throw new UsageError(`invalid argument ${which}: ${(error as Error).message}`);
  }
}
