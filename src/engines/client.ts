// A worker's side of the host's engines (host.ts): its template searches and reads of text sent over a local
// socket to the one process per host that holds OpenCV and the OCR engine, so that a worker per phone costs little
// more than Playwright's own. The first worker that finds no host answering starts one (the others wait for it,
// one starting at a time). From phonewright's TypeScript (its own tests' in-process calls) there is no built host
// to start, and the engines load in this process as before; PHONEWRIGHT_ENGINES=process asks for that too.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deadline, within } from '../client/deadline.js';
import { tryLock, unlock } from '../client/lock-folder.js';
import { waitForTurn } from '../client/resilience.js';
import { TimeoutError, UsageError } from '../core/errors.js';
import type { Language } from '../core/languages.js';
import type { TextLine } from '../image/ocr.js';
import type { Image } from '../image/png.js';
import type { SearchOptions, SearchResult } from '../image/template.js';
import { frame, FrameReader, type EngineAnswer, type EngineName, type EngineRequest } from './protocol.js';

/** The variable that keeps the engines in each process (`process`) rather than in the host's (`host`, the default). */
export const ENGINES_ENV = 'PHONEWRIGHT_ENGINES';
/** How long a worker waits for a host it started (or another worker started) to answer: Node and the socket, not the engines. */
const START_MS = 15_000;
/** How long a call without a deadline of its own may take (a load: OpenCV starts in ~0.5 s, the OCR engine in ~0.5–2 s, and a first read loads it). */
const LOAD_MS = 60_000;
/** How often a worker looks again while another starts the host, or after a host stopped mid-call. */
const RETRY_MS = 50;

/** The engines a worker searches and reads with. */
export interface Engines {
  /** Where they run: `host` (one process per host) or `process` (this one). */
  readonly where: 'host' | 'process';
  /** Loads an engine where it runs, if it has not loaded yet (about half a second the first time). */
  load(engine: EngineName): Promise<void>;
  /** Reads the text of an image, as the OCR engine's `read` does. */
  read(image: Image, languages: readonly Language[], deadline?: Deadline): Promise<TextLine[]>;
  /** Searches a screen for a template, as `searchTemplate` does. */
  search(screen: Image, template: Image, options: SearchOptions, deadline?: Deadline): Promise<SearchResult>;
}

let engines: Engines | undefined;

/** This process's engines: the host's where a built host can be started, else this process's own. */
export function hostEngines(env: NodeJS.ProcessEnv = process.env): Engines {
  if (engines) return engines;
  const wanted = env[ENGINES_ENV];
  if (wanted !== undefined && wanted !== '' && wanted !== 'host' && wanted !== 'process') {
    throw new UsageError(`${ENGINES_ENV}=${JSON.stringify(wanted.slice(0, 20))} is not where the engines run`, { hint: `${ENGINES_ENV}=host (one process per host, the default) or ${ENGINES_ENV}=process (in each worker)` });
  }
  const script = hostScript();
  engines = wanted !== 'process' && script ? new HostEngines(script) : new ProcessEngines();
  return engines;
}

/** The built host's script, where this module runs from a build (dist/src or the package's bundle in dist/pkg). */
function hostScript(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.js')) return undefined;
  let dir = path.dirname(here);
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const script = path.join(dir, 'dist', 'src', 'engines', 'host.js');
  return existsSync(script) ? script : undefined;
}

/** The engines loaded in this process. */
class ProcessEngines implements Engines {
  readonly where = 'process' as const;

  async load(engine: EngineName): Promise<void> {
    await (engine === 'read' ? (await import('../image/ocr.js')).loadOcr() : (await import('../image/opencv.js')).loadOpenCv());
  }

  async read(image: Image, languages: readonly Language[]): Promise<TextLine[]> {
    const { loadOcr } = await import('../image/ocr.js');
    return (await (await loadOcr()).read(image, languages)).lines;
  }

  async search(screen: Image, template: Image, options: SearchOptions): Promise<SearchResult> {
    const [{ loadOpenCv }, { searchTemplate }] = await Promise.all([import('../image/opencv.js'), import('../image/template.js')]);
    return searchTemplate(await loadOpenCv(), screen, template, options);
  }
}

/** The engines of the host's process, reached over its socket. */
class HostEngines implements Engines {
  readonly where = 'host' as const;
  readonly #script: string;
  readonly #socket: string;
  #connection: Promise<net.Socket> | undefined;
  readonly #waiting = new Map<number, { resolve: (a: EngineAnswer) => void; reject: (e: Error) => void }>();
  #next = 0;

  constructor(script: string) {
    this.#script = script;
    // One host per build: another checkout's or version's engines answer another socket.
    const build = createHash('sha1').update(`${script} ${statSync(script).mtimeMs}`).digest('hex').slice(0, 12);
    this.#socket = path.join(os.tmpdir(), `phonewright-engines-${process.getuid?.() ?? 'user'}-${build}.sock`);
  }

  async load(engine: EngineName): Promise<void> {
    await this.#ask(`load the engine to ${engine === 'read' ? 'read text' : 'search the screen'}`, (id) => frame({ id, op: 'load', engine } satisfies EngineRequest));
  }

