// The package's runtime (npm run build, after tsc): what `phonewright` and `phonewright/fixtures` export, the device
// matrix's set-ups, phonewright's reporters and its own Playwright config, bundled by esbuild into dist/pkg/, one
// flat folder, the code they share in chunks of their own (one copy of every class, so an error thrown by the
// fixtures is an instance of the one `phonewright` exports). Every Playwright runner and worker loads these: as
// ~65 modules each went through Node's module loader, ~30 % of a worker's start-up beyond bare Playwright's.
// Dependencies stay imports, resolved from node_modules. tsc's dist/src/ remains for the CLI and the types.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = `${ROOT}dist/pkg`;

/** Output name → source. fixtures/matrix.ts finds `global-setup` and `push.setup` beside itself, the config the reporters. */
const ENTRIES = {
  index: 'src/index.ts',
  fixtures: 'fixtures/index.ts',
  'global-setup': 'fixtures/global-setup.ts',
  'push.setup': 'fixtures/push.setup.ts',
  'summary-reporter': 'src/report/summary-reporter.ts',
  'history-reporter': 'src/report/history-reporter.ts',
  'playwright.config': 'playwright.config.ts',
};

await rm(OUT_DIR, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: Object.entries(ENTRIES).map(([out, source]) => ({ in: source, out })),
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
});
