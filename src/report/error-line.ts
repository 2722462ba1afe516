import { readFileSync } from 'node:fs';
import type { TestError, TestResult, TestStep } from '@playwright/test/reporter';
import { FACTS_ATTACHMENT, factsLine, parseFacts, type AssertionFacts } from './facts.js';
import { firstLine, scrubLine } from './redact.js';

/**
 * What the history keeps of an attempt's error, secrets redacted: for a failing device assertion, a line
 * written from the facts it attached, so no rewording of its message changes the history; for any other
 * error (a test's own throw, a timeout, Playwright's assertions), the first line of its message.
 * @param result the attempt
 * @param error one of its errors
 * @param secrets values never to write (passwords, tokens)
 */
export function errorLine(result: TestResult, error: TestError, secrets: string[]): string {
  const facts = factsOf(result, error);
  return facts ? scrubLine(factsLine(facts), secrets) : firstLine(error.message ?? error.value ?? '', secrets);
}

/**
 * The facts a device assertion attached for `error`. The matcher attaches them inside its expect step, so
 * they are found under the step that failed with this error (the expect step, or phonewright's boxed step
 * around it); a step with another error, or none, is another assertion's.
 * @param result the attempt
 * @param error one of its errors
 */
export function factsOf(result: TestResult, error: TestError): AssertionFacts | undefined {
  if (error.message === undefined) return undefined;
  for (const step of flatten(result.steps)) {
    if (step.error?.message !== error.message) continue;
    for (const attachment of flatten([step]).flatMap((s) => s.attachments)) {
      if (attachment.name !== FACTS_ATTACHMENT) continue;
      const facts = parseFacts(bodyOf(attachment));
      if (facts) return facts;
    }
  }
  return undefined;
}

/** Steps and their sub-steps, depth first. */
function flatten(steps: TestStep[]): TestStep[] {
  return steps.flatMap((s) => [s, ...flatten(s.steps)]);
}

/** An attachment's text: its body, or its file (a merged report's attachments may come as files). */
function bodyOf(attachment: TestStep['attachments'][number]): string {
  if (attachment.body) return attachment.body.toString('utf8');
  try {
    return attachment.path ? readFileSync(attachment.path, 'utf8') : '';
  } catch {
    return '';
  }
}
