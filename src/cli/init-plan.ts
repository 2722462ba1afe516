// `phonewright init`'s work: the answers checked before anything is written, then each file written only where
// none is there (a file that is there is left as it is, and named), and the next two commands that are true
// for the folder as it is now.
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseConfigFile } from '../config/schema.js';
import { isPhonewrightError, UsageError } from '../core/errors.js';
import { normalizeApiRoot } from '../core/routes.js';
import { FileExists, FolderWriter } from '../files/writer.js';
import { AGENT_FILES, AGENTS_HEADING, AGENTS_SECTION, EXAMPLE_SPEC, GITIGNORE_LINES, INIT_FILES, VSCODE_MCP, nightlyWorkflow, phonewrightConfig, playwrightConfig, type InitServer } from './init-files.js';

/** What the user gave, by flag or at a question; all optional. */
export interface InitAnswers {
  url?: string;
  user?: string;
  passwordEnv?: string;
  apiRoot?: string;
  /** The server's name in phonewright.config.json. @default 'lab' */
  name?: string;
}

/** A file init left as it was, and why. */
export interface KeptFile {
  file: string;
  why: string;
}

/** What init did, paths relative to the folder. */
export interface InitResult {
  written: { file: string; what: string }[];
  kept: KeptFile[];
  /** The next two commands to run, in order. */
  next: string[];
}

const DEFAULT_SERVER_NAME = 'lab';
/** Playwright's config file names, in the order it looks for them: any of them is the folder's config. */
const PLAYWRIGHT_CONFIGS = ['ts', 'js', 'mts', 'mjs', 'cts', 'cjs'].map((ext) => `playwright.config.${ext}`);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SERVER_NAME = /^[\w.-]{1,64}$/;

/**
 * The server the answers describe, each answer checked: a refusal says which flag was wrong and what to write.
 * No URL: the embedded simulator, and the other answers are refused (they would describe no server).
 * @param answers the flags and the answers to the questions
 */
export function checkAnswers(answers: InitAnswers): InitServer | undefined {
  const { url, user, passwordEnv, apiRoot, name } = answers;
  if (url === undefined || url === '') {
    const stray = Object.entries({ '--user': user, '--password-env': passwordEnv, '--api-root': apiRoot }).find(([, v]) => v !== undefined && v !== '');
    if (stray) throw new UsageError(`${stray[0]} describes a server, and no --url was given`, { hint: 'give the server: --url http://10.0.0.5:8090' });
    return undefined;
  }
  const server: InitServer = { name: name || DEFAULT_SERVER_NAME, url: checkUrl(url) };
  if (!SERVER_NAME.test(server.name)) throw new UsageError(`--server ${JSON.stringify(server.name)} is not a server name`, { hint: 'letters, digits, ".", "_" and "-", e.g. --server lab-a' });
  if (user) {
    if (user.includes(':')) throw new UsageError(`--user ${JSON.stringify(user)} holds a ":", which no user name may`, { hint: 'the user name alone, e.g. --user sigma' });
    server.user = user;
  }
  if (passwordEnv) {
    if (!ENV_NAME.test(passwordEnv)) {
      // Not echoed: what was typed there may be the password itself.
      throw new UsageError('--password-env takes the name of an environment variable (letters, digits and "_", not starting with a digit), and what was given is not one', {
        hint: 'name the variable that holds the password, never the password itself: --password-env LAB_PASSWORD',
      });
    }
    server.passwordEnv = passwordEnv;
  }
  if (apiRoot) {
    try {
      server.apiRoot = normalizeApiRoot(apiRoot);
    } catch (e) {
      throw new UsageError(`--api-root ${JSON.stringify(apiRoot)}: ${(e as Error).message}`, { hint: 'a path such as /TotalControl/v1' });
    }
  }
  // The loader's own checks, so that init never writes a file a run would refuse.
  try {
    parseConfigFile(JSON.parse(phonewrightConfig(server)), INIT_FILES.phonewrightConfig, '.');
  } catch (e) {
    throw isPhonewrightError(e) ? new UsageError(e.message) : e;
  }
  return server;
}

