import type { Deadline } from '../client/deadline.js';
import { describeFilter, matchesNotification, parseNotificationFilter, type NotificationFilter } from '../core/notifications.js';
import { readAll } from './notification-list.js';
import type { Phone } from './phone.js';
import { untilChecked } from './until.js';
import { polled, readFacts, unanswered, type CheckContext, type Part, type Verdict } from './verdict.js';

/**
 * `toHaveNotification`: polls the phone's messages (the whole list the server holds) until one matches the
 * filter (or, with `.not`, until none does).
 */
export async function checkNotification(phone: Phone, filter: NotificationFilter, ctx: CheckContext): Promise<Verdict> {
  const check = { name: 'toHaveNotification', args: 'filter' };
  const { isNot, timeout } = ctx;
  const wanted = parseNotificationFilter({ device: phone.id, ...filter });
  // This phone's whole list; no server-side filter: whether `position` indexes the filtered or the whole list is not said.
  const read = (deadline: Deadline) => phone.read(`notifications of ${phone.id}`, { deadline, site: ctx.site }, async (o) => (await readAll(phone.client, o)).filter((m) => m.id === phone.id));
  const poll = await untilChecked(read, (list) => list.some((m) => matchesNotification(m, wanted)) !== isNot, timeout, ctx.startedAt, ctx.hostAllowance);
  const common = { matcher: check.name, phone: String(phone), isNot, filter: describeFilter(wanted), reads: readFacts(poll, timeout) };
  if (poll.last === undefined) return unanswered(phone, { ...check, expected: describeFilter(wanted) }, ctx, poll, common);
  const held = poll.last;
  const hits = held.filter((m) => matchesNotification(m, wanted));
  const pass = hits.length > 0;
  const lines: Part[][] = [
    [`Phone:    ${phone}`],
    [`Expected: ${isNot ? 'no message' : 'a message'} matching ${describeFilter(wanted)}`],
    [`Received: ${hits.length} matching of ${held.length} held${hits.length ? `, e.g. ${hits[0]!.app} ${JSON.stringify(hits[0]!.text)}` : ''}`],
    [`Polled:   ${polled(poll, timeout)}`],
  ];
  const verdict: Verdict = { pass, ...check, expected: describeFilter(wanted), received: hits, lines, timeout, evidence: [] };
  if (pass === isNot) {
    phone.lab.sawWrongAnswer();
    await phone.hooks.screenAtFailure();
    const first = hits[0] && { app: hits[0].app, text: hits[0].text };
    verdict.facts = { ...common, received: { matching: hits.length, held: held.length, ...(first ? { first } : {}) } };
  }
  return verdict;
}
