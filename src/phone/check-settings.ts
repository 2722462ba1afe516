import { describeSetting, parseSettingsExpectation, settingsMismatches, type DisplaySettings, type SettingsExpectation } from '../core/settings.js';
import type { Phone } from './phone.js';
import { untilChecked } from './until.js';
import { polled, readFacts, unanswered, type CheckContext, type Part, type Verdict } from './verdict.js';

/**
 * `toHaveSettings`: polls the settings until every field given matches (or, with `.not`, until one does not).
 * Enum names or numbers; the resolution as `'W*H'` or `{ w, h }`.
 */
export async function checkSettings(phone: Phone, expected: SettingsExpectation, ctx: CheckContext): Promise<Verdict> {
  const check = { name: 'toHaveSettings', args: 'expected' };
  const { isNot, timeout } = ctx;
  const want = parseSettingsExpectation(expected);
  const poll = await untilChecked((deadline) => phone.settings({ deadline, site: ctx.site }), (s) => (settingsMismatches(s, want).length === 0) !== isNot, timeout, ctx.startedAt, ctx.hostAllowance);
  const actual: DisplaySettings | undefined = poll.last;
  const fields = Object.keys(want) as (keyof DisplaySettings)[];
  const facts = {
    matcher: check.name,
    phone: String(phone),
    isNot,
    fields: fields.map((f) => ({ field: f, expected: describeSetting(f, want[f]!), ...(actual ? { received: describeSetting(f, actual[f]) } : {}) })),
    reads: readFacts(poll, timeout),
  };
  if (actual === undefined) return unanswered(phone, { ...check, expected: want }, ctx, poll, facts);
  const mismatches = settingsMismatches(actual, want);
  const pass = mismatches.length === 0;
  const rows: Part[][] = isNot
    ? fields.map((f) => [`  ${f}: `, { received: describeSetting(f, actual[f]) }])
    : mismatches.map((m) => [`  ${m.field}: expected `, { expected: m.expected }, ', received ', { received: m.actual }]);
  const lines: Part[][] = [[`Phone:  ${phone}`], [isNot ? 'Expected the settings not to match, and every field did:' : `${mismatches.length} field(s) differ:`], ...rows, [`Polled: ${polled(poll, timeout)}`]];
  const verdict: Verdict = { pass, ...check, expected: want, received: actual, lines, timeout, evidence: [] };
  if (pass === isNot) {
    phone.lab.sawWrongAnswer();
    await phone.hooks.screenAtFailure();
    verdict.facts = facts;
  }
  return verdict;
}
