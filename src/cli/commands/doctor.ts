import { setMaxListeners } from 'node:events';
import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { AuthError, CheckFailedError, isPhonewrightError, TimeoutError, UnreachableError, type PhonewrightError } from '../../core/errors.js';
import { describeSetting, formatResolution } from '../../core/settings.js';
import { deviceArg } from '../args.js';
import { withClient, type CommandContext, type Host } from '../context.js';
import { resolveDevice, type DeviceRef } from '../phones.js';
import type { GlobalOptions } from '../options.js';
import { TIMEOUT_OPTION, withoutHint, withTimeoutAdvice } from '../timeout.js';
import { Deadline, type CallOptions } from '../../client/index.js';
import { probeCapabilities, type CapabilityResult, type DoctorLine } from '../doctor-capabilities.js';
import type { Output } from '../output.js';
import { checkReachable } from '../reachable.js';

interface DoctorArgs extends GlobalOptions {
  timeout?: string;
  device?: string;
}

/** One line of the checklist. */
export interface CheckResult extends DoctorLine {
  ok: boolean;
}

/** How long the reachability check waits for a TCP connection (less when --timeout is less). */
const CONNECT_TIMEOUT_MS = 5_000;

/** How long each check may take at most (less when --timeout is less): a frozen phone ends doctor in about this long. */
const CHECK_MS = 10_000;

/** `phonewright doctor`: checks the setup step by step and says where it breaks, then what the server offers. */
export function doctorCommand(output: Output, host: Host): CommandModule<GlobalOptions, DoctorArgs> {
  return defineCommand({
    command: 'doctor',
    describe: 'Check the setup (reachable, login, main device, settings, pixel, notifications) and list what the server offers beyond the interface',
    options: {
      device: { type: 'string', describe: 'Check settings, pixel and the capabilities on this phone instead of the main device' },
      ...TIMEOUT_OPTION,
    },
    examples: [
      ['$0 doctor --url http://10.0.0.5:8090', 'a checklist, one ✓ or ✗ line per check with its time, then each capability of the server'],
      ['$0 doctor --json', 'prints {"checks":[{"name":"reachable","ok":true,"detail":"…","ms":2},…],"capabilities":[{"name":"screen capture","offered":true,"detail":"…","ms":9},…],"ok":true}'],
    ],
    epilogue: 'Checks that depend on a failed one are skipped and marked so: nothing runs after "reachable" or "login" fails, and settings and pixel need a device. ' +
      `Once logged in, the rest run at once, each within ${CHECK_MS / 1000} s (or --timeout, if less), so a frozen phone ends doctor in that time, naming what did not answer. ` +
      'Capabilities are the routes of the vendor\'s server beyond the device-control interface: each is offered or not, with what phonewright does without it; doctor only reads, it never acts on a phone. ' +
      'Exit 0 when every check passed and every capability was told; otherwise the code of the first failure: 4 unreachable, 3 login refused, 1 any other.',
    handler: (args) => {
      const device = args.device === undefined ? 'main' : deviceArg(args.device, '--device');
      return withClient(args, output, host, async (ctx) => {
        const { checks, capabilities, skipped, firstError } = await runChecks(ctx, device);
        const ok = checks.every((c) => c.ok) && capabilities.every((c) => c.offered !== null);
        if (args.json) output.json({ checks, capabilities, ok });
        else print(output, checks, capabilities, skipped, ok);
        if (!ok) throw summarize(checks, capabilities, skipped.size, firstError, ctx.client.user);
      });
    },
  });
}

/** The checks in order, then the capabilities under their heading. */
function print(output: Output, checks: CheckResult[], capabilities: CapabilityResult[], skipped: Set<CheckResult>, ok: boolean): void {
  const width = Math.max(...checks.map((c) => c.name.length));
  for (const c of checks) output.line(`${c.ok ? '✓' : '✗'} ${c.name.padEnd(width)}  ${c.detail}${skipped.has(c) ? '' : `  (${c.ms} ms)`}`);
  if (capabilities.length) {
    // ✓ offered, – not offered (phonewright does without), ✗ could not be told.
    const named = Math.max(...capabilities.map((c) => c.name.length));
    output.line('routes beyond the device-control interface:');
    for (const c of capabilities) output.line(`  ${c.offered ? '✓' : c.offered === false ? '–' : '✗'} ${c.name.padEnd(named)}  ${c.detail}  (${c.ms} ms)`);
  }
  if (ok) {
    const offered = capabilities.filter((c) => c.offered).length;
    output.line(`all ${checks.length} checks passed${capabilities.length ? `; the server offers ${offered} of the ${capabilities.length} routes beyond the interface checked` : ''}`);
  }
}

/**
 * Runs the checks: reachable, login and the main device in turn (each needs the one before), then settings,
 * pixel, notifications and the capabilities at once, each within its own deadline.
 */
