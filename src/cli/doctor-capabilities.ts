// `phonewright doctor`'s second list: each route beyond the device-control interface, offered or not by this
// server, and what phonewright does without it. Every probe is a read (a list, a 1×1 capture, the clipboard):
// doctor never acts on a phone.
import { Deadline, type CallOptions, type CaptureType, type DeviceClient } from '../client/index.js';
import type { DeviceId } from '../core/device-id.js';
import { isPhonewrightError, ServiceError, type PhonewrightError } from '../core/errors.js';

/** What every line of doctor's two lists says, as `--json` prints it: what was checked, what it found, how long it took. */
export interface DoctorLine {
  name: string;
  detail: string;
  ms: number;
}

/** One line of the capabilities: `offered` is null when the probe could not decide (an error, no time). */
export interface CapabilityResult extends DoctorLine {
  offered: boolean | null;
}

/** What one probe found: offered with what it saw, or not offered with what phonewright does instead. */
type Finding = { offered: true; detail: string } | { offered: false; detail: string };

/** A region as a spec might check it, and the reads it costs without a capture: what the cost line speaks of. */
const REGION = { width: 64, height: 48 };
/** Pixel reads made at once to time a region's cost: the concurrency a region sample uses. */
const BURST = 32;
/** Where the server's OCR is tried: a corner every phone has, where the status bar's clock often is. */
const OCR_RECT = { x: 0, y: 0, width: 160, height: 48 };

/**
 * Probes every capability at once, each within its own deadline, and returns one line each in a fixed order.
 * @param device the phone to probe on (the main device, or `--device`); undefined skips the phone's probes
 * @param budgetMs each probe's deadline
 */
export async function probeCapabilities(client: DeviceClient, device: DeviceId | undefined, budgetMs: number, signal: AbortSignal): Promise<CapabilityResult[]> {
  const probes: [string, (call: CallOptions) => Promise<Finding>][] = [
    ['device list', async (call) => {
      const ids = await ifOffered(client.devices(call));
      if (!ids) return lacking('phonewright devices fails, and the device matrix cannot take "all": list the phones by id');
      return offered(`${ids.value.length} phone${ids.value.length === 1 ? '' : 's'} listed`);
    }],
  ];
  if (device) {
    probes.push(
      ['device properties', async (call) => {
        const got = await ifOffered(client.deviceInfo(device, call));
        if (!got) return lacking('the screen size comes from the settings, device.info() fails, and phonewright screenshot needs --rect');
        const info = got.value;
        return offered(`${info.model || 'a phone'} by ${info.manufacturer || 'an unnamed maker'}, ${info.width}×${info.height}, Android ${info.android || '?'}`);
      }],
      ['screen capture', (call) => captureFinding(client, device, call)],
      ['acts (screen/inputs)', (call) => actsFinding(client, device, call)],
      ['apps', async (call) => {
        const app = await ifOffered(client.extensions.foregroundApp(device, call));
        if (!app) return lacking('launch and close-app still try apps/<package>, and fail with one line without it');
        return offered(`${app.value || 'no app'} in front; launch and close-app go through apps/<package>`);
      }],
      ['UI elements (sendAai)', async (call) => {
        const count = await ifOffered(client.extensions.elements.count(device, 'TP:all', call));
        if (!count) return lacking('the vendor\'s element engine does not answer here');
        return offered(`the engine answers: ${count.value} element${count.value === 1 ? '' : 's'} on the screen now`);
      }],
      ['text recognition (OCR)', async (call) => {
        const text = await ifOffered(client.extensions.screenText(device, OCR_RECT, call));
        if (!text) return lacking('the server\'s own OCR does not answer here (it needs a language file, such as eng.traineddata, on the phone)');
        return offered(`the server reads text: ${JSON.stringify(text.value.trim().slice(0, 40))} in the top-left ${OCR_RECT.width}×${OCR_RECT.height}`);
      }],
    );
  }
  return Promise.all(
    probes.map(async ([name, probe]) => {
      const t0 = performance.now();
      const deadline = Deadline.in(budgetMs, signal);
      try {
        const found = await probe({ deadline });
        return { name, offered: found.offered, detail: found.detail, ms: Math.round(performance.now() - t0) };
      } catch (error) {
        if (signal.aborted || !isPhonewrightError(error)) throw error;
        return { name, offered: null, detail: `could not tell: ${(error as PhonewrightError).message}`, ms: Math.round(performance.now() - t0) };
      } finally {
        deadline.dispose();
      }
    }),
  );
}

/**
 * Capture: a 1×1 capture at 0,0 in PNG (what phonewright reads), then JPEG and BMP. Without it, the cost of a
 * region read pixel by pixel is timed on this phone: {@link BURST} reads at once, scaled to a 64×48 region.
 */
async function captureFinding(client: DeviceClient, device: DeviceId, call: CallOptions): Promise<Finding> {
  if (!(await ifOffered(client.extensions.captureFormat(device, 'png', call)))) {
    const reads = REGION.width * REGION.height;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: BURST }, (_, i) => client.pixel(device, i % 8, Math.floor(i / 8), call)));
    const seconds = ((performance.now() - t0) * (reads / BURST)) / 1000;
    return lacking(`regions are read pixel by pixel here: a ${REGION.width}×${REGION.height} region is ${reads.toLocaleString('en-US')} reads, about ${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s on this phone; images on the screen cannot be found, and screenshots fail`);
  }
  const formats: string[] = ['png'];
  const refused: string[] = [];
  for (const type of ['jpg', 'bmp'] as CaptureType[]) {
    try {
      await client.extensions.captureFormat(device, type, call);
      formats.push(type);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.reason === 'busy' || error.reason === 'phone-missing') throw error;
      refused.push(type);
    }
  }
  return offered(`${formats.join(', ')}${refused.length ? ` (${refused.join(' and ')} refused)` : ''}; regions are captured in one request`);
}

/**
 * Acts: doctor does not act on a phone, so it reads the clipboard, a read of `screen/texts`, the route text
 * is typed through; servers that have it have `screen/inputs` beside it. The first act decides for sure.
 */
async function actsFinding(client: DeviceClient, device: DeviceId, call: CallOptions): Promise<Finding> {
  if (!(await ifOffered(client.extensions.clipboard(device, call)))) {
    return lacking('screen/texts does not answer; the first act tries screen/inputs, then the JS bridge (text: the bridge), and with neither each act fails with one line');
  }
  return offered('taps, keys and swipes through screen/inputs, text through screen/texts (it answers a clipboard read; the first act confirms)');
}

/** A probe's answer, or undefined when the server lacks the route; any other failure is thrown. */
async function ifOffered<T>(probe: Promise<T>): Promise<{ value: T } | undefined> {
  try {
    return { value: await probe };
  } catch (error) {
    if (error instanceof ServiceError && error.reason === 'not-offered') return undefined;
    throw error;
  }
}

function offered(detail: string): Finding {
  return { offered: true, detail };
}

function lacking(without: string): Finding {
  return { offered: false, detail: `not offered: ${without}` };
}
