// Goldens left under a phone's former project name. A phone keeps its project's name beside other servers,
// unless two servers name phones alike: then its project is `<server>-<phone>`, and so are its goldens' names
// (`{arg}-{projectName}.png`, the device matrix's snapshotPathTemplate). A golden written under the other name
// (the phone's, before a server that names a phone alike was added; `<server>-<phone>`, as phonewright 0.1.0
// named every phone of a file of several servers) is no longer looked at: the run and `phonewright approve` name
// each one, so none is left behind without a word. The device matrix puts what this needs in each project's
// metadata: `phone` (the name before any qualifying), `server`, `deviceId`.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** A golden that a phone's project no longer looks at since its name changed. */
export interface MovedGolden {
  /** The project that looks for the golden now, e.g. `lab-a-moto-g5`. */
  project: string;
  /** The phone's name, unqualified: `moto-g5`. */
  phone: string;
  /** Whether the project's name is qualified now (`lab-a-moto-g5`, the golden was `…-moto-g5.png`) or no longer. */
  qualified: boolean;
  /** The golden under the former name, absolute: `…/home.spec.ts-snapshots/status-moto-g5.png`. */
  from: string;
  /** Where the project looks for it now, absolute (no file there yet). */
  to: string;
}

/** A project of the run, as a reporter or the JSON report gives it. */
export interface ProjectGoldens {
  name: string;
  /** The device matrix's metadata: `phone`, `server`, `deviceId`. */
  metadata: Record<string, unknown> | undefined;
  /** The project's spec files, absolute. */
  files: Iterable<string>;
}

/**
 * The goldens under a phone project's other name (`<arg>-<phone>.png` or `<arg>-<server>-<phone>.png` beside its
 * spec) with none under its name now. The main device's goldens are named after its model and screen, not its
 * project: they do not move. A golden of another project of the run is that project's.
 * @param projects the run's projects
 */
export function movedGoldens(projects: readonly ProjectGoldens[]): MovedGolden[] {
  const names = projects.map((p) => p.name);
  const listed = new Map<string, string[]>();
  const goldensBeside = (file: string) => listed.get(file) ?? listed.set(file, pngsUnder(`${file}-snapshots`)).get(file)!;
  const moved = new Map<string, MovedGolden>();
  for (const project of projects) {
    const { phone, server, deviceId } = project.metadata ?? {};
    if (typeof phone !== 'string' || typeof server !== 'string' || deviceId === 'main') continue;
    const qualified = project.name !== phone;
    const former = qualified ? phone : `${server}-${phone}`;
    if (names.includes(former)) continue;
    const suffix = `-${former}.png`;
    // A golden of another project whose name ends the same way (`status-lab-b-moto-g5.png`) is that project's.
    const others = names.filter((n) => n.endsWith(`-${former}`));
    for (const file of new Set(project.files)) {
      for (const golden of goldensBeside(file)) {
        if (!golden.endsWith(suffix) || others.some((n) => golden.endsWith(`-${n}.png`))) continue;
        const to = `${golden.slice(0, -suffix.length)}-${project.name}.png`;
        if (!existsSync(to)) moved.set(`${golden}\n${to}`, { project: project.name, phone, qualified, from: golden, to });
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
  const why = moved.qualified
    ? `two servers name a phone "${moved.phone}": its project is ${moved.project}); git mv it if it is that phone's golden`
    : `no other server names a phone "${moved.phone}": its project keeps the phone's name); git mv it`;
  return `golden moved: ${show(moved.from)} is now ${show(moved.to)} (${why}`;
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