/**
 * Writes the files into `dir` where none is there, and says what comes next.
 * @param dir the team's folder (it must exist)
 * @param server the server for phonewright.config.json; undefined: the embedded simulator
 * @param env where a server's password variable is looked for (to say whether the next commands must set it)
 * @param agents also set up coding agents: `.vscode/mcp.json` and a section of AGENTS.md (`init --agents`)
 * @default agents false
 */
export async function initFolder(dir: string, server: InitServer | undefined, env: Readonly<Record<string, string | undefined>>, agents = false): Promise<InitResult> {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${dir} is not a folder`, { hint: "run init in your project's folder" });
  const result: InitResult = { written: [], kept: [], next: [] };
  const writer = new FolderWriter(dir, `the project's folder (${dir})`, 'move the link aside, or run init in a folder whose specs and workflows are its own');
  // Every file init may write is checked first (inside the folder, no link on its way out): a refusal writes nothing.
  for (const file of Object.values(INIT_FILES)) if (!lstatSync(path.join(dir, file), { throwIfNoEntry: false })) writer.target(file);
  if (agents) for (const file of Object.values(AGENT_FILES)) writer.target(file);
  const writeNew = (file: string, content: string, what: string, why?: string) => writeIfNone(writer, file, content, what, result, why);
  const at = (file: string) => path.join(dir, file);
  const there = 'there already, left as it is';

  const ownConfig = PLAYWRIGHT_CONFIGS.find((f) => existsSync(at(f)));
  // A config without the matrix (the team's, for a web app say) runs no phone until it has it.
  const add = `: add the device matrix and phonewright's reporters to it (node_modules/phonewright/docs/configuration.md, "A config of your own")`;
  if (ownConfig) result.kept.push({ file: ownConfig, why: `${there}${readFileSync(at(ownConfig), 'utf8').includes('deviceMatrix') ? '' : add}` });
  else await writeNew(INIT_FILES.playwrightConfig, playwrightConfig(isEsm(dir)), 'the device matrix, one Playwright project per phone; reports in reports/');

  const configWhat = server ? `server "${server.name}": ${server.url}${server.passwordEnv ? `, its password in $${server.passwordEnv}` : ''}` : 'no server: the embedded simulator\'s four phones';
  await writeNew(INIT_FILES.phonewrightConfig, phonewrightConfig(server), configWhat, server ? `${there}: the server given was not written into it` : there);
  await writeNew(INIT_FILES.exampleSpec, EXAMPLE_SPEC, 'an example spec, importing phonewright/fixtures');
  await addIgnored(writer, result);
  await writeNew(INIT_FILES.workflow, nightlyWorkflow(server), 'the nightly on GitHub Actions: npm ci, the matrix, its reports kept with the run');
  if (agents) {
    await writeNew(AGENT_FILES.vscodeMcp, VSCODE_MCP, 'the phonewright MCP server for VS Code\'s agent mode (npx phonewright mcp)', `${there}: add the phonewright server to it (docs/agents.md)`);
    await addAgentsSection(writer, result);
  }

  result.next = nextCommands(dir, server, env);
  return result;
}

/** A server's base URL, as phonewright.config.json keeps it: http(s), no credentials, query or fragment. */
function checkUrl(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    // A host and port alone (10.0.0.5:8090, lab:8090) only lack the scheme.
    const meant = /^[\w.-]+(:\d+)?(\/\S*)?$/.test(raw) ? `--url http://${raw}` : '--url http://10.0.0.5:8090';
    throw new UsageError(`--url ${JSON.stringify(raw.slice(0, 100))} is not an http or https URL`, { hint: meant });
  }
  // Not echoed: the URL holds a password.
  if (url.username || url.password) throw new UsageError('--url holds a user or password, which phonewright.config.json never keeps', { hint: '--url with the host alone, and --user NAME --password-env VARIABLE' });
  if (url.search || url.hash) throw new UsageError(`--url ${JSON.stringify(raw.slice(0, 100))} has a query or fragment`, { hint: "the server's base URL, e.g. --url http://10.0.0.5:8090" });
  return raw.replace(/\/+$/, '');
}

