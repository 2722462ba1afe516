/* global window, document, setTimeout, clearTimeout */
// The texts on the screen, boxed over it with their text, when asked: every line read from the screen on a server
// without the UI elements (as a failed getByText's evidence shows them), the elements' texts on one with them. A
// tester sees at once why a label is not found: read otherwise, split, or not read at all.
(function () {
  'use strict';
  const { api, view, app } = window.PW;
  const $ = (id) => document.getElementById(id);
  /**
   * How long the boxes stay before the texts are read again, while shown: a read costs a capture, and a screen whose
   * pixels changed is read again by the OCR engine, a second of a core; the screen itself comes every second.
   */
  const AGAIN_MS = 2000;
  let timer;
  let asked = 0;

  const shown = () => $('show-texts').checked && !app.state.pointOnly;

  function note(text, bad) {
    $('texts-note').textContent = text;
    $('texts-note').className = bad ? 'bad' : 'muted';
  }

  async function read() {
    clearTimeout(timer);
    if (!shown()) return;
    const phone = app.state.phone;
    const seq = ++asked;
    try {
      const { via, lines } = await api.get('texts', { phone: phone.id });
      if (seq !== asked || !shown() || phone !== app.state.phone) return;
      view.showTexts(lines);
      const what = via === 'ocr' ? `line${lines.length === 1 ? '' : 's'} read from the screen` : `text${lines.length === 1 ? '' : 's'} of the UI elements`;
      note(`${lines.length} ${what} · ${new Date().toLocaleTimeString()}`);
    } catch (error) {
      if (seq !== asked) return;
      view.showTexts([]);
      note(error.message, true);
    } finally {
      if (seq === asked && shown() && document.visibilityState === 'visible') timer = setTimeout(read, AGAIN_MS);
    }
  }

  function hide() {
    clearTimeout(timer);
    asked++;
    view.showTexts([]);
    note('');
  }

  $('show-texts').addEventListener('change', () => {
    if (!shown()) return hide();
    note('reading the texts…');
    read();
  });
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'visible' ? read() : clearTimeout(timer)));

  window.PW.texts = {
    /** Another phone: its own texts, if shown. */
    phoneChanged() {
      hide();
      if (shown()) read();
    },
  };
})();
