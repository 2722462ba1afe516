/* global window, document */
// Template mode: a drag saves the rectangle as an image beside the spec (images/<name>.png, the screen it was cut
// on recorded) and drafts the check that looks for it: `await expect(device).toShow('images/<name>.png');`.
(function () {
  'use strict';
  const PW = window.PW;
  const $ = (id) => document.getElementById(id);
  /**
   * The last save refused because the file was there: its rectangle, saved again over that file on request, and
   * what it was for (phone, spec, name). Changing any of those forgets it: Replace never writes over a file
   * the page did not say was there.
   */
  let refused;
  const target = () => `${PW.app.state.phone?.id}\n${$('draft-file').value.trim()}\n${$('image-name').value.trim()}`;

  function forgetIfMoved() {
    if (!refused || refused.target === target()) return;
    refused = undefined;
    $('image-replace').hidden = true;
    // What it said was about that file: it goes with it.
    result('', '');
  }

  function result(kind, text) {
    $('image-result').className = `result${kind ? ` ${kind}` : ''}`;
    $('image-result').textContent = text;
  }

  /** The next free default name: `image-2.png` after `image-1.png`; a name the user chose is left as it is. */
  function nextName() {
    const m = /^image-(\d+)\.png$/.exec($('image-name').value.trim());
    if (m) $('image-name').value = `image-${Number(m[1]) + 1}.png`;
  }

  async function save(rect, replace) {
    const phone = PW.app.state.phone;
    const name = $('image-name').value.trim();
    $('image-replace').hidden = true;
    if (!PW.lines.goldenName(name)) return result('bad', `invalid image name ${JSON.stringify(name)}: expected a file name ending in .png, e.g. 'send-button.png'`);
    result('', 'capturing…');
    try {
      const written = await PW.api.post('template', { phone: phone.id, spec: $('draft-file').value.trim(), name, rect, replace: Boolean(replace) });
      refused = undefined;
      result('ok', `Saved ${written.file} (${written.width}×${written.height}, cut on ${phone.width}×${phone.height})`);
      const line = PW.lines.show(written.image);
      $('image-line').textContent = line;
      $('image-code').hidden = false;
      PW.draft.add('image', line, { phone: phone.id, rect, image: written.image });
      nextName();
    } catch (error) {
      result('bad', error.message);
      if (error.status === 409) {
        refused = { rect, target: target() };
        $('image-replace').hidden = false;
      }
    }
  }

  PW.template = {
    save,
    forgetIfMoved,
    init() {
      $('image-replace').addEventListener('click', () => refused && refused.target === target() && save(refused.rect, true));
      for (const id of ['image-name', 'draft-file']) $(id).addEventListener('input', forgetIfMoved);
    },
  };
})();
