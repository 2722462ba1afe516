/**
 * The environment variables between `phonewright nightly|merge`, the Playwright config and the history
 * reporter. Plain names, no Playwright import: the CLI reads them too.
 */
export const NIGHTLY_ENV = {
  /** `1`: the history reporter writes the run's record, nightly.md and trend.html (set by `nightly` and `merge`). */
  nightly: 'PHONEWRIGHT_NIGHTLY',
  /** `1`: this run is a part (a shard, one server's job): the config adds the blob reporter, no history is written. */
  blob: 'PHONEWRIGHT_BLOB',
  /** A file the history reporter writes the run's outcome to, for the CLI's exit code. */
  outcome: 'PHONEWRIGHT_NIGHTLY_OUTCOME',
  /** `1`: nightly.md and trend.html link the review page, which CI writes after the run (`phonewright review --static reports/html/review`). */
  reviewPage: 'PHONEWRIGHT_REVIEW_PAGE',
} as const;

/** True when an environment variable is set to anything but '', '0' or 'false'. */
export function isOn(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
