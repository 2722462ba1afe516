// text_locate_aai_ms, text_locate_ocr_ms, ocr_found_ratio: locators by text on the simulator's example app, each
// simulator in its own process. Through the vendor's UI elements: `getByText('Sign in').bounds()` on the
// galaxy-s9. By reading the screen (a simulator without the UI elements): the same on the pixel-7's 1080×2400
// screen, its two screens alternating so every look reads pixels it has not read (the OCR engine's load once per
// worker is reported apart). The ratio: every label drawn on the app's two screens on the four phones found by
// getByText read from the screen, and texts that are not there never found.
import { DeviceClient } from '../src/client/index.js';
import { parseDeviceId } from '../src/core/device-id.js';
import { ENGINES_ENV } from '../src/engines/client.js';
import { loadOcr } from '../src/image/ocr.js';
import { Phone } from '../src/phone/index.js';
import { DEFAULT_SCENARIO, EXAMPLE_APP, type DrawnScreenInput } from '../src/simulator/index.js';
import { exampleApp } from '../src/simulator/scenarios/sign-in.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { median } from './stats.js';

const ROUNDS = 30;
const OCR_ROUNDS = 12;
/** Texts on neither screen, some a letter or a word from one that is: none may be found. */
const ABSENT = ['Sign up', 'Welcome home', 'Password reset', 'Signed out', 'Help'];

export async function run(): Promise<BenchResult> {
  // The engine measured in this process (a worker's, as PHONEWRIGHT_ENGINES=process has it), its kept reads forgotten
  // here: the host's engines would keep them across looks.
  process.env[ENGINES_ENV] = 'process';
  const [withElements, without] = await Promise.all([startChild<SimReady>('sim-server', {}), startChild<SimReady>('sim-server', { elements: false })]);
  const clients = [withElements, without].map(({ ready }) => new DeviceClient({ url: ready.url, user: ready.user, password: ready.password }));
  try {
    const phones = DEFAULT_SCENARIO.phones!;
    const phoneOf = (client: DeviceClient, i: number) => new Phone(client, parseDeviceId(phones[i]!.id), { waitTimeout: () => 10_000 });
    // Through the engine.
    const galaxy = phoneOf(clients[0]!, 0);
    await galaxy.launch(EXAMPLE_APP);
    const button = galaxy.getByText('Sign in');
    for (let i = 0; i < 10; i++) await button.bounds();
    const aai = await times(ROUNDS, () => button.bounds());

    // By reading the screen, on the 1080×2400 phone: its sign-in and signed-in screens in turn, never the same pixels twice in a row.
    const pixel = phoneOf(clients[1]!, 1);
    const t0 = performance.now();
    const engine = await loadOcr();
    const loadMs = performance.now() - t0;
    const app = await appOf(pixel);
    const ocr: number[] = [];
    for (let r = 0; r < OCR_ROUNDS + 1; r++) {
      // The engine keeps the screens it read: forgotten, so each look reads its pixels again.
      await pixel.launch(EXAMPLE_APP);
      engine.forget();
      const first = await timed(() => pixel.getByText('Welcome back').bounds());
      await pixel.tap(...centre(app.signInButton));
      engine.forget();
      const second = await timed(() => pixel.getByText('Signed in', { exact: true }).bounds());
      if (r > 0) ocr.push(first, second);
    }

    // Every label on both screens of the four phones, and texts that are not there.
    let found = 0;
    let labels = 0;
    const missed: string[] = [];
    const falseFinds: string[] = [];
    for (const [i, spec] of phones.entries()) {
      const phone = phoneOf(clients[1]!, i);
      const drawn = await appOf(phone);
      await phone.launch(EXAMPLE_APP);
      for (const [screen, texts] of [['sign-in', drawn.signIn], ['signed-in', drawn.signedIn]] as const) {
        if (screen === 'signed-in') await phone.tap(...centre(drawn.signInButton));
        for (const text of texts) {
          labels++;
          if ((await phone.getByText(text, { exact: true }).look()).matches.length) found++;
          else missed.push(`"${text}" on ${spec.name}'s ${screen}`);
        }
        for (const text of ABSENT) if ((await phone.getByText(text).look()).matches.length) falseFinds.push(`"${text}" on ${spec.name}'s ${screen}`);
      }
    }
    const ratio = falseFinds.length ? 0 : found / labels;
    return {
      figures: { text_locate_aai_ms: Math.round(median(aai) * 10) / 10, text_locate_ocr_ms: Math.round(median(ocr)), ocr_found_ratio: Math.round(ratio * 1000) / 1000 },
      notes: {
        text_locate_aai_ms: `getByText('Sign in').bounds() on the galaxy-s9 through sendAai, median of ${ROUNDS}`,
        text_locate_ocr_ms: `a capture of the pixel-7's 1080×2400 screen read and searched, median of ${ocr.length} (its two screens in turn); loading the engine once per worker: ${Math.round(loadMs)} ms`,
        ocr_found_ratio: `${found} of ${labels} labels found exactly${missed.length ? ` (missed: ${missed.join(', ')})` : ''}; ${falseFinds.length ? `FOUND texts not there: ${falseFinds.join(', ')}` : `none of ${ABSENT.length} absent texts found on any screen`}`,
      },
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([withElements.close(), without.close()]);
  }
}

/** The example app as the simulator draws it on a phone of this scenario: its two screens' texts and the button that leaves the first. */
async function appOf(phone: Phone): Promise<{ signIn: string[]; signedIn: string[]; signInButton: [number, number, number, number] }> {
  const { width, height } = await phone.info();
  const screens = exampleApp(width, height).screens as Record<string, DrawnScreenInput>;
  const texts = (s: DrawnScreenInput) => [...(s.texts ?? []).map((t) => t.text), ...(s.elements ?? []).map((e) => e.text ?? '')].filter((t) => t.trim() !== '');
  const button = screens['sign-in']!.elements!.find((e) => e.text === 'Sign in')!.bounds as [number, number, number, number];
  return { signIn: texts(screens['sign-in']!), signedIn: texts(screens['signed-in']!), signInButton: button };
}

function centre([left, top, right, bottom]: [number, number, number, number]): [number, number] {
  return [Math.floor((left + right) / 2), Math.floor((top + bottom) / 2)];
}

async function timed(call: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await call();
  return performance.now() - t;
}

async function times(n: number, call: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await timed(call));
  return out;
}
