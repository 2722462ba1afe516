// What the README's pictures of the local pages share (scripts/inspector-picture.mjs, scripts/review-picture.mjs):
// the built CLI serving a page until it prints its URL, and Debian's Chromium to open it in.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = path.join(ROOT, 'bin', 'phonewright.js');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * Runs `phonewright <args>` in `cwd` until it prints its page's URL (`<label>: URL`, the first line on stdout).
 * @returns the URL, and the running command (stop it with SIGINT)
 */
export async function servePage(args, label, cwd) {
  const cli = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    cli.stdout.setEncoding('utf8').on('data', (s) => {
      out += s;
      const m = new RegExp(`^${label}: (\\S+)\\n`).exec(out);
      if (m) resolve(m[1]);
    });
    cli.once('exit', (code) => reject(new Error(`phonewright ${args[0]} exited (${code}) before printing its URL`)));
  });
  return { url, cli };
}

/** Debian's Chromium, as the tests launch it; close it when done. */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
