/* global window */
// The lines of code the page writes, as a spec writes them (docs/writing-specs.md). Pure functions.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});

  const rect = (r) => `{ x: ${r.x}, y: ${r.y}, width: ${r.width}, height: ${r.height} }`;

  PW.lines = {
    rect,
    /** `await device.expectPixel(x, y).toBe('0xrrggbb');`, with `{ deltaE }` when one is given. */
    pixel: (p, deltaE) => `await device.expectPixel(${p.x}, ${p.y}${deltaE ? `, { deltaE: ${deltaE} }` : ''}).toBe('${p.rgb}');`,
    /** `await expect(device).toMatchRegion({ x, y, width, height }, 'name.png');`, with `{ mask: [...] }` when masked. */
    region: (r, name, masks) =>
      `await expect(device).toMatchRegion(${rect(r)}, '${name}'${masks.length ? `, { mask: [${masks.map(rect).join(', ')}] }` : ''});`,
    /** `await expect(device).toShow('images/name.png');`: an image cut in template mode. */
    show: (image) => `await expect(device).toShow('${image}');`,
    tap: (x, y) => `await device.tap(${x}, ${y});`,
    press: (key) => `await device.press('${key}');`,
    /** A golden's name as toMatchRegion takes it: a file name ending in .png. */
    goldenName: (name) => /^[\w.-]+\.png$/.test(name),
  };
})();
