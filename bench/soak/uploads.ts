// Many uploads at once: distinct files sent concurrently on as many connections, then every stored file
// compared with what was sent, by SHA-256.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeviceClient } from '../../src/client/index.js';

export interface UploadLoad {
  url: string;
  user: string;
  password: string;
  /** Where the server stores files (the simulator's installation root). */
  storageRoot: string;
  count: number;
  /** Sizes are spread from 1 byte to this. */
  maxBytes: number;
}

export interface UploadFigures {
  sent: number;
  bytes: number;
  ms: number;
  /** Files in the store. */
  stored: number;
  /** Files sent whose content is not in the store exactly once. */
  damaged: string[];
  /** file_url answered more than once. */
  sharedUrls: number;
  errors: string[];
}

/** Sends `count` distinct files at once, each on its own connection, and checks the store holds each intact. */
export async function runUploads(load: UploadLoad): Promise<UploadFigures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-soak-uploads-'));
  const client = new DeviceClient({ url: load.url, user: load.user, password: load.password, connections: load.count });
  try {
    const files = await Promise.all(
      Array.from({ length: load.count }, async (_, i) => {
        const bytes = randomBytes(1 + Math.floor((i / Math.max(1, load.count - 1)) * (load.maxBytes - 1)));
        const file = path.join(dir, `build-${i}.apk`);
        await writeFile(file, bytes);
        return { file, size: bytes.length, sha: sha256(bytes) };
      }),
    );
    await client.login();
    const errors: string[] = [];
    const started = performance.now();
    const urls = await Promise.all(
      files.map((f) =>
        client.upload(f.file, 'apk').then(
          (r) => r.fileUrl,
          (e: unknown) => void errors.push(`${path.basename(f.file)}: ${(e as Error).message}`),
        ),
      ),
    );
    const ms = performance.now() - started;
    const stored = await storedHashes(load.storageRoot);
    const damaged = files.filter((f) => stored.filter((s) => s === f.sha).length !== 1).map((f) => path.basename(f.file));
    const answered = urls.filter((u): u is string => u !== undefined);
    return { sent: files.length, bytes: files.reduce((n, f) => n + f.size, 0), ms, stored: stored.length, damaged, sharedUrls: answered.length - new Set(answered).size, errors };
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function storedHashes(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  return Promise.all(files.map(async (f) => sha256(await readFile(f))));
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
