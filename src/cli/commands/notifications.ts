import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import type { DeviceId } from '../../core/device-id.js';
import { UsageError } from '../../core/errors.js';
import { describeFilter, matchesNotification, MAX_NOTIFICATION_COUNT, type Notification } from '../../core/notifications.js';
import { deviceArg, list, wholeNumber } from '../args.js';
import { withClient, type Host } from '../context.js';
import { resolveDevice } from '../phones.js';
import { followNotifications } from '../follow.js';
import type { GlobalOptions } from '../options.js';
import { TIMEOUT_OPTION } from '../timeout.js';
import type { Output } from '../output.js';

interface NotificationsArgs extends GlobalOptions {
  timeout?: string;
  position?: string;
  count?: string;
  device?: string[];
  app?: string[];
  match?: string[];
  follow: boolean;
}

const DEFAULT_COUNT = 100;
/** The interface types `position` as an integer; the largest 32-bit one is far past any server's list. */
const MAX_POSITION = 2 ** 31 - 1;

/** `phonewright notifications`: read the notification-bar messages the server holds, or tail new ones. */
export function notificationsCommand(output: Output, host: Host): CommandModule<GlobalOptions, NotificationsArgs> {
  return defineCommand({
    command: 'notifications',
    describe: 'Read notification-bar messages, or follow new ones as they arrive',
    options: {
      position: { type: 'string', describe: 'Start position in the server\'s list, from 1 [default: 1]' },
      count: { type: 'string', describe: `How many messages to read, 1 to ${MAX_NOTIFICATION_COUNT} [default: ${DEFAULT_COUNT}]` },
      device: { type: 'string', array: true, describe: 'Only messages of this phone: an id, a name or "main" (repeatable)' },
      app: { type: 'string', array: true, describe: 'Only messages of this package name (repeatable)' },
      match: { type: 'string', array: true, describe: 'Only messages whose text contains this (repeatable; any one matches)' },
      follow: { alias: 'f', type: 'boolean', default: false, describe: 'Print new messages as they arrive, until Ctrl-C' },
      ...TIMEOUT_OPTION,
    },
    examples: [
      ['$0 notifications --count 20 --json', 'an array of {"app","text","time","id"}'],
      ['$0 notifications --app com.example.chat --match code', 'messages of one app whose text contains "code"'],
      ['$0 notifications --follow --device main --json', 'one JSON object per line (NDJSON) for each new message'],
    ],
    epilogue: 'Filters apply on the server and again here, so every server variant gives the same answer: a message is kept when its phone is one of --device, its app one of --app, and its text contains one of --match (case-sensitive). ' +
      '--follow ignores the messages already held and prints each new one as it arrives, polling every 250 ms, until Ctrl-C (exit 0); with --json it prints one JSON object per line (NDJSON) instead of one array. ' +
      'time is in milliseconds since the epoch. Phones show messages only when the notification listening service is on in the phone client\'s message settings.',
    handler: (args) => {
      const query = readArgs(args);
      return withClient(args, output, host, async (ctx) => {
        const devices: DeviceId[] = [];
        for (const d of query.devices) devices.push(await resolveDevice(d, ctx));
        const accept = (n: Notification) =>
          matchesNotification(n, { ...(devices.length ? { device: devices } : {}), ...(query.apps.length ? { app: query.apps } : {}) }) &&
          (query.matches.length === 0 || query.matches.some((m) => n.text.includes(m)));
        if (args.follow) {
          const shown = describeFilter({ ...(devices.length ? { device: devices } : {}), ...(query.apps.length ? { app: query.apps } : {}) });
          await followNotifications(ctx.client, {
            signal: ctx.signal,
            accept,
            onArmed: () => output.note(`following new messages on ${ctx.client.url} (${shown}${query.matches.length ? ` text contains ${query.matches.map((m) => JSON.stringify(m)).join(' or ')}` : ''}); Ctrl-C to stop`),
            onMessage: (n) => (args.json ? output.json(wire(n)) : output.line(describe(n))),
          });
          return;
        }
        const all = await ctx.client.notifications(
          { position: query.position, count: query.count, device: devices, app: query.apps, match: query.matches },
          { signal: ctx.signal },
        );
        const kept = all.filter(accept);
        if (args.json) output.json(kept.map(wire));
        else if (kept.length === 0) output.line(`no messages (position ${query.position}, count ${query.count})`);
        else kept.forEach((n) => output.line(describe(n)));
      });
    },
  });
}

function readArgs(args: NotificationsArgs) {
  if (args.follow && (args.position !== undefined || args.count !== undefined)) {
    throw new UsageError('--position and --count do not apply to --follow, which prints only messages that arrive after it starts', {
      hint: 'drop them, or drop --follow to read the list',
    });
  }
  if (args.follow && args.timeout !== undefined) {
    throw new UsageError('--timeout does not apply to --follow, which reads until Ctrl-C', { hint: 'drop --timeout, or drop --follow to read the list once' });
  }
  const apps = list(args.app);
  const matches = list(args.match);
  if (apps.some((a) => a.trim() === '')) throw new UsageError('--app needs a package name, e.g. --app com.example.chat');
  if (matches.some((m) => m === '')) throw new UsageError('--match needs a text, e.g. --match code');
  return {
    position: wholeNumber('--position', args.position ?? '1', 1, MAX_POSITION, 'the first message is at position 1'),
    count: wholeNumber('--count', args.count ?? String(DEFAULT_COUNT), 1, MAX_NOTIFICATION_COUNT),
    devices: list(args.device).map((d) => deviceArg(d, '--device')),
    apps,
    matches,
  };
}

/** The four fields of the interface, in its order. */
function wire(n: Notification): Notification {
  return { app: n.app, text: n.text, time: n.time, id: n.id };
}

function describe(n: Notification): string {
  const date = new Date(n.time);
  const when = Number.isNaN(date.getTime()) ? String(n.time) : date.toISOString();
  return `${when}  ${n.id}  ${n.app}  ${n.text.replace(/\s*\n\s*/g, ' ↵ ')}`;
}
