// The server's OCR, `GET devices/<id>/screen/texts?rect=[x1,y1,x2,y2]&lang=eng&mode=…`: the drawn texts whose
// ink lies inside the rectangle, in reading order; nothing on a PNG screen; refused when not offered.
import { PNG } from 'pngjs';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { parseLiteral } from '../../src/simulator/aai-literal.js';
import { authed, expect, login, test } from './harness.js';

const PHONE = 'device@5';
const PNG_PHONE = 'device@6';
const png = () => {
  const image = new PNG({ width: 8, height: 8 });
  image.data.fill(0xff);
  return PNG.sync.write(image);
};

test.use({
  simOptions: {
    scenario: {
      phones: [
        {
          id: PHONE,
          screen: {
            width: 600,
            height: 300,
            fill: '0xffffff',
            // Drawn out of reading order: the right-hand text first, the lower line before the upper.
            texts: [
              { x: 20, y: 150, text: 'Second line', size: 30 },
              { x: 300, y: 20, text: 'right', size: 30 },
              { x: 20, y: 24, text: 'Left', size: 24, weight: 'bold' },
            ],
            elements: [{ text: 'Button', bounds: [20, 220, 300, 290], fill: '0x1a73e8', textColor: '0xffffff', clickable: true }],
          },
        },
        { id: PNG_PHONE, screen: { png: png() } },
      ],
    },
  },
});

async function ocr(sim: SimulatorHandle, query: string, device = PHONE): Promise<unknown> {
  const token = await login(sim);
  return (await authed(sim, token, `/devices/${device}/screen/texts?${query}`)).json;
}

test('reads the texts inside the rectangle in reading order: lines top to bottom, each left to right', async ({ sim }) => {
  expect(await ocr(sim, 'rect=[0,0,600,300]&lang=eng&mode=singleline')).toEqual({ status: true, value: 'Left right Second line Button\n' });
  expect(await ocr(sim, 'rect=[0,0,600,300]&lang=eng&mode=multiline')).toEqual({ status: true, value: 'Left right\nSecond line\nButton\n' });
  expect(await ocr(sim, 'rect=[0,0,600,300]'), 'no mode: automatic, one line per line').toEqual({ status: true, value: 'Left right\nSecond line\nButton\n' });
  expect(await ocr(sim, 'rect=[20,220,300,290]&lang=chi_sim&mode=singleline'), 'an element\'s bounds; any lang').toEqual({ status: true, value: 'Button\n' });
});

test('a text partly outside the rectangle is not read; a rectangle with no text reads ""', async ({ sim }) => {
  const right = sim.screenInfo(PHONE).texts.find((t) => t.text === 'right')!;
  expect(await ocr(sim, `rect=[0,0,${right.x + right.width},200]&mode=singleline`)).toEqual({ status: true, value: 'Left right Second line\n' });
  expect(await ocr(sim, `rect=[0,0,${right.x + right.width - 1},200]&mode=singleline`)).toEqual({ status: true, value: 'Left Second line\n' });
  expect(await ocr(sim, 'rect=[500,200,600,300]&mode=singleline')).toEqual({ status: true, value: '' });
});

test('a PNG screen: the simulator knows no text on it, and reads ""', async ({ sim }) => {
  expect(await ocr(sim, 'rect=[0,0,8,8]&lang=eng&mode=singleline', PNG_PHONE)).toEqual({ status: true, value: '' });
});

test('a rectangle off the screen, or not one, is refused naming it', async ({ sim }) => {
  expect(await ocr(sim, 'rect=[0,0,601,300]')).toEqual({ status: null, value: 'bad rect [0,0,601,300]: not inside the screen (600×300)' });
  expect(await ocr(sim, 'rect=[10,10,10,20]')).toEqual({ status: null, value: 'bad rect [10,10,10,20]: not inside the screen (600×300)' });
  expect(await ocr(sim, 'rect=0,0,5,5')).toEqual({ status: null, value: 'bad rect "0,0,5,5": write [topLeftX,topLeftY,bottomRightX,bottomRightY]' });
});

test.describe('without OCR', () => {
  test.use({ simOptions: { ocr: false } });

  test('the OCR form answers the failure envelope; typing and the clipboard still work', async ({ sim }) => {
    const token = await login(sim);
    const main = sim.mainDevice;
    expect((await authed(sim, token, `/devices/${main}/screen/texts?rect=[0,0,100,50]&lang=eng&mode=singleline`)).json).toEqual({
      status: null,
      value: `OCR (screen/texts with rect=[0,0,100,50]) is not offered by this simulator on ${main}: it types text and reads the clipboard only`,
    });
    expect((await authed(sim, token, `/devices/${main}/screen/texts?text=hi`)).json).toEqual({ status: true });
    expect((await authed(sim, token, `/devices/${main}/screen/texts?type=clipboard_text`)).json).toEqual({ status: true, value: '' });
  });
});

test('the options elements and ocr take true or false only', async () => {
  const { startSimulator } = await import('../../src/simulator/index.js');
  await expect(startSimulator({ port: 0, ocr: 'no' as unknown as boolean })).rejects.toThrow('invalid ocr "no": expected true (offered, the default) or false (answered as a server without it answers)');
  await expect(startSimulator({ port: 0, elements: 0 as unknown as boolean })).rejects.toThrow('invalid elements 0: expected true');
});

// sendAai's params: a JavaScript object literal, read strictly.
const LITERALS: [string, unknown][] = [
  ['{query:"T:OK"}', { query: 'T:OK' }],
  [`{query:'T:OK',action:'click'}`, { query: 'T:OK', action: 'click' }],
  ['{action:["getBounds"],query:"TP:more&&D:7"}', { action: ['getBounds'], query: 'TP:more&&D:7' }],
  ['{"query": "T:OK", "n": -1.5, "b": [true, false, null]}', { query: 'T:OK', n: -1.5, b: [true, false, null] }],
  [` { $a_1 : 'it\\'s "quoted" \\u00e9\\n' , } `, { $a_1: 'it\'s "quoted" é\n' }],
  ['{list:[1,[2,[]],{}],}', { list: [1, [2, []], {}] }],
];
const REFUSED: [string, string][] = [
  ['{query:T:OK}', 'T is not a value (a string needs quotes) at character 8'],
  ['{query:"T:OK"', 'expected "," or "}" at character 14 (the end)'],
  ['{query:"T:OK"} x', 'text after the end at character 16'],
  ['{query:"T:OK",query:"T:x"}', 'the key query given twice'],
  ['{query:"a\\qb"}', 'an escape \\q this reader does not know'],
  ['{query:"line\nbreak"}', 'a string not closed with "'],
  ['{"a" "b"}', 'expected ":" after the key a'],
  ['{1:2}', 'expected a key (a name such as query, or a string)'],
  ['{n:01}', 'expected "," or "}" at character 5'],
  ['{a:[[[[[[[[1]]]]]]]]}', 'more than 8 levels of lists and objects'],
  ['{q:/* c */"x"}', 'expected a value'],
];

test('params: object literals are read as JavaScript writes them', () => {
  for (const [text, value] of LITERALS) expect(parseLiteral(text), text).toEqual({ value });
});

test('params: what is not a literal is refused, saying what and where', () => {
  for (const [text, error] of REFUSED) {
    const read = parseLiteral(text);
    expect('error' in read ? read.error : 'read', text).toContain(error);
  }
});
