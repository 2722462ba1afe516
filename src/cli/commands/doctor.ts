import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { AuthError, CheckFailedError, isPhonewrightError, TimeoutError, UnreachableError, type PhonewrightError } from '../../core/errors.js';
import { describeSetting, formatResolution } from '../../core/settings.js';
import { deviceArg } from '../args.js';
import { withClient, type CommandContext, type Host } from '../context.js';
import { resolveDevice, type DeviceRef } from '../phones.js';
import type { GlobalOptions } from '../options.js';
import { TIMEOUT_OPTION, withoutHint, withTimeoutAdvice } from '../timeout.js';
import type { Output } from '../output.js';
import { checkReachable } from '../reachable.js';

interface DoctorArgs extends GlobalOptions {
  timeout?: string;
  device?: string;
}

/** One line of the checklist, as `--json` prints it. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}

/** How long the reachability check waits for a TCP connection (less when --timeout is less). */
const CONNECT_TIMEOUT_MS = 5_000;

/** `phonewright doctor`: checks the setup step by step and says where it breaks. */
export function doctorCommand(output: Output, host: Host): CommandModule<GlobalOptions, DoctorArgs> {
  return defineCommand({
    command: 'doctor',
    describe: 'Check the setup: reachable, login, main device, settings, pixel, notifications',
    options: {
      device: { type: 'string', describe: 'Check settings and pixel on this phone instead of the main device' },
      ...TIMEOUT_OPTION,
    },
    examples: [
      ['$0 doctor --url http://10.0.0.5:8090', 'a checklist, one ✓ or ✗ line per check with its time'],
      ['$0 doctor --json', 'prints {"checks":[{"name":"reachable","ok":true,"detail":"…","ms":2},…],"ok":true}'],
    ],
    epilogue: 'Checks that depend on a failed one are skipped and marked so: nothing runs after "reachable" or "login" fails, and settings and pixel need a device. ' +
      'Exit 0 when every check passed; otherwise the code of the first failure: 4 unreachable, 3 login refused, 1 any other.',
    handler: (args) => {
      const device = args.device === undefined ? 'main' : deviceArg(args.device, '--device');
      return withClient(args, output, host, async (ctx) => {
        const { checks, skipped, firstError } = await runChecks(ctx, device);
        const ok = checks.every((c) => c.ok);
        if (args.json) output.json({ checks, ok });
        else {
          const width = Math.max(...checks.map((c) => c.name.length));
          for (const c of checks) output.line(`${c.ok ? '✓' : '✗'} ${c.name.padEnd(width)}  ${c.detail}${skipped.has(c) ? '' : `  (${c.ms} ms)`}`);
          if (ok) output.line(`all ${checks.length} checks passed`);
        }
        if (!ok) throw summarize(checks, skipped.size, firstError, ctx.client.user);
      });
    },
  });
}

/** Runs the six checks in order; a failure that leaves the rest meaningless skips them. */
async function runChecks(ctx: CommandContext, device: DeviceRef) {
  const { client, signal } = ctx;
  const checks: CheckResult[] = [];
  const skipped = new Set<CheckResult>();
  let firstError: PhonewrightError | undefined;
  const run = async <T>(name: string, work: () => Promise<T>, detail: (value: T) => string): Promise<T | undefined> => {
    const t0 = performance.now();
    try {
      const value = await work();
      checks.push({ name, ok: true, detail: detail(value), ms: Math.round(performance.now() - t0) });
      return value;
    } catch (thrown) {
      // A check that ran out of time says how to give it longer, as any command does.
      const error = withTimeoutAdvice(thrown, ctx.timeoutMs);
      if (signal.aborted || !isPhonewrightError(error)) throw error;
      firstError ??= error;
      checks.push({ name, ok: false, detail: ctx.output.clean(error.message), ms: Math.round(performance.now() - t0) });
      return undefined;
    }
  };
  const skip = (names: string[], why: string) =>
    names.forEach((name) => {
      const check = { name, ok: false, detail: `skipped: ${why}`, ms: 0 };
      checks.push(check);
      skipped.add(check);
    });

  if ((await run('reachable', () => checkReachable(client.url, Math.min(CONNECT_TIMEOUT_MS, ctx.timeoutMs), signal), (where) => `${where} accepts connections`)) === undefined) {
    skip(['login', 'main device', 'settings', 'pixel', 'notifications'], 'the server is unreachable');
    return { checks, skipped, firstError };
  }
  if ((await run('login', () => client.login(), () => `user ${client.user} logged in`)) === undefined) {
    skip(['main device', 'settings', 'pixel', 'notifications'], 'not logged in');
    return { checks, skipped, firstError };
  }
  const main = await run('main device', () => client.mainDevice({ signal }), (id) => id);
  // A phone given by name is looked up now that the server answers; an unknown name is bad input (exit 2).
  const target = device === 'main' ? main : await resolveDevice(device, ctx);
  if (target === undefined) skip(['settings', 'pixel'], 'no device to check (the main device is unknown; give --device)');
  else {
    await run('settings', () => client.settings(target, { signal }), (s) =>
      `${target} ${formatResolution(s.display_resolution)}, ${describeSetting('display_orientation', s.display_orientation)}, mode ${describeSetting('display_mode', s.display_mode)}`);
    await run('pixel', () => client.pixel(target, 0, 0, { signal }), (p) => `${target} (0, 0) = ${p.rgb}`);
  }
  await run('notifications', () => client.notifications({ position: 1, count: 1 }, { signal }), (list) =>
    list.length ? `the list answers (position 1: ${list[0]!.app} on ${list[0]!.id})` : 'the list answers (no messages held)');
  return { checks, skipped, firstError };
}

/** The error that ends `doctor`: the exit code of the first failure (4 unreachable, 3 login, else 1). */
function summarize(checks: CheckResult[], skipped: number, first: PhonewrightError | undefined, user: string): PhonewrightError {
  const failed = checks.filter((c) => !c.ok).length - skipped;
  const name = checks.find((c) => !c.ok)?.name;
  const message = `doctor: ${failed} of ${checks.length} checks failed${skipped ? `, ${skipped} skipped` : ''}; the first, ${name}, says: ${first ? withoutHint(first) : 'failed'}`;
  // The first failure's way out is the run's: kept as the hint, so that it is said once, last.
  const details = { cause: first, hint: first?.hint };
  if (isPhonewrightError(first, 'PW_UNREACHABLE')) return new UnreachableError(message, details);
  if (isPhonewrightError(first, 'PW_TIMEOUT')) return new TimeoutError(message, details);
  if (isPhonewrightError(first, 'PW_AUTH')) return new AuthError(user, message, details);
  return new CheckFailedError(message, details);
}