async function runChecks(ctx: CommandContext, device: DeviceRef) {
  const { client, signal } = ctx;
  const budget = Math.min(CHECK_MS, ctx.timeoutMs);
  // Every check's deadline, and a region's burst of reads, listens to the one stop signal at once.
  setMaxListeners(100, signal);
  const skipped = new Set<CheckResult>();
  let firstError: PhonewrightError | undefined;
  const errors = new Map<CheckResult, PhonewrightError>();
  const run = async <T>(name: string, work: (call: CallOptions) => Promise<T>, detail: (value: T) => string): Promise<{ check: CheckResult; value?: T }> => {
    const t0 = performance.now();
    const deadline = Deadline.in(budget, signal);
    try {
      const value = await work({ deadline });
      return { check: { name, ok: true, detail: detail(value), ms: Math.round(performance.now() - t0) }, value };
    } catch (thrown) {
      // A check that ran out of time says how to give it longer, as any command does.
      const error = withTimeoutAdvice(thrown, budget);
      if (signal.aborted || !isPhonewrightError(error)) throw error;
      const check = { name, ok: false, detail: ctx.output.clean(error.message), ms: Math.round(performance.now() - t0) };
      errors.set(check, error);
      return { check };
    } finally {
      deadline.dispose();
    }
  };
  const skip = (names: string[], why: string) =>
    names.map((name) => {
      const check = { name, ok: false, detail: `skipped: ${why}`, ms: 0 };
      skipped.add(check);
      return check;
    });
  const done = (checks: CheckResult[], capabilities: CapabilityResult[] = []) => {
    firstError = checks.map((c) => errors.get(c)).find((e) => e !== undefined);
    return { checks, capabilities, skipped, firstError };
  };

  const reachable = await run('reachable', () => checkReachable(client.url, Math.min(CONNECT_TIMEOUT_MS, ctx.timeoutMs), signal, ctx.connection.sources.url), (where) => `${where} accepts connections`);
  if (!reachable.check.ok) return done([reachable.check, ...skip(['login', 'main device', 'settings', 'pixel', 'notifications'], 'the server is unreachable')]);
  const login = await run('login', () => client.login(), () => `user ${client.user} logged in`);
  if (!login.check.ok) return done([reachable.check, login.check, ...skip(['main device', 'settings', 'pixel', 'notifications'], 'not logged in')]);
  const main = await run('main device', (call) => client.mainDevice(call), (id) => id);
  // A phone given by name is looked up now that the server answers; an unknown name is bad input (exit 2).
  const target = device === 'main' ? main.value : await resolveDevice(device, ctx);
  const onPhone = target === undefined
    ? Promise.resolve(skip(['settings', 'pixel'], 'no device to check (the main device is unknown; give --device)'))
    : Promise.all([
      run('settings', (call) => client.settings(target, call), (s) =>
        `${target} ${formatResolution(s.display_resolution)}, ${describeSetting('display_orientation', s.display_orientation)}, mode ${describeSetting('display_mode', s.display_mode)}`),
      run('pixel', (call) => client.pixel(target, 0, 0, call), (p) => `${target} (0, 0) = ${p.rgb}`),
    ]).then((results) => results.map((r) => r.check));
  const [phoneChecks, notifications, capabilities] = await Promise.all([
    onPhone,
    run('notifications', (call) => client.notifications({ position: 1, count: 1 }, call), (list) =>
      list.length ? `the list answers (position 1: ${list[0]!.app} on ${list[0]!.id})` : 'the list answers (no messages held)'),
    probeCapabilities(client, target, budget, signal),
  ]);
  return done([reachable.check, login.check, main.check, ...phoneChecks, notifications.check], capabilities);
}

/**
 * The error that ends `doctor`: the exit code of the first failure (4 unreachable, 3 login, else 1); a capability
 * that could not be told (no answer in time) fails it too.
 */
function summarize(checks: CheckResult[], capabilities: CapabilityResult[], skipped: number, first: PhonewrightError | undefined, user: string): PhonewrightError {
  const failed = checks.filter((c) => !c.ok).length - skipped;
  const untold = capabilities.filter((c) => c.offered === null);
  const name = checks.find((c) => !c.ok && !c.detail.startsWith('skipped'))?.name;
  const told = untold.length ? `${failed ? '; ' : ''}${untold.length} route${untold.length === 1 ? '' : 's'} beyond the interface could not be told (${untold.map((c) => c.name).join(', ')})` : '';
  const counted = failed || !untold.length ? `${failed} of ${checks.length} checks failed${skipped ? `, ${skipped} skipped` : ''}` : '';
  const firstSaid = name ? `; the first, ${name}, says: ${first ? withoutHint(first) : 'failed'}` : `: ${untold[0]?.detail ?? 'failed'}`;
  const message = `doctor: ${counted}${told}${firstSaid}`;
  // The first failure's way out is the run's: kept as the hint, so that it is said once, last.
  const details = { cause: first, hint: first?.hint };
  if (isPhonewrightError(first, 'PW_UNREACHABLE')) return new UnreachableError(message, details);
  if (isPhonewrightError(first, 'PW_TIMEOUT')) return new TimeoutError(message, details);
  if (isPhonewrightError(first, 'PW_AUTH')) return new AuthError(user, message, details);
  return new CheckFailedError(message, details);
}
