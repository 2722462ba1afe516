// A V8 code cache for Playwright's own modules in the processes the suite starts (`--require` in NODE_OPTIONS:
// tests/playwright.config.ts sets it, spawned runs inherit it). Every run the suite makes starts a Playwright
// runner and workers, and a fifth to a third of each one's start-up is V8 compiling Playwright's bundles
// (coreBundle and utilsBundle are 3.5 MB each): with the code that a process of the same role compiled kept on
// disk, a bare runner and its worker cost 0.8–1.0 s of CPU each instead of 1.0–1.35 s, and tests/fixtures'
// matrix and push-cache files 26–29 s instead of 31–33 s. Node 22 has this built in
// (module.enableCompileCache); Node 20 does not, so this does what v8-compile-cache does for CommonJS.
//
// Only Playwright's packages, undici and pngjs go through it (every worker loads them; the last two together
// ~20 ms a process): their dynamic imports name absolute paths, node: modules or packages, which resolve the
// same from here (undici's are in comments).
const { createHash } = require('node:crypto');
const { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const { isMainThread, threadId } = require('node:worker_threads');

const DIR = path.join(__dirname, '..', '..', 'test-results', 'v8-code-cache');
const CACHED = /[\\/]node_modules[\\/](playwright|playwright-core|@playwright[\\/]test|undici|pngjs)[\\/]/;
// A runner, a worker (workerProcessEntry.js) and the CLI compile different parts of the same bundles, and so do
// their threads (Playwright's ESM loader: its bundle, and babel in a runner that meets a spec file it has not
// transformed before): each entry point and its threads keep their own cache.
const ROLE = `${path.basename(process.argv[1] ?? '')}${isMainThread ? '' : '-thread'}`;
/**
 * A thread ends without an exit event (the process ends around it): it writes what it compiled once it has
 * compiled nothing new for this long. Playwright's loader thread compiles its bundle and babel in the process's
 * first second; in a runner it lives as long as the run.
 */
const THREAD_SAVE_MS = 1000;
// import( in code: not in a property (`.import(`), a name (`reimport(`), a method (`import() {`) or a message
// (`` `import()` ``).
const NOT_BEFORE = /[\w$.]/;
const STARTS_ARGUMENT = /[\s"'`\w$]/;

/** The loaded scripts that had no usable cache: written at exit (a thread: once idle), with every function compiled by then. */
const unsaved = [];
// A script compiled from a cache loses its dynamic-import callback (Node 20 keeps it per process, not in the
// cache), so import( in a cached module is rewritten to call this one, compiled by Node itself, where import() works.
globalThis.__phonewrightImport = (specifier, options) => import(specifier, options);

const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  if (!CACHED.test(filename)) return compile.call(this, content, filename);
  const { size, mtimeMs } = statSync(filename);
  const file = path.join(DIR, createHash('sha1').update(`${ROLE}\0${filename}\0${size}\0${mtimeMs}`).digest('hex'));
  let cachedData;
  try {
    cachedData = readFileSync(file);
  } catch {
    // not cached yet
  }
  const source = (content.startsWith('#!') ? `//${content}` : content).replace(/import\(/g, (match, at, text) =>
    NOT_BEFORE.test(text[at - 1] ?? '') || !STARTS_ARGUMENT.test(text[at + 7] ?? '') ? match : 'globalThis.__phonewrightImport(',
  );
  const script = new vm.Script(Module.wrap(source), { filename, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    unsaved.push({ script, file, rejected: script.cachedDataRejected === true });
    if (!isMainThread) {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(save, THREAD_SAVE_MS).unref();
    }
  }
  return script.runInThisContext({ displayErrors: true }).call(this.exports, this.exports, requireFrom(this), this, filename, path.dirname(filename));
};

// The first process (or thread, THREAD_SAVE_MS after its last compile) of a role to save writes its cache; later
// ones leave it (link fails on an existing file).
// The suite's own workers end last, after minutes of other work: when their caches replaced a short run's, a
// bare worker took 1.1–1.2 s of CPU, no less than with none, against 0.6–0.7 s with a short run's.
let saveTimer;
process.once('exit', save);
function save() {
  if (unsaved.length) mkdirSync(DIR, { recursive: true });
  for (const { script, file, rejected } of unsaved) {
    const temp = `${file}.${process.pid}-${threadId}`;
    try {
      if (rejected) rmSync(file, { force: true });
      writeFileSync(temp, script.createCachedData());
      linkSync(temp, file);
    } catch {
      // Another process wrote it first, or it could not be written: compiled again next time.
    } finally {
      rmSync(temp, { force: true });
    }
  }
  unsaved.length = 0;
}

/** The `require` a CommonJS module gets, as Node makes it. */
function requireFrom(mod) {
  const require = (id) => mod.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}