/** The folder's package.json says `"type": "module"`. */
function isEsm(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { type?: unknown }).type === 'module';
  } catch {
    return false;
  }
}

/** Writes a file that is not there; one that is (even one made a moment ago, or a link) is kept. */
async function writeIfNone(writer: FolderWriter, file: string, content: string, what: string, result: InitResult, why = 'there already, left as it is'): Promise<void> {
  if (lstatSync(path.join(writer.root, file), { throwIfNoEntry: false })) {
    result.kept.push({ file, why });
    return;
  }
  try {
    await writer.write(file, content, { replace: false });
  } catch (error) {
    if (!(error instanceof FileExists)) throw error;
    result.kept.push({ file, why });
    return;
  }
  result.written.push({ file, what });
}

/** Adds to .gitignore the lines it lacks (`reports`, `/reports/` and `reports/` are one line to git here). */
async function addIgnored(writer: FolderWriter, result: InitResult): Promise<void> {
  let missing: string[] = [];
  const written = await writer.update(INIT_FILES.gitignore, (text = '') => {
    const same = (line: string) => line.trim().replace(/^\//, '').replace(/\/$/, '');
    const present = new Set(text.split(/\r?\n/).map(same));
    missing = GITIGNORE_LINES.filter((line) => !present.has(same(line)));
    if (!missing.length) return undefined;
    const gap = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    return `${text}${gap}# phonewright: the installed packages, the runs' reports and results, this machine's record of its uploads\n${missing.join('\n')}\n`;
  });
  if (written === undefined) result.kept.push({ file: INIT_FILES.gitignore, why: `it ignores ${GITIGNORE_LINES.join(', ')} already` });
  else result.written.push({ file: INIT_FILES.gitignore, what: `ignores ${missing.join(', ')}` });
}

/** Adds the phonewright section to AGENTS.md (made when missing); one that has it already is left as it is. */
async function addAgentsSection(writer: FolderWriter, result: InitResult): Promise<void> {
  let made = false;
  const written = await writer.update(AGENT_FILES.agentsMd, (text) => {
    if (text?.includes(AGENTS_HEADING)) return undefined;
    made = text === undefined;
    return text === undefined ? `# Agents\n\n${AGENTS_SECTION}` : `${text}${text.endsWith('\n') ? '' : '\n'}\n${AGENTS_SECTION}`;
  });
  if (written === undefined) result.kept.push({ file: AGENT_FILES.agentsMd, why: `it has "${AGENTS_HEADING}" already` });
  else result.written.push({ file: AGENT_FILES.agentsMd, what: `${made ? '' : 'adds '}how agents write phonewright specs (imports, fixtures, locators before coordinates, fractions, expect timeouts)` });
}

/** The next two commands: install what is missing, check the server, run the matrix, open its report. */
function nextCommands(dir: string, server: InitServer | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  // A server's password variable not set here: the commands set it, as a line to fill in.
  const set = server?.passwordEnv && !env[server.passwordEnv] ? `${server.passwordEnv}=… ` : '';
  const run = `${set}npx playwright test`;
  const first = server ? `${set}npx phonewright doctor` : run;
  if (!resolves(dir, 'phonewright/package.json') || !resolves(dir, '@playwright/test/package.json')) return ['npm i -D phonewright @playwright/test', first];
  return server ? [first, run] : [run, 'npx playwright show-report reports/html'];
}

/** True when `specifier` resolves from `dir`, as the folder's config and specs will import it. */
function resolves(dir: string, specifier: string): boolean {
  try {
    createRequire(path.join(dir, 'package.json')).resolve(specifier);
    return true;
  } catch {
    return false;
  }
}
