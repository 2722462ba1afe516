// Which phones each shard of `phonewright test|nightly --shard i/n` runs. Pure: the listing of the run and the
// weights of its tests go in, the same plan comes out on every machine that lists the same run.

/** A project of the run, as the shard plan sees it. */
export interface PlanProject {
  name: string;
  /** A pool's phones, in the pool's order; empty for a project that is one phone. */
  pool: string[];
  /** The project's tests, in the listing's order: a key (a test-list line) and a weight (ms, or 1 per test). */
  tests: { key: string; weight: number }[];
  /** False for a pool whose tests a test list cannot name one by one: the pool then stays whole, on one shard. */
  splittable: boolean;
}

/** A project, or the part of a pool, that one shard runs. */
export interface PlannedProject {
  project: string;
  /** The phones it runs on: the project's, or the pool's phones that fell to the shard. */
  phones: string[];
  /** The tests it runs: undefined for all of the project's; a pool split across shards runs its share. */
  tests?: string[];
  /** How many tests, and their weight. */
  count: number;
  weight: number;
}

/** One shard: what it runs, and its weight. */
export interface PlannedShard {
  /** From 1. */
  index: number;
  projects: PlannedProject[];
  weight: number;
}

/** A phone, or a pool kept whole, given to one shard. */
interface Unit {
  project: PlanProject;
  phones: string[];
  weight: number;
}

/**
 * Gives each shard whole phones, balanced by weight: longest first, each to the shard with the least so far
 * (ties to the lower shard), so every machine that plans the same listing gets the same plan. A phone of its
 * own weighs its tests; a pool's phone weighs the pool's tests over its phones (they share them), and a pool
 * whose phones fall to several shards splits its tests among its phones the same way, each shard running the
 * tests of its phones.
 * @param projects the run's phone projects, in the config's order
 * @param total the number of shards
 */
export function planShards(projects: PlanProject[], total: number): PlannedShard[] {
  const units: Unit[] = projects.flatMap((project) => {
    const weight = sum(project.tests.map((t) => t.weight));
    if (project.pool.length === 0) return [{ project, phones: [project.name], weight }];
    if (!project.splittable || project.pool.length === 1) return [{ project, phones: project.pool, weight: weight / project.pool.length }];
    return project.pool.map((phone) => ({ project, phones: [phone], weight: weight / project.pool.length }));
  });
  const loads = Array.from({ length: total }, () => 0);
  const owners = new Map<Unit, number>();
  // Stable: equal weights keep the config's order.
  for (const unit of [...units].sort((a, b) => b.weight - a.weight)) {
    const shard = loads.indexOf(Math.min(...loads));
    owners.set(unit, shard);
    loads[shard]! += unit.weight;
  }
  return loads.map((weight, shard) => ({
    index: shard + 1,
    weight,
    projects: projects.flatMap((project) => {
      const mine = units.filter((u) => u.project === project && owners.get(u) === shard);
      if (mine.length === 0) return [];
      const phones = mine.flatMap((u) => u.phones);
      const all = units.filter((u) => u.project === project).length === mine.length;
      if (all) return [{ project: project.name, phones, count: project.tests.length, weight: sum(project.tests.map((t) => t.weight)) }];
      const tests = shareOf(project, phones);
      return [{ project: project.name, phones, tests: tests.map((t) => t.key), count: tests.length, weight: sum(tests.map((t) => t.weight)) }];
    }),
  }));
}

/** The tests of a split pool that run on `phones`: the pool's tests dealt to its phones, longest first, each to the least loaded. */
function shareOf(project: PlanProject, phones: string[]): PlanProject['tests'] {
  const loads = project.pool.map(() => 0);
  const dealt = new Map<string, number>();
  for (const test of [...project.tests].sort((a, b) => b.weight - a.weight)) {
    const phone = loads.indexOf(Math.min(...loads));
    dealt.set(test.key, phone);
    loads[phone]! += test.weight;
  }
  const wanted = new Set(phones.map((p) => project.pool.indexOf(p)));
  return project.tests.filter((t) => wanted.has(dealt.get(t.key)!));
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
