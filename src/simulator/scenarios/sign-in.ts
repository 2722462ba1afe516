import type { DrawnScreenInput, ElementInput, PhoneInput, RectInput } from '../scenario-types.js';

/** The example app every default phone has: a sign-in form, and the screen after it. */
export const EXAMPLE_APP = 'com.example.app';

const WHITE = '0xffffff';
const INK = '0x202124';
const GREY = '0x5f6368';
const BLUE = '0x1a73e8';
const FIELD = '0xf1f3f4';
const BAR = '0x101820';

/**
 * The example app's screens on a phone of this size, and what starts it (a phone's `screens` and `launch`): a
 * sign-in form (a title, "Email" and "Password" with their fields, a blue "Sign in" button, a help icon known
 * by its description only, small print) whose button opens "Signed in", whose "Sign out" opens the form again.
 * Laid out for a 1080-pixel short side and scaled to the phone's, in a column at most 960 of those wide,
 * centred (landscape screens keep it narrow).
 */
export function exampleApp(width: number, height: number): Pick<PhoneInput, 'screens' | 'launch'> {
  return { screens: { 'sign-in': signIn(width, height), 'signed-in': signedIn(width, height) }, launch: { [EXAMPLE_APP]: 'sign-in' } };
}

/** Scales a length of the 1080-wide layout to the phone. */
function scaler(width: number, height: number): (n: number) => number {
  const unit = Math.min(width, height) / 1080;
  return (n) => Math.round(n * unit);
}

function signIn(width: number, height: number): DrawnScreenInput {
  const u = scaler(width, height);
  const { left, right, frame } = column(width, height);
  const id = (name: string) => `${EXAMPLE_APP}:id/${name}`;
  const icon = u(96);
  const elements: ElementInput[] = [
    { text: 'Welcome back', id: id('title'), bounds: [left, u(170), right - icon - u(24), u(270)], textColor: INK, textSize: u(72), weight: 'bold' },
    { description: 'Help', id: id('help'), class: 'android.widget.ImageButton', clickable: true, bounds: [right - icon, u(172), right, u(172) + icon] },
    { text: 'Email', id: id('email_label'), bounds: [left, u(330), right, u(385)], textColor: GREY, textSize: u(40) },
    { text: '', id: id('email'), editable: true, clickable: true, bounds: [left, u(390), right, u(500)], fill: FIELD, textColor: INK, textSize: u(44) },
    { text: 'Password', id: id('password_label'), bounds: [left, u(540), right, u(595)], textColor: GREY, textSize: u(40) },
    { text: '', id: id('password'), editable: true, clickable: true, bounds: [left, u(600), right, u(710)], fill: FIELD, textColor: INK, textSize: u(44) },
    { text: 'Sign in', id: id('login'), class: 'android.widget.Button', clickable: true, bounds: [left, u(780), right, u(910)], fill: BLUE, textColor: WHITE, textSize: u(48), opens: 'signed-in' },
    { text: 'Forgot password? Terms of service apply.', id: id('terms'), bounds: [left, u(950), right, u(1000)], textColor: GREY, textSize: u(28) },
  ];
  // The help icon, drawn in rectangles: a blue square with a white "i", a mark, not text (an OCR of the title's
  // line reads the title only).
  const mark: RectInput[] = [
    { x: right - icon, y: u(172), width: icon, height: icon, color: BLUE },
    { x: right - icon + u(42), y: u(172) + u(20), width: u(12), height: u(12), color: WHITE },
    { x: right - icon + u(42), y: u(172) + u(40), width: u(12), height: u(36), color: WHITE },
  ];
  return { ...frame, elements, rects: [...(frame.rects ?? []), ...mark] };
}

function signedIn(width: number, height: number): DrawnScreenInput {
  const u = scaler(width, height);
  const { left, right, frame } = column(width, height);
  const id = (name: string) => `${EXAMPLE_APP}:id/${name}`;
  const elements: ElementInput[] = [
    { text: 'Signed in', id: id('title'), bounds: [left, u(170), right, u(270)], textColor: INK, textSize: u(72), weight: 'bold' },
    { text: 'You are signed in to Example.', id: id('status'), bounds: [left, u(330), right, u(385)], textColor: GREY, textSize: u(40) },
    { text: 'Sign out', id: id('logout'), class: 'android.widget.Button', clickable: true, bounds: [left, u(780), right, u(910)], fill: GREY, textColor: WHITE, textSize: u(48), opens: 'sign-in' },
  ];
  return { ...frame, elements };
}

/** The app's column, and what every screen of it has: a white page under a status bar with the time. */
function column(width: number, height: number): { left: number; right: number; frame: DrawnScreenInput } {
  const u = scaler(width, height);
  const columnWidth = Math.min(width - 2 * u(60), u(960));
  const left = Math.round((width - columnWidth) / 2);
  const bar = u(72);
  return {
    left,
    right: left + columnWidth,
    frame: { width, height, fill: WHITE, rects: [{ x: 0, y: 0, width, height: bar, color: BAR }], texts: [{ x: u(24), y: u(15), text: '12:30', size: u(36), color: WHITE }] },
  };
}
