import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { isOn, NIGHTLY_ENV } from './nightly-env.js';

/** Where CI publishes the HTML report, for links from the nightly files; it beats the config file's `reportUrl`. */
export const REPORT_URL_ENV = 'PHONEWRIGHT_REPORT_URL';

/** An http(s) URL with nothing that would break a Markdown or HTML link. */
const HTTP_URL = /^https?:\/\/\S+$/i;

/**
 * Where the HTML report of this run will be published: PHONEWRIGHT_REPORT_URL, else `reportUrl` of
 * phonewright.config.json (which the device matrix hands the reporters in its projects' metadata); undefined
 * when neither says (the nightly files then give test ids). A value that is not an http(s) URL is ignored
 * rather than written into links.
 * @param configured the config file's `reportUrl`
 */
export function reportUrl(env: Readonly<Record<string, string | undefined>>, configured: string | undefined): string | undefined {
  const raw = env[REPORT_URL_ENV] || configured;
  return raw && HTTP_URL.test(raw) ? raw.replace(/\/+(?:index\.html)?$/, '') : undefined;
}

/** The link to a test's page in the HTML report, or undefined without a report URL or a test id. */
export function testLink(url: string | undefined, id: string | undefined): string | undefined {
  return url && id ? `${url}/#?testId=${encodeURIComponent(id)}` : undefined;
}

/** Refuses a PHONEWRIGHT_REPORT_URL that is not an http(s) URL, before a nightly runs for nothing. */
export function checkReportUrl(env: Readonly<Record<string, string | undefined>>): void {
  const raw = env[REPORT_URL_ENV];
  if (raw !== undefined && raw !== '' && !HTTP_URL.test(raw)) {
    throw new UsageError(`${REPORT_URL_ENV} ${JSON.stringify(raw.slice(0, 200))} is not an http(s) URL`, { hint: `the URL CI publishes reports/html at, e.g. ${REPORT_URL_ENV}=https://ci.example.com/nightly/report` });
  }
}

/** The static review page, in the HTML report's folder (`phonewright review --static reports/html/review`). */
export const REVIEW_PAGE = 'review/index.html';

/**
 * Where the nightly files link the review page, when it is there (in the HTML report beside them) or configured
 * (PHONEWRIGHT_REVIEW_PAGE, for CI, which writes it after the run): in the published report, or from the reports
 * folder; undefined otherwise.
 * @param reportsDir the reports folder: the HTML report is its `html/`
 * @param url where CI publishes the HTML report
 */
export function reviewLink(env: Readonly<Record<string, string | undefined>>, reportsDir: string, url: string | undefined): string | undefined {
  if (!isOn(env[NIGHTLY_ENV.reviewPage]) && !existsSync(path.join(reportsDir, 'html', REVIEW_PAGE))) return undefined;
  return url ? `${url}/${REVIEW_PAGE}` : `html/${REVIEW_PAGE}`;
}
