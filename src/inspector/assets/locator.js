/* global window, document */
// The locator of what was clicked: the most specific one that names it alone on the screen (its text or
// description through the UI elements, or the words read where the server has none), with the lines to copy or
// add to the draft: a tap, and a check that it is there.
(function () {
  'use strict';
  const PW = window.PW;
  const $ = (id) => document.getElementById(id);
  let asked = 0;

  function row(id, text) {
    const code = Object.assign(document.createElement('code'), { id, textContent: text });
    const copy = Object.assign(document.createElement('button'), { type: 'button', className: 'copy', textContent: 'Copy' });
    copy.addEventListener('click', async () => {
      copy.textContent = (await PW.draft.copy(text)) ? 'Copied' : 'Select it';
      window.setTimeout(() => (copy.textContent = 'Copy'), 1500);
    });
    const add = Object.assign(document.createElement('button'), { type: 'button', className: 'copy', textContent: 'Add' });
    add.addEventListener('click', () => {
      PW.draft.add('locator', text, { phone: PW.app.state.phone.id });
      add.disabled = true;
    });
    return Object.assign(document.createElement('div'), { className: 'code' }).appendChild(code).parentNode.appendChild(copy).parentNode.appendChild(add).parentNode;
  }

  function show(children) {
    $('locator-box').replaceChildren(...children);
    $('locator-box').hidden = children.length === 0;
  }

  const muted = (text) => Object.assign(document.createElement('p'), { className: 'muted', textContent: text });

  PW.locator = {
    /** Asks for the locator at a picked point of the phone; a later pick makes this one's answer moot. */
    async suggest(phone, p) {
      const seq = ++asked;
      show([muted('looking for a locator here…')]);
      try {
        const { suggestion: s } = await PW.api.get('locator', { phone: phone.id, x: p.x, y: p.y });
        if (seq !== asked) return;
        if (!s) return show([muted('No text or element with a text here: a pixel or an image checks it.')]);
        const via = s.via === 'elements' ? 'the UI elements' : 'the text read from the screen';
        const head = Object.assign(document.createElement('p'), { className: 'locator-head' });
        head.append(Object.assign(document.createElement('strong'), { textContent: 'Locator' }), ` "${s.text}" at ${s.box.width}×${s.box.height} (${s.box.x}, ${s.box.y}), found by ${via}`);
        show([head, row('locator-tap', s.lines.tap), row('locator-visible', s.lines.visible)]);
      } catch (error) {
        if (seq === asked) show([Object.assign(document.createElement('p'), { className: 'bad', textContent: error.message })]);
      }
    },
    clear() {
      asked++;
      show([]);
    },
  };
})();
