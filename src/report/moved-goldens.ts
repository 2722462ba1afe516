// Goldens left under a phone's former project name. A phone keeps its project's name when a server is added,
// unless two servers name phones alike: then its project is `<server>-<phone>`, and so are its goldens'
// names (`{arg}-{projectName}.png`, the device matrix's snapshotPathTemplate). A golden written before, under the
// phone's name, is no longer looked at: the run and `phonewright approve` name each one, so none is left behind
// without a word. The device matrix puts what this needs in each project's metadata: `phone`, the name before.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** A golden that a phone's project no longer looks at since its name was qualified. */
export interface MovedGolden {
  /** The project that looks for the golden now, e.g. `lab-a-moto-g5`. */
  project: string;
  /** The project's name before, the phone's: `moto-g5`. */
  former: string;
  /** The golden under the former name, absolute: `…/home.spec.ts-snapshots/status-moto-g5.png`. */
  from: string;
  /** Where the project looks for it now, absolute (no file there yet). */
  to: string;
}

/** A project of the run, as a reporter or the JSON report gives it. */
export interface ProjectGoldens {
  name: string;
  /** The device matrix's metadata: `phone` (the name before it was qualified) and `deviceId`. */
  metadata: Record<string, unknown> | undefined;
  /** The project's spec files, absolute. */
  files: Iterable<string>;
}

/**
 * The goldens under a qualified project's former name (`<arg>-<phone>.png` beside its spec) with none under its
 * name now (`<arg>-<server>-<phone>.png`). The main device's goldens are named after its model and screen, not
 * its project: they do not move.
 * @param projects the run's projects
 */
export function movedGoldens(projects: readonly ProjectGoldens[]): MovedGolden[] {
  const names = projects.map((p) => p.name);
  const moved = new Map<string, MovedGolden>();
  for (const project of projects) {
    const former = project.metadata?.phone;
    if (typeof former !== 'string' || former === project.name || project.metadata?.deviceId === 'main') continue;
    const suffix = `-${former}.png`;
    // A golden of another project whose name ends the same way (`status-lab-b-moto-g5.png`) is that project's.
    const others = names.filter((n) => n !== former && n.endsWith(`-${former}`));
    for (const file of new Set(project.files)) {
      for (const golden of pngsUnder(`${file}-snapshots`)) {
        if (!golden.endsWith(suffix) || others.some((n) => golden.endsWith(`-${n}.png`))) continue;
        const to = `${golden.slice(0, -suffix.length)}-${project.name}.png`;
        if (!existsSync(to)) moved.set(`${golden}\n${to}`, { project: project.name, former, from: golden, to });
      }
    }
  }
  return [...moved.values()];
}

/**
 * The line that names a moved golden, its paths relative to `cwd`: the summary prints it, `approve` warns with it.
 * @param cwd the user's folder
 */
export function movedGoldenLine(moved: MovedGolden, cwd: string): string {
  const show = (file: string) => path.relative(cwd, file);
  return `golden moved: ${show(moved.from)} is now ${show(moved.to)} (two servers name a phone "${moved.former}": its project is ${moved.project}); git mv it if it is that phone's golden`;
}

/** The PNG files under a folder, at any depth (a golden's name may hold folders); none when it is not there. */
function pngsUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.png'))
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}
