/**
 * A real Redis for the lease tests: Debian's `redis-server` (installed by .ci/run) on 127.0.0.1 and a free port,
 * nothing saved to disk, stopped by the test. redis-server cannot listen on port 0 and say which port it took,
 * so a free port is found first and taken again if another process got it in between.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { startsHeavy } from './test.js';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Stops it at once (SIGKILL): Redis going away under a run. Resolves once it has exited. */
  kill(): Promise<void>;
  /** Stops it if it still runs (resumed first when paused). */
  stop(): Promise<void>;
  /**
   * Freezes it (SIGSTOP): a server gone quiet, its connections open and nothing answered, as a frozen machine
   * or a dropped link looks. `resume()` (SIGCONT) lets it answer again.
   */
  pause(): void;
  resume(): void;
  /** Runs redis-cli against it and returns its output, e.g. `cli('PTTL', key)`. */
  cli(...args: string[]): string;
  /**
   * Its clients whose last command was a GET: workers waiting for a lease, refused and told who holds the phone
   * (acquireLease reads the holder after a refused SET). A connection alone says less: its first SET may be to come.
   */
  waiting(): number;
}

/** A Redis for one test, as a fixture: `test.extend<{ redis: RedisServer }>({ redis: redisFixture })`; stopped after it. */
export async function redisFixture({}: object, use: (redis: RedisServer) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  await use(redis);
  await redis.stop();
}

const ATTEMPTS = 5;

/** Starts redis-server on a free loopback port; resolves once it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('redis-server is missing: apt-get install -y redis-server (.ci/run installs it)');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    startsHeavy('Redis');
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const ready = await started(child);
    if (ready === 'ready') return handle(child, port);
    if (attempt >= ATTEMPTS || ready !== 'port taken') throw new Error(`redis-server did not start on port ${port}: ${ready}`);
  }
}

function handle(child: ChildProcess, port: number): RedisServer {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async (signal: NodeJS.Signals) => {
    // A paused server would hold SIGTERM until it is resumed.
    if (running()) child.kill('SIGCONT');
    if (running()) child.kill(signal);
    await exited;
  };
  const cli = (...args: string[]) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => stop('SIGKILL'),
    stop: () => stop('SIGTERM'),
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    cli,
    waiting: () => cli('CLIENT', 'LIST').split('\n').filter((c) => / cmd=get /.test(c)).length,
  };
}

/** Waits for redis-server's ready line, or for its exit and why. */
function started(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (/Ready to accept connections/.test(out)) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve('ready');
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('exit', () => resolve(/Address already in use/.test(out) ? 'port taken' : out.trim().split('\n').slice(-3).join(' | ')));
  });
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
