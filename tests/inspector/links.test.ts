// The inspector writes only under specs/: a symbolic link at a golden's, an image's or a spec's path, or a folder
// under specs/ that links out of it, is refused in one line, and nothing outside the project changes. Raw HTTP to
// the page's API, as its page sends it.
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { on } from '../cli/helpers.js';
import { expect, startInspect, test } from './harness.js';

test('a link at a golden, an image or a spec, or a folder linking out of specs/, is refused; nothing outside changes', async ({ simulate, tmp }) => {
  const sim = await simulate();
  const outside = await mkdtemp(path.join(tmpdir(), 'pw-outside-'));
  try {
    writeFileSync(path.join(outside, 'keep.txt'), 'keep me');
    const specs = path.join(tmp, 'specs');
    mkdirSync(path.join(specs, 'home.spec.ts-snapshots'), { recursive: true });
    mkdirSync(path.join(specs, 'images'));
    const phone = sim.mainDevice;
    const { port, token } = await startInspect(['main', ...on(sim)], { cwd: tmp });
    const post = async (route: string, body: unknown) => {
      const r = await fetch(`http://127.0.0.1:${port}/api/${route}`, { method: 'POST', headers: { 'x-phonewright-token': token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await r.json()) as { error?: string; file?: string };
      return { status: r.status, error: json.error ?? '', file: json.file ?? '' };
    };
    const rect = { x: 0, y: 0, width: 40, height: 40 };
    // Where "Write golden" puts a golden of this phone: the link is made at the next one's place.
    const probe = await post('golden', { phone, spec: 'home.spec.ts', name: 'probe.png', rect, mask: [], replace: false });
    expect(probe.status, probe.error).toBe(200);
    const golden = path.basename(probe.file).replace('probe', 'bar');
    // Links to a file outside: the golden "Replace golden" writes, the image "Save image again" writes, a spec.
    symlinkSync(path.join(outside, 'keep.txt'), path.join(specs, 'home.spec.ts-snapshots', golden));
    symlinkSync(path.join(outside, 'keep.txt'), path.join(specs, 'images', 'button.png'));
    symlinkSync(path.join(outside, 'keep.txt'), path.join(specs, 'linked.spec.ts'));
    // A folder under specs/ that is a link out of it.
    symlinkSync(outside, path.join(specs, 'shared'));

    const tries: [string, string, unknown, RegExp][] = [
      ['Replace golden over a link', 'golden', { phone, spec: 'home.spec.ts', name: 'bar.png', rect, mask: [], replace: true }, new RegExp(`${golden.replace('.', '\\.')}: it is a symbolic link`)],
      ['Save image again over a link', 'template', { phone, spec: 'home.spec.ts', name: 'button.png', rect, replace: true }, /images\/button\.png: it is a symbolic link/],
      ['a spec at a link', 'spec', { spec: 'linked.spec.ts', title: 't', lines: ["await device.press('home');"] }, /linked\.spec\.ts/],
      ['a spec in a linked folder', 'spec', { spec: 'shared/new.spec.ts', title: 't', lines: ["await device.press('home');"] }, /shared is a symbolic link out of the specs folder/],
      ['a golden in a linked folder', 'golden', { phone, spec: 'shared/home.spec.ts', name: 'bar.png', rect, mask: [], replace: false }, /shared is a symbolic link out of the specs folder/],
      ['an image in a linked folder', 'template', { phone, spec: 'shared/home.spec.ts', name: 'b.png', rect, replace: false }, /shared is a symbolic link out of the specs folder/],
      ['a table in a linked folder', 'table', { phone, rows: [{ project: 'galaxy-s9', points: [{ name: 'p', x: 1, y: 1, color: '0x000000' }], settings: { orientation: '0', resolution: '1080x1920', resolutionMode: 'auto', accl: 'on', hwDecode: 'on' } }], file: 'shared/table.ts' }, /shared is a symbolic link out of the specs folder/],
    ];
    for (const [what, route, body, why] of tries) {
      const r = await post(route, body);
      expect(r.status, what).toBeGreaterThanOrEqual(400);
      expect(r.status, what).toBeLessThan(500);
      expect(r.error, what).toMatch(why);
      expect(r.error.split('\n'), what).toHaveLength(1);
    }
    expect(readdirSync(outside)).toEqual(['keep.txt']);
    expect(readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep me');
    for (const link of [`home.spec.ts-snapshots/${golden}`, 'images/button.png', 'linked.spec.ts', 'shared']) expect(lstatSync(path.join(specs, link)).isSymbolicLink(), link).toBe(true);
    // What is not a link is written as before.
    expect((await post('golden', { phone, spec: 'home.spec.ts', name: 'ok.png', rect, mask: [], replace: false })).status).toBe(200);
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
});
