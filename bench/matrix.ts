// matrix_8_over_1: wall time of the example suite (specs/) on 8 simulated phones ÷ on 1, as `phonewright test`
// (matrix_16_over_1: on 16, three clones of each default phone; reported, and every run of it must be green)
// runs it where phonewright is installed (its own config, the package's build). The 8 phones are the default
// scenario's 4 and a clone of each (new id, name `<name>-b`); a clone reuses the model expectations
// (specs/phones.ts) and the region golden of the phone it was cloned from.
// matrix_8_over_1_lab: the same under the simulator's lab preset (reads take milliseconds, one screen read
// at a time per phone, clocks off) on a server of the interface only (capabilities "seed": regions sampled a
// pixel per read, 2,304 reads per phone), where the run waits on phones, as against a real lab, rather than
// on this machine's cores. With screen capture the suites barely wait on phones at all.
// matrix_lab_share: phonewright's share of the lab matrix, the decision among the three: (8-phone lab run −
// Playwright's own 8-project floor) ÷ (1-phone lab run − its 1-project floor). A floor is the same run (the
// same config, projects, workers, reporters and simulator) with one empty test per project that uses no
// phonewright fixture: what Playwright costs for that many projects on this machine, which no fixture can
// shorten. Each round's share takes its four runs from that round; the figure is their median.
import { appendFile, copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { JSONReport } from '@playwright/test/reporter';
import { reportTests } from '../src/report/json-report.js';
import { DEFAULT_SCENARIO, type PhoneInput } from '../src/simulator/index.js';
import type { BenchResult } from './report.js';
import { interleaved, median, medianRatio, round } from './stats.js';
import { exampleSpecs, INSTALLED_CONFIG, installedProject, removeProject, runPlaywright } from './suite.js';

/**
 * Rounds of six runs, after one warm-up run: about 1.5 minutes a round on a quiet machine, 2 under load. Five
 * is the fewest whose extremes bound the median at 94 % (1 − 2 ÷ 2⁵); three bound it at 75 % only. One round's
 * share scatters with the neighbours' load (1.26–2.31 within one run at a load of 10–16), and that load holds
 * for minutes: more rounds in one run measure the same busy hour more finely, not a quieter machine.
 */
const ROUNDS = 5;
const ONE = 'galaxy-s9';
/** The clones' name suffixes: the default scenario's 4 phones and a clone of each make 8; three clones, 16. */
const SUFFIXES = ['-b', '-c', '-d'];
const FLOOR_SPEC = 'specs/zz-playwright-floor.spec.ts';
/** A title no example test has: the suite runs leave this test out. */
const FLOOR_TITLE = 'playwright-floor';
/** The config naming the lab scenario (PHONEWRIGHT_CONFIG), beside the project's own. */
const LAB_CONFIG = 'phonewright.lab.json';

export async function run(): Promise<BenchResult> {
  const dir = await installedProject(await exampleSpecs());
  try {
    const sixteen = await cloneScenario(dir, SUFFIXES.length);
    const phones = sixteen.slice(0, 8);
    // Playwright's own share, for the detail column: one empty test per project, no phonewright fixture.
    await writeFile(path.join(dir, FLOOR_SPEC), `import { test } from '@playwright/test';\ntest('${FLOOR_TITLE}', () => {});\n`);
    const lab = { PHONEWRIGHT_CONFIG: LAB_CONFIG };
    const cpu: Record<string, number[]> = {};
    const phase: Record<string, Phases[]> = {};
    const run = (label: string, names: string[], args: string[], env: Record<string, string> = {}) => async () => {
      const result = await runPlaywright(dir, args, { PHONEWRIGHT_DEVICES: names.join(','), ...env });
      if (result.code !== 0) throw new Error(`${label} failed on ${names.length} phone(s) (exit code ${result.code}):\n${result.output.slice(-4000)}`);
      (cpu[label] ??= []).push(result.cpuMs);
      if (env === lab && args === suite) (phase[label] ??= []).push(await phases(dir));
      return result.ms;
    };
    const suite = ['-c', INSTALLED_CONFIG, '--grep-invert', FLOOR_TITLE];
    const floor = ['-c', INSTALLED_CONFIG, FLOOR_SPEC];
    // The warm-up fills Playwright's transform cache and the push cache, as any second run on a laptop finds them.
    await run('warm-up', phones, suite)();
    // Each lab run beside its floor (the order flips every other round, the pairs stay side by side). The floors
    // run under the lab config too: they differ from the lab runs in their tests only.
    const ms = await interleaved(ROUNDS, {
      labOne: run('labOne', [ONE], suite, lab),
      floorOne: run('floorOne', [ONE], floor, lab),
      floorEight: run('floorEight', phones, floor, lab),
      labEight: run('labEight', phones, suite, lab),
      one: run('one', [ONE], suite),
      eight: run('eight', phones, suite),
      sixteen: run('sixteen', sixteen, suite),
    });
    const shares = ms.labEight.map((x, i) => (x - ms.floorEight[i]!) / (ms.labOne[i]! - ms.floorOne[i]!));
    const c = (label: string) => seconds(median(cpu[label]!));
    const p = (label: string, key: keyof Phases) => seconds(median(phase[label]!.map((x) => x[key])));
    return {
      figures: {
        matrix_8_over_1: round(medianRatio(ms.eight, ms.one), 2),
        matrix_16_over_1: round(medianRatio(ms.sixteen, ms.one), 2),
        matrix_8_over_1_lab: round(medianRatio(ms.labEight, ms.labOne), 2),
        matrix_lab_share: round(median(shares), 2),
      },
      notes: {
        matrix_lab_share:
          `lab runs less their floors: 8 phones ${seconds(median(ms.labEight))} − ${seconds(median(ms.floorEight))}, ` +
          `1 phone ${seconds(median(ms.labOne))} − ${seconds(median(ms.floorOne))}; median of ${ROUNDS} rounds: ${shares.map((x) => x.toFixed(2)).join(', ')}`,
        matrix_8_over_1_lab:
          `lab preset: wall 1 phone ${seconds(median(ms.labOne))}, 8 phones ${seconds(median(ms.labEight))}; CPU ${c('labOne')} and ${c('labEight')}; ` +
          `every phone's first test begun ${p('labOne', 'firstTestMs')} and ${p('labEight', 'firstTestMs')} into the run, ` +
          `the region check (the slowest phone's) ${p('labOne', 'regionMs')} and ${p('labEight', 'regionMs')}; ${ROUNDS} rounds`,
        matrix_16_over_1: `wall 1 phone ${seconds(median(ms.one))}, 16 phones ${seconds(median(ms.sixteen))}; CPU ${c('one')} and ${c('sixteen')}; green in each of ${ROUNDS} rounds`,
        matrix_8_over_1:
          `wall 1 phone ${seconds(median(ms.one))}, 8 phones ${seconds(median(ms.eight))}; CPU ${c('one')} and ${c('eight')}. ` +
          `Playwright alone (an empty test per project): wall ${seconds(median(ms.floorOne))} and ${seconds(median(ms.floorEight))} ` +
          `(${medianRatio(ms.floorEight, ms.floorOne).toFixed(2)}×), CPU ${c('floorOne')} and ${c('floorEight')}; ${ROUNDS} rounds`,
      },
    };
  } finally {
    await removeProject(dir);
  }
}

/** Where a run's time went, from its JSON report (reports/results.json of the project's config). */
interface Phases {
  /** From the run's start until the last phone to start began its first test: Playwright's workers starting. */
  firstTestMs: number;
  /** The region check, which waits on the phones' serial screen reads, on the phone where it took longest. */
  regionMs: number;
}

async function phases(dir: string): Promise<Phases> {
  const report = JSON.parse(await readFile(path.join(dir, 'reports', 'results.json'), 'utf8')) as JSONReport;
  const start = Date.parse(report.stats.startTime);
  const firstByPhone = new Map<string, number>();
  let regionMs = 0;
  for (const { spec, test } of reportTests(report.suites)) {
    for (const r of test.results) {
      const at = Date.parse(r.startTime) - start;
      firstByPhone.set(test.projectName, Math.min(firstByPhone.get(test.projectName) ?? Infinity, at));
      if (spec.file.endsWith('region.spec.ts')) regionMs = Math.max(regionMs, r.duration);
    }
  }
  return { firstTestMs: Math.max(...firstByPhone.values()), regionMs };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Writes the scenario of the default phones and `copies` clones of each (new ids, names `<name>-b`, `-c`, …) and
 * the config that points at it, and teaches the specs the clones; returns the names, the originals and their
 * first clones first (8 of them), then the other clones.
 */
export async function cloneScenario(dir: string, copies = 1): Promise<string[]> {
  const originals = DEFAULT_SCENARIO.phones;
  const suffixes = SUFFIXES.slice(0, copies);
  const clones: PhoneInput[] = suffixes.flatMap((suffix, k) => originals.map((p, i) => ({ ...p, id: `device@${900_000_001 + k * 100 + i}`, name: `${p.name}${suffix}` })));
  const scenario = { ...DEFAULT_SCENARIO, phones: [...originals, ...clones] };
  await writeFile(path.join(dir, 'scenario.json'), JSON.stringify(scenario));
  await writeFile(path.join(dir, 'scenario-lab.json'), JSON.stringify({ ...scenario, lab: true }));
  await writeFile(path.join(dir, 'phonewright.config.json'), JSON.stringify({ simulator: { scenario: 'scenario.json' } }));
  await writeFile(path.join(dir, LAB_CONFIG), JSON.stringify({ simulator: { scenario: 'scenario-lab.json', capabilities: 'seed' } }));
  const names = originals.map((p) => p.name!);
  await appendFile(
    path.join(dir, 'specs', 'phones.ts'),
    `\n// bench/matrix: each cloned phone has the model of the phone it was cloned from.\n` +
      suffixes.flatMap((suffix) => names.map((n) => `PHONES[${JSON.stringify(n + suffix)}] = PHONES[${JSON.stringify(n)}]!;\n`)).join(''),
  );
  const goldens = path.join(dir, 'specs', 'region.spec.ts-snapshots');
  for (const file of await readdir(goldens)) {
    const phone = names.find((n) => file.endsWith(`-${n}.png`));
    if (!phone) continue;
    for (const suffix of suffixes) await copyFile(path.join(goldens, file), path.join(goldens, file.replace(`-${phone}.png`, `-${phone}${suffix}.png`)));
  }
  return [...names, ...clones.map((c) => c.name!)];
}