  async read(image: Image, languages: readonly Language[], deadline?: Deadline): Promise<TextLine[]> {
    const answer = await this.#ask('read the text', (id) => frame({ id, op: 'read', image: size(image), languages } satisfies EngineRequest, [image.data]), deadline);
    return (answer as Extract<EngineAnswer, { lines: unknown }>).lines;
  }

  async search(screen: Image, template: Image, options: SearchOptions, deadline?: Deadline): Promise<SearchResult> {
    const answer = await this.#ask('search the screen', (id) => frame({ id, op: 'search', screen: size(screen), template: size(template), options } satisfies EngineRequest, [screen.data, template.data]), deadline);
    return (answer as Extract<EngineAnswer, { result: unknown }>).result;
  }

  /**
   * Asks the host, within `deadline`. A host that stops mid-call (killed, out of memory) is started again and asked
   * again: a read or a search gives the same answer for the same pixels. The asking pauses first: a host being
   * killed still takes connections for a moment, then drops them. A third stop is this host's failure, said as
   * such, never the phone's.
   */
  async #ask(what: string, request: (id: number) => Buffer[], deadline = Deadline.budget(LOAD_MS)): Promise<EngineAnswer> {
    let stops = 0;
    const answer = await waitForTurn(
      async () => {
        try {
          return await this.#askOnce(what, request, deadline);
        } catch (error) {
          if (!(error instanceof EnginesStopped) || ++stops > 2) throw error;
          return undefined;
        }
      },
      { deadline, pauseMs: () => RETRY_MS },
    );
    if (!answer) throw new TimeoutError(`${what}: this host's engines stopped mid-call and did not answer again before the deadline`, { reason: 'deadline' });
    return answer;
  }

  async #askOnce(what: string, request: (id: number) => Buffer[], deadline: Deadline): Promise<EngineAnswer> {
    const socket = await within(this.#connect(), deadline, `${what}: reach this host's engines`);
    const id = ++this.#next;
    const answered = new Promise<EngineAnswer>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    // The socket keeps this process alive while it waits for an answer, and only then.
    socket.ref();
    for (const part of request(id)) socket.write(part);
    try {
      const answer = await within(answered, deadline, `${what}: this host's engines`);
      if ('error' in answer) throw fromHost(answer.error);
      return answer;
    } finally {
      this.#waiting.delete(id);
      if (!this.#waiting.size) socket.unref();
    }
  }

  /** The connection to the host, made once; a host that went away is started again at the next call. */
  #connect(): Promise<net.Socket> {
    this.#connection ??= this.#open().then(
      (socket) => {
        const reader = new FrameReader((header) => this.#waiting.get((header as EngineAnswer).id)?.resolve(header as EngineAnswer));
        socket.on('data', (chunk: Buffer) => reader.push(chunk));
        socket.on('close', () => {
          this.#connection = undefined;
          for (const w of this.#waiting.values()) w.reject(new EnginesStopped(`this host's engines stopped mid-call three times (${this.#socket}); the next look starts them again`));
          this.#waiting.clear();
        });
        socket.unref();
        return socket;
      },
      (error: unknown) => {
        this.#connection = undefined;
        throw error;
      },
    );
    return this.#connection;
  }

  async #open(): Promise<net.Socket> {
    const deadline = Deadline.budget(START_MS);
    const lock = `${this.#socket}.lock`;
    const socket = await waitForTurn(
      async () => {
        const open = await connect(this.#socket);
        if (open) return open;
        // No host answers: one worker at a time clears a socket left by a host gone and starts one; the others wait for it.
        if (!(await tryLock(lock))) return undefined;
        try {
          if (existsSync(this.#socket)) rmSync(this.#socket, { force: true });
          spawn(process.execPath, [this.#script, this.#socket], { detached: true, stdio: 'ignore' }).unref();
          return await waitForTurn(() => connect(this.#socket), { deadline, pauseMs: () => RETRY_MS });
        } finally {
          await unlock(lock);
        }
      },
      { deadline, pauseMs: () => RETRY_MS },
    );
    if (!socket) throw new TimeoutError(`this host's engines did not start within ${START_MS / 1000} s (${this.#script})`, { reason: 'deadline', hint: `${ENGINES_ENV}=process loads them in each worker instead` });
    return socket;
  }
}

/** The host's process went away while a call waited for its answer. */
class EnginesStopped extends Error {}

/** A connection to the socket, or undefined when no host listens there. */
function connect(socketPath: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.on('error', () => socket.destroy());
      resolve(socket);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(undefined);
    });
  });
}

function size(image: Image): { width: number; height: number } {
  return { width: image.width, height: image.height };
}

/** The host's error as this process throws it: one of phonewright's (misuse of an image) stays one. */
function fromHost(error: { message: string; code?: string; hint?: string }): Error {
  const message = error.hint && error.message.endsWith(`; try: ${error.hint}`) ? error.message.slice(0, -`; try: ${error.hint}`.length) : error.message;
  return error.code === 'PW_USAGE' ? new UsageError(message, error.hint ? { hint: error.hint } : {}) : new Error(message);
}
